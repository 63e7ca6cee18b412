package dev.saccade.helper.backend.xtest;

import com.sun.jna.Pointer;
import dev.saccade.x11.Xlib;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Keeps Xlib from ending the process. Xlib's default handlers print and call {@code exit()} on a
 * protocol error (a BadWindow from a vanished window) and on a lost connection (the X server
 * died); here a protocol error is counted for its display, and a lost connection marks its display
 * dead, after which Xlib calls on it return at once and the backend answers PLATFORM_BACKEND.
 *
 * <p>libX11 (1.8) takes the display's user lock in {@code _XIOError} before calling the exit
 * handler, expecting the process to exit; if the handler returns, the lock stays with the thread
 * that met the error and any other thread's later call on that display (XCloseDisplay included)
 * blocks forever. The exit handler here releases it (XUnlockDisplay), so the display can still be
 * closed from whichever thread owns it.
 *
 * <p>Static because Xlib's handlers are process-wide: installed once, before the first display
 * opens. The callbacks stay strongly reachable in static fields (JNA frees a collected callback).
 * Each registered display has a slot; a slot's counters are written by the thread that uses that
 * display (Xlib runs handlers on the calling thread) and read by the same thread.
 */
final class XErrorTrap {
    private static final int SLOTS = 32;
    /** Display pointer of each slot, 0 when free; guarded by the class lock for registration. */
    private static final long[] DISPLAYS = new long[SLOTS];
    private static final AtomicLongArray ERRORS = new AtomicLongArray(SLOTS);
    private static final AtomicIntegerArray LAST_ERROR = new AtomicIntegerArray(SLOTS);
    private static final AtomicIntegerArray LOST = new AtomicIntegerArray(SLOTS);
    private static final ProtocolErrors PROTOCOL_ERRORS = new ProtocolErrors();
    private static final QuietIoErrors IO_ERRORS = new QuietIoErrors();
    private static final KeepRunning KEEP_RUNNING = new KeepRunning();
    private static volatile long foreignErrors;
    private static boolean installed;

    private XErrorTrap() {
    }

    /** Installs the process-wide handlers (idempotent) and XInitThreads. Call before XOpenDisplay. */
    static synchronized void install() {
        if (!installed) {
            Xlib.X11.XInitThreads();
            Xlib.X11.XSetErrorHandler(PROTOCOL_ERRORS);
            Xlib.X11.XSetIOErrorHandler(IO_ERRORS);
            installed = true;
        }
    }

    /** Gives an open display a slot and a per-display exit handler that returns instead of exiting. */
    static synchronized int register(final long display) {
        install();
        for (int slot = 0; slot < SLOTS; slot++) {
            if (DISPLAYS[slot] == 0) {
                DISPLAYS[slot] = display;
                ERRORS.set(slot, 0);
                LAST_ERROR.set(slot, 0);
                LOST.set(slot, 0);
                Xlib.X11.XSetIOErrorExitHandler(display, KEEP_RUNNING, 0);
                return slot;
            }
        }
        throw new IllegalStateException("more than " + SLOTS + " X displays open in one process");
    }

    static synchronized void unregister(final int slot) {
        DISPLAYS[slot] = 0;
    }

    /** Protocol errors on the slot's display so far. */
    static long errors(final int slot) {
        return ERRORS.get(slot);
    }

    /** error_code | request_code << 8 of the slot's last protocol error. */
    static int lastError(final int slot) {
        return LAST_ERROR.get(slot);
    }

    /** The slot's connection is gone: every later call on it is refused. */
    static boolean isLost(final int slot) {
        return LOST.get(slot) != 0;
    }

    /** Protocol errors on displays this class does not know (another library's). */
    static long foreignErrors() {
        return foreignErrors;
    }

    private static int slotOf(final Pointer display) {
        final long address = Pointer.nativeValue(display);
        for (int slot = 0; slot < SLOTS; slot++) {
            if (DISPLAYS[slot] == address) {
                return slot;
            }
        }
        return -1;
    }

    private static final class ProtocolErrors implements Xlib.ErrorHandler {
        @Override
        public int invoke(final Pointer display, final Pointer errorEvent) {
            final int slot = slotOf(display);
            final int code = (errorEvent.getByte(Xlib.ERROR_EVENT_ERROR_CODE_OFFSET) & 0xFF)
                | (errorEvent.getByte(Xlib.ERROR_EVENT_REQUEST_CODE_OFFSET) & 0xFF) << 8;
            if (slot < 0) {
                foreignErrors++;
            } else {
                LAST_ERROR.set(slot, code);
                ERRORS.incrementAndGet(slot);
            }
            return 0;
        }
    }

    private static final class QuietIoErrors implements Xlib.IoErrorHandler {
        @Override
        public int invoke(final Pointer display) {
            final int slot = slotOf(display);
            if (slot >= 0) {
                LOST.set(slot, 1);
            }
            return 0;
        }
    }

    private static final class KeepRunning implements Xlib.IoErrorExitHandler {
        @Override
        public void invoke(final Pointer display, final Pointer userData) {
            final int slot = slotOf(display);
            if (slot >= 0) {
                LOST.set(slot, 1);
            }
            Xlib.X11.XUnlockDisplay(Pointer.nativeValue(display)); // balances _XIOError's user lock
        }
    }
}
