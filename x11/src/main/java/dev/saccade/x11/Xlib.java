package dev.saccade.x11;

import com.sun.jna.Callback;
import com.sun.jna.Function;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/**
 * The one binding of libX11 and its extensions, shared by every X client of ours: the window
 * reader ({@code X11Desktop}, {@code X11Properties}: libX11, libXrandr), the pixel capture
 * ({@link X11Capture}: libX11, MIT-SHM in libXext, libXdamage), the input helper's XTest backend
 * (libX11, libXtst, libXi) and the owner's release of a lost helper's input (libX11, libXtst).
 * Public because the last two live in other modules ({@code input-helper}, {@code owner-service});
 * style.md's one class per native library holds as one nested class per library, each declared
 * once, with the libc calls these clients sleep, wake and share memory with. Each is bound by JNA
 * direct mapping ({@link Native#register}) on its first use, so a call costs a JNI transition and
 * no reflection, boxing or allocation.
 *
 * <p>Types follow the LP64 ABI of 64-bit Linux: {@code Display*} (the one handle type of every
 * client), other pointers, XIDs
 * ({@code Window}, {@code Atom}), {@code KeySym}, {@code Time} and {@code unsigned long} are Java
 * {@code long}; {@code int} and {@code Bool} are Java {@code int}. Out-parameters are
 * primitive arrays (JNA copies them back) or addresses of {@link com.sun.jna.Memory} blocks the
 * caller preallocated ({@link Pointer#nativeValue}). Struct layouts read by address are
 * documented where they are read.
 *
 * <p>Loading a library's class fails (an {@link UnsatisfiedLinkError} as its initializer's cause)
 * on a machine without that library; the helper's {@code XTestBackend.open}, the reader's
 * {@code X11Native} and {@link X11Capture#open} turn that into a typed error. The extensions'
 * libraries are found by their versioned sonames where runtime packages ship no unversioned link.
 */
public final class Xlib {
    // Event types and masks (X.h).
    public static final int KEY_PRESS = 2;
    public static final int CLIENT_MESSAGE = 33;
    public static final int MAPPING_NOTIFY = 34;
    /** XkbUseCoreKbd: the core keyboard's XKB device. */
    public static final int XKB_USE_CORE_KBD = 0x100;
    /** XEventsQueued mode QueuedAfterReading: reads what the connection has, never blocks, never flushes. */
    public static final int QUEUED_AFTER_READING = 1;
    public static final int GENERIC_EVENT = 35;
    public static final long SUBSTRUCTURE_NOTIFY_MASK = 1L << 19;
    public static final long SUBSTRUCTURE_REDIRECT_MASK = 1L << 20;
    public static final long ANY_PROPERTY_TYPE = 0;
    public static final long XA_WINDOW = 33;
    public static final int SUCCESS = 0;

    // Key and button masks of XQueryPointer's state (X.h).
    public static final int SHIFT_MASK = 1;
    public static final int LOCK_MASK = 1 << 1;
    public static final int CONTROL_MASK = 1 << 2;
    public static final int MOD1_MASK = 1 << 3;
    public static final int MOD4_MASK = 1 << 6;
    public static final int BUTTON1_MASK = 1 << 8;
    public static final int BUTTON2_MASK = 1 << 9;
    public static final int BUTTON3_MASK = 1 << 10;

    /** Size of {@code XEvent} (a union padded to 24 longs). */
    public static final int XEVENT_SIZE = 192;

    // XClientMessageEvent field offsets (Xlib.h, LP64).
    public static final int CLIENT_MESSAGE_TYPE_OFFSET = 0;
    public static final int CLIENT_MESSAGE_SEND_EVENT_OFFSET = 16;
    public static final int CLIENT_MESSAGE_DISPLAY_OFFSET = 24;
    public static final int CLIENT_MESSAGE_WINDOW_OFFSET = 32;
    public static final int CLIENT_MESSAGE_ATOM_OFFSET = 40;
    public static final int CLIENT_MESSAGE_FORMAT_OFFSET = 48;
    public static final int CLIENT_MESSAGE_DATA_OFFSET = 56;

    // XErrorEvent field offsets: int type; Display *display; XID resourceid; unsigned long serial;
    // unsigned char error_code, request_code, minor_code.
    public static final int ERROR_EVENT_ERROR_CODE_OFFSET = 32;
    public static final int ERROR_EVENT_REQUEST_CODE_OFFSET = 33;

