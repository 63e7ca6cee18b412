package dev.saccade.x11;

import com.sun.jna.Callback;
import com.sun.jna.Function;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The window reader's native declarations, loaded once: libX11, libXrandr and the libc calls
 * ({@code pipe}, {@code poll}, {@code write}, {@code close}, and the shared segment calls of
 * {@link X11Capture}) to sleep on the X socket and be woken, with the process-wide Xlib error
 * handlers. Keeping them in one file
 * keeps the unsafe surface in one place; {@link X11Desktop} is the one connection that uses them.
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
    /** {@code XSetIOErrorExitHandler}, libX11 1.7+; null on older libraries. */
    static final Function SET_IO_ERROR_EXIT_HANDLER;

    private static final AtomicLong PROTOCOL_ERRORS = new AtomicLong();
    private static final AtomicLong IO_ERRORS = new AtomicLong();
    /** error_code of the most recent protocol error, for diagnostics (3 = BadWindow). */
    private static volatile int lastProtocolErrorCode;
    private static boolean handlersInstalled;

    // Process-wide handlers, strongly held: JNA frees a callback's native stub with its object.
    private static final ErrorHandler ERROR_HANDLER = (display, event) -> {
        PROTOCOL_ERRORS.incrementAndGet();
        lastProtocolErrorCode = event.getByte(ERROR_EVENT_CODE_OFFSET) & 0xFF;
        return 0;
    };
    private static final IOErrorHandler IO_ERROR_HANDLER = display -> {
        IO_ERRORS.incrementAndGet();
        return 0;
    };

    static {
        Throwable failure = null;
        if (Native.LONG_SIZE != Long.BYTES || Native.POINTER_SIZE != Long.BYTES) {
            failure = new UnsatisfiedLinkError("X11Desktop maps C long to a Java long: LP64 only");
        } else {
            try {
                Native.register(Xlib.class, NativeLibrary.getInstance("X11"));
                Native.register(LibC.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
                // Several threads open connections (the reader, readOnce callers) and XOpenDisplay
                // edits a process-wide list. libX11 1.8 does this itself; older ones need it
                // before any other Xlib call, which holds in a process whose only X user is us.
                Xlib.XInitThreads();
            } catch (final Throwable t) {
                failure = t;
            }
        }
        LOAD_FAILURE = failure;

        Throwable randrFailure = failure;
        if (failure == null) {
            randrFailure = registerXrandr();
        }
        XRANDR_LOAD_FAILURE = randrFailure;

        Function exitHandlerSetter = null;
        if (failure == null) {
            try {
                exitHandlerSetter = NativeLibrary.getInstance("X11").getFunction("XSetIOErrorExitHandler");
            } catch (final UnsatisfiedLinkError ignore) {
                // libX11 < 1.7: an I/O error still ends the process; nothing more can be done here.
            }
        }
        SET_IO_ERROR_EXIT_HANDLER = exitHandlerSetter;
    }

    private static Throwable registerXrandr() {
        try {
            Native.register(XRandR.class, NativeLibrary.getInstance("Xrandr"));
            return null;
        } catch (final Throwable first) {
            // Runtime-only installs have libXrandr.so.2 but no unversioned development symlink.
            try {
                Native.register(XRandR.class, NativeLibrary.getInstance("libXrandr.so.2"));
                return null;
            } catch (final Throwable second) {
                second.addSuppressed(first);
                return second;
            }
        }
    }

    private X11Native() {
    }

    /** Replaces Xlib's exiting handlers with the counting ones, once per process. */
    static synchronized void installErrorHandlers() {
        if (!handlersInstalled) {
            Xlib.XSetErrorHandler(ERROR_HANDLER);
            Xlib.XSetIOErrorHandler(IO_ERROR_HANDLER);
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

    // ---------------------------------------------------------------- declarations

    /** {@code int (*XErrorHandler)(Display*, XErrorEvent*)}. */
    public interface ErrorHandler extends Callback {
        int invoke(Pointer display, Pointer errorEvent);
    }

    /** {@code int (*XIOErrorHandler)(Display*)}. */
    public interface IOErrorHandler extends Callback {
        int invoke(Pointer display);
    }

    /** {@code void (*XIOErrorExitHandler)(Display*, void*)}. */
    public interface IOErrorExitHandler extends Callback {
        void invoke(Pointer display, Pointer userData);
    }

    /** libX11. XIDs, Atoms and C longs are Java longs (LP64, checked on load). */
    static final class Xlib {
        private Xlib() {
        }

        static native int XInitThreads();

        static native Pointer XOpenDisplay(String displayName);

        static native int XCloseDisplay(Pointer display);

        static native long XDefaultRootWindow(Pointer display);

        static native int XConnectionNumber(Pointer display);

        static native long XInternAtom(Pointer display, String name, int onlyIfExists);

        static native Pointer XGetAtomName(Pointer display, long atom);

        static native int XGetWindowProperty(Pointer display, long window, long property, long longOffset,
            long longLength, int delete, long requiredType, LongByReference actualTypeReturn,
            IntByReference actualFormatReturn, LongByReference itemCountReturn,
            LongByReference bytesAfterReturn, PointerByReference propReturn);

        static native int XFree(Pointer data);

        static native int XGetWindowAttributes(Pointer display, long window, Pointer attributesReturn);

        static native int XTranslateCoordinates(Pointer display, long srcWindow, long destWindow, int srcX,
            int srcY, IntByReference destXReturn, IntByReference destYReturn, LongByReference childReturn);

        static native int XSelectInput(Pointer display, long window, long eventMask);

        static native int XPending(Pointer display);

        static native int XNextEvent(Pointer display, Pointer eventReturn);

        static native Pointer XSetErrorHandler(ErrorHandler handler);

        static native Pointer XSetIOErrorHandler(IOErrorHandler handler);
    }

    /** libXrandr (1.5 for monitors). */
    static final class XRandR {
        private XRandR() {
        }

        static native int XRRQueryExtension(Pointer display, IntByReference eventBaseReturn,
            IntByReference errorBaseReturn);

        static native void XRRSelectInput(Pointer display, long window, int mask);

        static native Pointer XRRGetMonitors(Pointer display, long window, int getActive,
            IntByReference countReturn);

        static native void XRRFreeMonitors(Pointer monitors);
    }

    /** The libc calls the reader and the pixel capture sleep and wake with, and the capture's shared segment. */
    static final class LibC {
        static final int IPC_PRIVATE = 0;
        static final int IPC_CREAT = 01000;
        static final int IPC_RMID = 0;

        private LibC() {
        }

        static native int shmget(int key, long size, int flags);

        static native Pointer shmat(int id, Pointer address, int flags);

        static native int shmdt(Pointer address);

        static native int shmctl(int id, int command, Pointer buffer);

        static native int pipe(int[] fds);

        static native int poll(Pointer fds, long count, int timeoutMs);

        static native long write(int fd, byte[] buffer, long count);

        static native int close(int fd);
    }
}
