/**
 * The platform-neutral desktop model every scene source and desktop backend shares: a
 * {@link dev.saccade.desktop.DesktopSnapshot} of windows ({@link dev.saccade.desktop.WindowInfo})
 * and monitors ({@link dev.saccade.desktop.MonitorInfo}), the accessibility tree a semantic source
 * hands the composer ({@link dev.saccade.desktop.AccessibilitySnapshot}), the target id
 * namespaces ({@link dev.saccade.desktop.TargetIds}), and the interface the owner starts a
 * platform through ({@link dev.saccade.desktop.DesktopBackend}), with the capture contract it
 * offers the pixel source ({@link dev.saccade.desktop.ScreenCapture}). Immutable values, pure
 * functions and interfaces; depends on {@code protocol} only.
 *
 * <p>See docs/architecture.md, "Modules and arrows".
 */
package dev.saccade.desktop;