    private Xlib() {
    }

    /** {@code name}'s library, else its versioned {@code soname} (runtime packages have no unversioned link). */
    static NativeLibrary library(final String name, final String soname) {
        try {
            return NativeLibrary.getInstance(name);
        } catch (final UnsatisfiedLinkError e) {
            return NativeLibrary.getInstance(soname);
        }
    }

    /** Xlib's protocol error handler: {@code int (*)(Display *, XErrorEvent *)}. */
    public interface ErrorHandler extends Callback {
        int invoke(Pointer display, Pointer errorEvent);
    }

    /** Xlib's I/O error handler: {@code int (*)(Display *)}. */
    public interface IoErrorHandler extends Callback {
        int invoke(Pointer display);
    }

    /** Xlib's per-display exit handler: {@code void (*)(Display *, void *)}; returning keeps the process alive. */
    public interface IoErrorExitHandler extends Callback {
        void invoke(Pointer display, Pointer userData);
    }

    /** libX11. */
    public static final class X11 {
        /** {@code XSetIOErrorExitHandler}, libX11 1.7+; null on older libraries. */
        private static final Function SET_IO_ERROR_EXIT_HANDLER;

        static {
            final NativeLibrary x11 = NativeLibrary.getInstance("X11");
            Native.register(x11);
            Function setter = null;
            try {
                setter = x11.getFunction("XSetIOErrorExitHandler");
            } catch (final UnsatisfiedLinkError ignore) {
                // libX11 < 1.7: an I/O error still ends the process; nothing more can be done here.
            }
            SET_IO_ERROR_EXIT_HANDLER = setter;
        }

        private X11() {
        }

        /** Loads and binds the library; throws its {@link LinkageError} where it cannot. */
        public static void load() {
            // the class initializer does the work
        }

        public static native int XInitThreads();

        public static native long XOpenDisplay(String name);

        public static native int XCloseDisplay(long display);

        public static native int XDefaultScreen(long display);

        public static native long XDefaultRootWindow(long display);

        /** @return {@code Visual*} */
        public static native long XDefaultVisual(long display, int screen);

        public static native int XDefaultDepth(long display, int screen);

        public static native int XDisplayWidth(long display, int screen);

        public static native int XDisplayHeight(long display, int screen);

        public static native int XConnectionNumber(long display);

        public static native int XSync(long display, int discard);

        public static native int XFlush(long display);

        public static native int XPending(long display);

        /** mode 0 = QueuedAlready: counts events Xlib has already read, with no I/O. */
        public static native int XEventsQueued(long display, int mode);

        public static native int XNextEvent(long display, long event);

        public static native int XRefreshKeyboardMapping(long mappingEvent);

        public static native int XDisplayKeycodes(long display, int[] minKeycode, int[] maxKeycode);

        /** @return {@code KeySym*} of count × keysymsPerKeycode entries; free with {@link #XFree}. */
        public static native long XGetKeyboardMapping(long display, byte firstKeycode, int count, int[] keysymsPerKeycode);

        public static native int XChangeKeyboardMapping(long display, int firstKeycode, int keysymsPerKeycode,
            long[] keysyms, int numCodes);

        public static native int XQueryKeymap(long display, byte[] keys32);

        public static native int XQueryPointer(long display, long window, long[] rootReturn, long[] childReturn,
            int[] rootX, int[] rootY, int[] winX, int[] winY, int[] mask);

        public static native long XInternAtom(long display, String name, int onlyIfExists);

        /** @return {@code char*}, free with {@link #XFree}; 0 for an unknown atom */
        public static native long XGetAtomName(long display, long atom);

        public static native int XSelectInput(long display, long window, long eventMask);

        /** {@code children[0]} receives a {@code Window*} of {@code count[0]} entries; free with {@link #XFree}. */
        public static native int XQueryTree(long display, long window, long[] rootReturn, long[] parentReturn,
            long[] children, int[] count);

        /** {@code attributes}: the address of an {@code XWindowAttributes} (136 bytes, LP64). */
        public static native int XGetWindowAttributes(long display, long window, long attributes);

        public static native int XTranslateCoordinates(long display, long srcWindow, long destWindow, int srcX,
            int srcY, int[] destX, int[] destY, long[] childReturn);

