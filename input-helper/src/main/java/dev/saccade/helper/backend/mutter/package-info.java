/**
 * The GNOME input backend: {@link dev.saccade.helper.backend.mutter.MutterBackend} injects
 * pointer, wheel, key and text input through mutter's RemoteDesktop D-Bus session (absolute
 * motion through the ScreenCast stream of the monitor), and activates windows through Saccade's
 * GNOME Shell extension (docs/desktops/gnome.md).
 */
package dev.saccade.helper.backend.mutter;
