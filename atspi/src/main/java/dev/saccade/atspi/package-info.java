/**
 * The AT-SPI2 accessibility source: {@link dev.saccade.atspi.AtspiSource} reads the
 * accessible trees of the desktop's applications over the accessibility bus (dbus-java) on its own
 * thread and delivers immutable {@link dev.saccade.desktop.AccessibilitySnapshot}s of
 * {@link dev.saccade.desktop.AccessibilityNode}s: role, capabilities, flags, screen bounds,
 * text lane and a stable target id each. It also runs semantic actions ({@code DoAction}) off the
 * caller's thread, and reports per-application diagnostics for {@code saccade doctor}.
 *
 * <p>Owns every D-Bus call of the owner: through dbus-java in the package-private
 * {@code AtspiBus} (bus, events, actions), and over peer-to-peer connections to at-spi2-atk
 * applications in {@code PeerLink} with its own wire codec {@code DBusWire} (the bulk refresh
 * path, where dbus-java's per-message cost was the bottleneck). The owner thread never calls in
 * here except through the non-blocking methods of {@code AtspiSource}; it takes the snapshots the
 * listener hands over.
 */
package dev.saccade.atspi;
