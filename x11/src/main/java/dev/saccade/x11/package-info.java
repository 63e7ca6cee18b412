/**
 * The X11 desktop backend ({@link dev.saccade.x11.X11Backend}):
 * {@link dev.saccade.x11.X11DesktopReader} watches a display on its own thread and delivers immutable {@link dev.saccade.desktop.DesktopSnapshot}s (client
 * windows in stacking order with pid, title, bounds and state; the active window; XRandR
 * monitors with stable display ids; a topology epoch). Owns every Xlib/XRandR call of the window
 * reader: declared in the package-private {@code X11Native}, made through {@code X11Desktop} (one
 * connection) and {@code X11Properties} (its property reads); the reader thread is the only user
 * of its connection. The owner thread never calls in here: it takes the snapshots the listener hands
 * over.
 */
package dev.saccade.x11;
