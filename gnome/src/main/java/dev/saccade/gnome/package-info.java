/**
 * The GNOME (mutter 43, GNOME Shell 43) desktop backend for a {@code wayland:SOCKET} display
 * whose session is GNOME's: {@link dev.saccade.gnome.GnomeBackend}, the window list from
 * Saccade's GNOME Shell extension ({@link dev.saccade.gnome.ShellExtension}, exported as
 * {@code dev.saccade.Shell1} on the shell's bus connection), and the pixels from the same
 * extension's screenshot (docs/desktops/gnome.md). Input is the input helper's (mutter's
 * RemoteDesktop session).
 */
package dev.saccade.gnome;