        public static native int XGetWindowProperty(long display, long window, long property, long longOffset,
            long longLength, int delete, long reqType, long[] actualType, int[] actualFormat, long[] nitems,
            long[] bytesAfter, long[] prop);

        public static native long XGetSelectionOwner(long display, long selection);

        /** XGrabPointer: GrabSuccess 0, AlreadyGrabbed 1 (another client holds an active grab), ... */
        public static native int XGrabPointer(long display, long window, int ownerEvents, int eventMask, int pointerMode,
            int keyboardMode, long confineTo, long cursor, long time);

        public static native int XUngrabPointer(long display, long time);

        /** XKB's keyboard state; {@code state} holds an XkbStateRec (18 bytes), the effective group first. */
        public static native int XkbGetState(long display, int deviceSpec, byte[] state);

        public static native int XSendEvent(long display, long window, int propagate, long eventMask, long event);

        public static native int XFree(long data);

        public static native int XQueryExtension(long display, String name, int[] majorOpcode, int[] firstEvent,
            int[] firstError);

        public static native int XGetEventData(long display, long cookie);

        public static native void XFreeEventData(long display, long cookie);

        public static native long XSetErrorHandler(ErrorHandler handler);

        public static native long XSetIOErrorHandler(IoErrorHandler handler);

        /**
         * Sets {@code display}'s I/O exit handler where libX11 has it (1.7+).
         *
         * @return false on an older libX11, where an I/O error still ends the process
         */
        public static boolean XSetIOErrorExitHandler(final long display, final IoErrorExitHandler handler,
            final long userData) {
            if (SET_IO_ERROR_EXIT_HANDLER == null) {
                return false;
            }
            SET_IO_ERROR_EXIT_HANDLER.invoke(Void.class, new Object[] {display, handler, userData});
            return true;
        }

        public static native void XUnlockDisplay(long display);
    }

    /** libXtst: the XTEST extension, which injects input through the "Virtual core XTEST" devices. */
    public static final class Xtst {
        static {
            Native.register(NativeLibrary.getInstance("Xtst"));
        }

        private Xtst() {
        }

        /** Loads and binds the library; throws its {@link LinkageError} where it cannot. */
        public static void load() {
            // the class initializer does the work
        }

        public static native int XTestQueryExtension(long display, int[] eventBase, int[] errorBase, int[] major,
            int[] minor);

        public static native int XTestFakeMotionEvent(long display, int screen, int x, int y, long delayMs);

        public static native int XTestFakeButtonEvent(long display, int button, int isPress, long delayMs);

        public static native int XTestFakeKeyEvent(long display, int keycode, int isPress, long delayMs);
    }

    /** libXi: XInput2 raw events and the device list. */
    public static final class Xi {
        public static final int ALL_DEVICES = 0;
        public static final int ALL_MASTER_DEVICES = 1;
        public static final int HIERARCHY_CHANGED = 11;
        public static final int RAW_KEY_PRESS = 13;
        public static final int RAW_BUTTON_PRESS = 15;
        public static final int RAW_MOTION = 17;
        public static final int RAW_TOUCH_BEGIN = 22;

        /** {@code XIEventMask}: int deviceid; int mask_len; unsigned char *mask. */
        public static final int EVENT_MASK_SIZE = 16;
        public static final int EVENT_MASK_DEVICE_OFFSET = 0;
        public static final int EVENT_MASK_LENGTH_OFFSET = 4;
        public static final int EVENT_MASK_POINTER_OFFSET = 8;

        /** {@code XGenericEventCookie}: ... int extension @32; int evtype @36; unsigned cookie @40; void *data @48. */
        public static final int COOKIE_EXTENSION_OFFSET = 32;
        public static final int COOKIE_EVTYPE_OFFSET = 36;
        public static final int COOKIE_DATA_OFFSET = 48;

        /** {@code XIRawEvent}: ... Time time @40; int deviceid @48; int sourceid @52; int detail @56. */
        public static final int RAW_TIME_OFFSET = 40;
        public static final int RAW_DEVICE_OFFSET = 48;
        public static final int RAW_SOURCE_OFFSET = 52;
        public static final int RAW_DETAIL_OFFSET = 56;

        /** {@code XIDeviceInfo}, 40 bytes: int deviceid @0; char *name @8; int use @16; int attachment @20. */
        public static final int DEVICE_INFO_SIZE = 40;
        public static final int DEVICE_INFO_ID_OFFSET = 0;
        public static final int DEVICE_INFO_NAME_OFFSET = 8;

