package dev.saccade.x11;

import com.sun.jna.Native;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The window reader's and the pixel capture's use of the one binding ({@link Xlib}): loaded
 * once here (libX11 with {@code XInitThreads}, and libXrandr, which may be missing), with
 * the process-wide Xlib error handlers. {@link X11Desktop} is the reader's one connection.
 *
 * <p>Calls are JNA direct mappings with Java {@code long} for C {@code long} and XIDs: on LP64
 * (x86_64, aarch64 Linux) both are 8 bytes, and format-32 property data is an array of C longs.
 * The libraries refuse to load elsewhere rather than read half a value.
 *
 * <p>Xlib's default handlers call {@code exit()}: on any protocol error (a window destroyed
 * between two calls gives BadWindow) and on any I/O error (the server went away). The first
 * {@link X11Desktop#open(String)} installs process-wide replacements that count and return, and every
 * connection gets a per-display I/O exit handler (libX11 1.7+) that marks it lost, so Xlib
 * unwinds the failed call and the connection can still be closed. Both handlers are global to
 * the process: another Xlib user in the same JVM (AWT) would have its handlers replaced. The one
 * gap is an I/O error inside {@code XOpenDisplay} itself (the server dying mid-handshake), which
 * no per-display handler can cover.
 */
final class X11Native {
    /** XErrorEvent.error_code (LP64). */
    private static final int ERROR_EVENT_CODE_OFFSET = 32;

    /** Why libX11 or libc cannot be used here, kept as the cause of every later failure. */
    static final Throwable LOAD_FAILURE;
    /** Why libXrandr cannot be used; then monitors fall back to the root window's size. */
    static final Throwable XRANDR_LOAD_FAILURE;

    private static final AtomicLong PROTOCOL_ERRORS = new AtomicLong();
    private static final AtomicLong IO_ERRORS = new AtomicLong();
    /** error_code of the most recent protocol error, for diagnostics (3 = BadWindow). */
    private static volatile int lastProtocolErrorCode;
    private static boolean handlersInstalled;

    // Process-wide handlers, strongly held: JNA frees a callback's native stub with its object.
    private static final Xlib.ErrorHandler ERROR_HANDLER = (display, event) -> {
        PROTOCOL_ERRORS.incrementAndGet();
        lastProtocolErrorCode = event.getByte(ERROR_EVENT_CODE_OFFSET) & 0xFF;
        return 0;
    };
    private static final Xlib.IoErrorHandler IO_ERROR_HANDLER = display -> {
        IO_ERRORS.incrementAndGet();
        return 0;
    };

    static {
        Throwable failure = null;
        if (Native.LONG_SIZE != Long.BYTES || Native.POINTER_SIZE != Long.BYTES) {
            failure = new UnsatisfiedLinkError("X11Desktop maps C long to a Java long: LP64 only");
        } else {
            try {
                // Several threads open connections (the reader, readOnce callers) and XOpenDisplay
                // edits a process-wide list. libX11 1.8 does this itself; older ones need it
                // before any other Xlib call, which holds in a process whose only X user is us.
                Xlib.X11.XInitThreads();
            } catch (final LinkageError e) {
                failure = e.getCause() != null ? e.getCause() : e;
            }
        }
        LOAD_FAILURE = failure;

        Throwable randrFailure = failure;
        if (failure == null) {
            try {
                Xlib.Xrandr.load();
            } catch (final LinkageError e) {
                randrFailure = e.getCause() != null ? e.getCause() : e;
            }
        }
        XRANDR_LOAD_FAILURE = randrFailure;
    }

    private X11Native() {
    }

    /** Replaces Xlib's exiting handlers with the counting ones, once per process. */
    static synchronized void installErrorHandlers() {
        if (!handlersInstalled) {
            Xlib.X11.XSetErrorHandler(ERROR_HANDLER);
            Xlib.X11.XSetIOErrorHandler(IO_ERROR_HANDLER);
            handlersInstalled = true;
        }
    }

    /** Protocol errors (BadWindow, BadAtom ...) absorbed in this process since it started. */
    static long protocolErrorCount() {
        return PROTOCOL_ERRORS.get();
    }

    /** The error_code of the most recent protocol error; 0 if none yet. */
    static int lastProtocolErrorCode() {
        return lastProtocolErrorCode;
    }

    /** I/O errors (lost connections) absorbed in this process since it started. */
    static long ioErrorCount() {
        return IO_ERRORS.get();
    }
}
