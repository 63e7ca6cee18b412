/**
 * The X11 input backend: {@link dev.saccade.helper.backend.xtest.XTestBackend} injects pointer,
 * wheel, key and text input through XTEST and activates windows through EWMH;
 * {@link dev.saccade.helper.backend.xtest.UserInputMonitor} tells real user input from synthetic
 * input with XInput2 raw events. Every native call is declared in the x11 module's
 * {@code dev.saccade.x11.Xlib} (one nested class per library: libX11, libXtst, libXi, libc); {@code XErrorTrap}
 * keeps Xlib from exiting the process on protocol and I/O errors.
 *
 * <p>64-bit Linux (LP64) only: native longs and pointers are Java longs.
 */
package dev.saccade.helper.backend.xtest;
