package dev.saccade.cli;

import com.sun.jna.platform.unix.X11;
import com.sun.jna.ptr.IntByReference;
import dev.saccade.testsupport.Await;

/**
 * Reads what the X server itself says about the pointer's buttons, over a connection of the
 * test's own: the proof that synthetic input is, or is no longer, held.
 */
final class XPointerProbe implements AutoCloseable {
    static final int BUTTON1_MASK = 1 << 8;
    private final X11 x = X11.INSTANCE;
    private final X11.Display display;
    private final X11.Window root;
    private final X11.WindowByReference rootReturn = new X11.WindowByReference();
    private final X11.WindowByReference childReturn = new X11.WindowByReference();
    private final IntByReference a = new IntByReference();
    private final IntByReference b = new IntByReference();
    private final IntByReference c = new IntByReference();
    private final IntByReference d = new IntByReference();
    private final IntByReference mask = new IntByReference();

    XPointerProbe(final String displayName) {
        display = x.XOpenDisplay(displayName);
        if (display == null) {
            throw new IllegalStateException("cannot open " + displayName);
        }
        root = x.XDefaultRootWindow(display);
    }

    /** The button and modifier mask of the core pointer now. */
    int mask() {
        x.XQueryPointer(display, root, rootReturn, childReturn, a, b, c, d, mask);
        return mask.getValue();
    }

    /** x, y of the pointer on the root window, and the mask. */
    int[] state() {
        x.XQueryPointer(display, root, rootReturn, childReturn, a, b, c, d, mask);
        return new int[] {a.getValue(), b.getValue(), mask.getValue()};
    }

    boolean leftHeld() {
        return (mask() & BUTTON1_MASK) != 0;
    }

    /** Polls until the left button is up; returns the nanoTime it was first seen up, or -1. */
    long awaitLeftReleased(final long deadlineNs) {
        // busy-spins: the time it returns is the release latency the callers measure
        while (Await.before(deadlineNs)) {
            if (!leftHeld()) {
                return System.nanoTime();
            }
            Thread.onSpinWait();
        }
        return -1;
    }

    @Override
    public void close() {
        x.XCloseDisplay(display);
    }
}