        static {
            Native.register(NativeLibrary.getInstance("Xi"));
        }

        private Xi() {
        }

        public static native int XIQueryVersion(long display, int[] major, int[] minor);

        public static native int XISelectEvents(long display, long window, long masks, int numMasks);

        /** @return {@code XIDeviceInfo*} of {@code ndevices[0]} entries; free with {@link #XIFreeDeviceInfo}. */
        public static native long XIQueryDevice(long display, int deviceId, int[] ndevices);

        public static native void XIFreeDeviceInfo(long info);
    }

    /** libXext: MIT-SHM, the pixel capture's shared-memory images. */
    public static final class Xext {
        static {
            Native.register(library("Xext", "libXext.so.6"));
        }

        private Xext() {
        }

        /** Loads and binds the library; throws its {@link LinkageError} where it cannot. */
        public static void load() {
            // the class initializer does the work
        }

        public static native int XShmQueryExtension(long display);

        /** {@code shmInfo}: the address of an {@code XShmSegmentInfo} (32 bytes, LP64). */
        public static native int XShmAttach(long display, long shmInfo);

        public static native int XShmDetach(long display, long shmInfo);

        /** @return {@code XImage*} whose data is the segment; free the struct with {@link X11#XFree} */
        public static native long XShmCreateImage(long display, long visual, int depth, int format, long data,
            long shmInfo, int width, int height);

        public static native int XShmGetImage(long display, long drawable, long image, int x, int y, long planeMask);
    }

    /** libXdamage: the damage reports the pixel capture sleeps on. */
    public static final class Xdamage {
        static {
            Native.register(library("Xdamage", "libXdamage.so.1"));
        }

        private Xdamage() {
        }

        /** Loads and binds the library; throws its {@link LinkageError} where it cannot. */
        public static void load() {
            // the class initializer does the work
        }

        public static native int XDamageQueryExtension(long display, int[] eventBase, int[] errorBase);

        public static native long XDamageCreate(long display, long drawable, int level);

        public static native void XDamageDestroy(long display, long damage);

        public static native void XDamageSubtract(long display, long damage, long repair, long parts);
    }

    /** libXrandr (1.5, for monitors). */
    public static final class Xrandr {
        static {
            Native.register(library("Xrandr", "libXrandr.so.2"));
        }

        private Xrandr() {
        }

        /** Loads and binds the library; throws its {@link LinkageError} where it cannot. */
        public static void load() {
            // the class initializer does the work
        }

        public static native int XRRQueryExtension(long display, int[] eventBase, int[] errorBase);

        public static native void XRRSelectInput(long display, long window, int mask);

        /** @return {@code XRRMonitorInfo*} of {@code count[0]} entries; free with {@link #XRRFreeMonitors} */
        public static native long XRRGetMonitors(long display, long window, int getActive, int[] count);

        public static native void XRRFreeMonitors(long monitors);
    }

    /**
     * libc: a self-pipe and poll(2), so an X loop blocks on the X socket yet stops at once, and
     * the System V shared memory of the pixel capture's images.
     */
    public static final class Libc {
        public static final short POLLIN = 0x1;
        /** {@code struct pollfd}: int fd; short events; short revents. */
        public static final int POLLFD_SIZE = 8;
        public static final int POLLFD_EVENTS_OFFSET = 4;
        public static final int POLLFD_REVENTS_OFFSET = 6;

        static {
            Native.register(NativeLibrary.getInstance("c"));
        }

        private Libc() {
        }

        public static final int O_CLOEXEC = 0x80000;
        public static final int IPC_PRIVATE = 0;
        public static final int IPC_CREAT = 01000;
        public static final int IPC_RMID = 0;

        public static native int pipe(int[] fds);

        public static native int pipe2(int[] fds, int flags);

        public static native int poll(long fds, long nfds, int timeoutMs);

        public static native long write(int fd, byte[] buffer, long count);

        public static native long read(int fd, byte[] buffer, long count);

        public static native int close(int fd);

        public static native int shmget(int key, long size, int flags);

        /** @return the segment's address, -1 on failure */
        public static native long shmat(int id, long address, int flags);

        public static native int shmdt(long address);

        public static native int shmctl(int id, int command, long buffer);
    }
}
