/**
 * The X11 desktop backend ({@link dev.saccade.x11.X11Backend}):
 * {@link dev.saccade.x11.X11DesktopReader} watches a display on its own thread and delivers immutable {@link dev.saccade.desktop.DesktopSnapshot}s (client
 * windows in stacking order with pid, title, bounds and state; the active window; XRandR
 * monitors with stable display ids; a topology epoch), and its capture for the pixel source
 * ({@link dev.saccade.x11.X11Capture}: MIT-SHM, DAMAGE). Holds the one binding of libX11 and its
 * extensions ({@link dev.saccade.x11.Xlib}, one nested class per library), public for the input
 * helper's XTest backend and the owner's release of a lost helper's input; the reader's calls go
 * through {@code X11Desktop} (one connection) and {@code X11Properties} (its property reads), loaded
 * by {@code X11Native}; the reader thread is the only user of its connection. The owner thread never
 * calls in here: it takes the snapshots the listener hands over.
 */
package dev.saccade.x11;
