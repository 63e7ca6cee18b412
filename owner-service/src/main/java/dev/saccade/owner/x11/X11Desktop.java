package dev.saccade.owner.x11;

import com.sun.jna.Callback;
import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One Xlib connection, and every native call of this package: libX11, libXrandr and the three
 * libc calls ({@code pipe}, {@code poll}, {@code write}) the reader needs to sleep on the X socket
 * and be woken. Keeping them in one file keeps the unsafe surface in one place.
 *
 * <p>Calls are JNA direct mappings with Java {@code long} for C {@code long} and XIDs: on LP64
 * (x86_64, aarch64 Linux) both are 8 bytes, and format-32 property data is an array of C longs.
 * The class refuses to load elsewhere rather than read half a value.
 *
 * <p>Not thread-safe: one thread opens, uses and closes an instance (the reader thread, or the
 * caller of {@link X11DesktopReader#readOnce(String)}). The out-parameters and the event buffer
 * are allocated once per connection and reused.
 *
 * <p>Xlib's default handlers call {@code exit()}: on any protocol error (a window destroyed
 * between two calls gives BadWindow) and on any I/O error (the server went away). The first
 * {@link #open(String)} installs process-wide replacements that count and return, and every
 * connection gets a per-display I/O exit handler (libX11 1.7+) that marks it lost, so Xlib
 * unwinds the failed call and the connection can still be closed. Both handlers are global to
 * the process: another Xlib user in the same JVM (AWT) would have its handlers replaced. The one
 * gap is an I/O error inside {@code XOpenDisplay} itself (the server dying mid-handshake), which
 * no per-display handler can cover.
 */
final class X11Desktop implements AutoCloseable {
    // X event types (X.h).
    static final int CREATE_NOTIFY = 16;
    static final int DESTROY_NOTIFY = 17;
    static final int UNMAP_NOTIFY = 18;
    static final int MAP_NOTIFY = 19;
    static final int REPARENT_NOTIFY = 21;
    static final int CONFIGURE_NOTIFY = 22;
    static final int GRAVITY_NOTIFY = 24;
    static final int CIRCULATE_NOTIFY = 26;
    static final int PROPERTY_NOTIFY = 28;

    // Event masks (X.h).
    static final long STRUCTURE_NOTIFY_MASK = 1L << 17;
    static final long SUBSTRUCTURE_NOTIFY_MASK = 1L << 19;
    static final long PROPERTY_CHANGE_MASK = 1L << 22;

    // XRandR event masks (randr.h): screen size, CRTC and output changes all move monitors.
    static final int RR_SCREEN_CHANGE_NOTIFY_MASK = 1;
    static final int RR_CRTC_CHANGE_NOTIFY_MASK = 1 << 1;
    static final int RR_OUTPUT_CHANGE_NOTIFY_MASK = 1 << 2;
    /** RRScreenChangeNotify and RRNotify are the first two events after the extension's base. */
    static final int RR_EVENT_COUNT = 2;

    // Predefined atoms (Xatom.h).
    static final long XA_ATOM = 4;
    static final long XA_CARDINAL = 6;
    static final long XA_STRING = 31;
    static final long XA_WINDOW = 33;
    static final long XA_WM_NAME = 39;
    static final long ANY_PROPERTY_TYPE = 0;

    // map_state values of XWindowAttributes.
    static final int IS_VIEWABLE = 2;

    /** Offsets in the 192-byte XEvent union (LP64), checked with offsetof against Xlib.h. */
    static final int XEVENT_LENGTH = 192;
    static final int EVENT_TYPE_OFFSET = 0;
    /** XAnyEvent.window: the window the event was reported on (the parent for Substructure*). */
    static final int EVENT_WINDOW_OFFSET = 32;
    /** XPropertyEvent.atom. */
    static final int PROPERTY_EVENT_ATOM_OFFSET = 40;
    /** XConfigureEvent/XMapEvent/XUnmapEvent/XDestroyWindowEvent/XReparentEvent.window. */
    static final int STRUCTURE_EVENT_SUBJECT_OFFSET = 40;

    /** XErrorEvent.error_code (LP64). */
    static final int ERROR_EVENT_CODE_OFFSET = 32;

    /** XWindowAttributes (LP64), 136 bytes. */
    static final int WINDOW_ATTRIBUTES_LENGTH = 136;
    static final int ATTR_WIDTH_OFFSET = 8;
    static final int ATTR_HEIGHT_OFFSET = 12;
    static final int ATTR_MAP_STATE_OFFSET = 92;

    /** XRRMonitorInfo (LP64), 56 bytes. */
    static final int MONITOR_INFO_LENGTH = 56;
    static final int MONITOR_NAME_OFFSET = 0;
    static final int MONITOR_PRIMARY_OFFSET = 8;
    static final int MONITOR_X_OFFSET = 20;
    static final int MONITOR_Y_OFFSET = 24;
    static final int MONITOR_WIDTH_OFFSET = 28;
    static final int MONITOR_HEIGHT_OFFSET = 32;

    /** struct pollfd: int fd, short events, short revents. */
    private static final int POLLFD_LENGTH = 8;
    private static final short POLLIN = 0x1;
    // POLLIN | POLLERR | POLLHUP | POLLNVAL: any of them means "look at this descriptor now".
    private static final short POLL_READY = 0x1 | 0x8 | 0x10 | 0x20;
    static final int POLL_X_READY = 1;
    static final int POLL_WAKE_READY = 2;

    /** First property read, in 32-bit units; a longer value is fetched again at its full length. */
    private static final long PROPERTY_FIRST_READ_UNITS = 4096;
    /** Ceiling for one property, in 32-bit units (4 MiB): a hostile client cannot make us read more. */
    private static final long PROPERTY_MAX_UNITS = 1L << 20;

    /** Why libX11 or libc cannot be used here, kept as the cause of every later failure. */
    private static final Throwable LOAD_FAILURE;
    /** Why libXrandr cannot be used; then monitors fall back to the root window's size. */
    private static final Throwable XRANDR_LOAD_FAILURE;
    /** {@code XSetIOErrorExitHandler}, libX11 1.7+; null on older libraries. */
    private static final Function SET_IO_ERROR_EXIT_HANDLER;

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

    private final Pointer display;
    private final long root;
    private final int connectionFd;
    private final int randrEventBase;
    private final Map<Long, String> atomNames = new HashMap<>();

    final long utf8String;
    final long compoundText;
    final long netWmName;
    final long netWmPid;
    final long netWmState;
    final long netWmStateHidden;
    final long netWmDesktop;
    final long netClientList;
    final long netClientListStacking;
    final long netActiveWindow;

    // Reused out-parameters: one connection, one thread.
    private final LongByReference actualType = new LongByReference();
    private final IntByReference actualFormat = new IntByReference();
    private final LongByReference itemCount = new LongByReference();
    private final LongByReference bytesAfter = new LongByReference();
    private final PointerByReference propertyData = new PointerByReference();
    private final IntByReference intA = new IntByReference();
    private final IntByReference intB = new IntByReference();
    private final LongByReference childWindow = new LongByReference();
    private final Memory attributes = new Memory(WINDOW_ATTRIBUTES_LENGTH);
    private final Memory event = new Memory(XEVENT_LENGTH);
    private final Memory pollFds = new Memory(2L * POLLFD_LENGTH);
    private final IOErrorExitHandler exitHandler;

    /** Set by {@link #exitHandler} on the thread using this connection; never cleared. */
    private boolean connectionLost;
    private boolean closed;

    private X11Desktop(final Pointer display) {
        this.display = display;
        this.exitHandler = (d, userData) -> connectionLost = true;
        if (SET_IO_ERROR_EXIT_HANDLER != null) {
            SET_IO_ERROR_EXIT_HANDLER.invoke(Void.class, new Object[] {display, exitHandler, null});
        }
        this.root = Xlib.XDefaultRootWindow(display);
        this.connectionFd = Xlib.XConnectionNumber(display);
        utf8String = intern("UTF8_STRING");
        compoundText = intern("COMPOUND_TEXT");
        netWmName = intern("_NET_WM_NAME");
        netWmPid = intern("_NET_WM_PID");
        netWmState = intern("_NET_WM_STATE");
        netWmStateHidden = intern("_NET_WM_STATE_HIDDEN");
        netWmDesktop = intern("_NET_WM_DESKTOP");
        netClientList = intern("_NET_CLIENT_LIST");
        netClientListStacking = intern("_NET_CLIENT_LIST_STACKING");
        netActiveWindow = intern("_NET_ACTIVE_WINDOW");
        this.randrEventBase = queryRandr(display);
    }

    /**
     * Opens a connection.
     *
     * @param displayName an X display name such as {@code ":0"}; null means {@code $DISPLAY}
     * @throws X11Exception if the libraries cannot be loaded or the display cannot be opened
     */
    static X11Desktop open(final String displayName) {
        if (LOAD_FAILURE != null) {
            throw new X11Exception("libX11 is not usable", LOAD_FAILURE);
        }
        installErrorHandlers();
        final Pointer display = Xlib.XOpenDisplay(displayName);
        if (display == null) {
            throw new X11Exception("cannot open X display " + (displayName != null ? displayName : "$DISPLAY"));
        }
        return new X11Desktop(display);
    }

    private static synchronized void installErrorHandlers() {
        if (!handlersInstalled) {
            Xlib.XSetErrorHandler(ERROR_HANDLER);
            Xlib.XSetIOErrorHandler(IO_ERROR_HANDLER);
            handlersInstalled = true;
        }
    }

    private static int queryRandr(final Pointer display) {
        if (XRANDR_LOAD_FAILURE != null) {
            return -1;
        }
        final IntByReference eventBase = new IntByReference();
        final IntByReference errorBase = new IntByReference();
        return XRandR.XRRQueryExtension(display, eventBase, errorBase) != 0 ? eventBase.getValue() : -1;
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

    long root() {
        return root;
    }

    int connectionFd() {
        return connectionFd;
    }

    /** True once Xlib reported this connection broken; only {@link #close()} is useful then. */
    boolean connectionLost() {
        return connectionLost;
    }

    boolean hasRandr() {
        return randrEventBase >= 0;
    }

    long intern(final String name) {
        return Xlib.XInternAtom(display, name, 0);
    }

    /** Root: clients come and go (SubstructureNotify), its properties and its size change. */
    void selectRootEvents() {
        Xlib.XSelectInput(display, root,
            SUBSTRUCTURE_NOTIFY_MASK | STRUCTURE_NOTIFY_MASK | PROPERTY_CHANGE_MASK);
        if (randrEventBase >= 0) {
            XRandR.XRRSelectInput(display, root,
                RR_SCREEN_CHANGE_NOTIFY_MASK | RR_CRTC_CHANGE_NOTIFY_MASK | RR_OUTPUT_CHANGE_NOTIFY_MASK);
        }
    }

    /**
     * A client: its own resizes, maps and title or state changes. Asynchronous; if the window is
     * already gone the BadWindow goes to the counting handler.
     */
    void selectClientEvents(final long window) {
        Xlib.XSelectInput(display, window, STRUCTURE_NOTIFY_MASK | PROPERTY_CHANGE_MASK);
    }

    // ---------------------------------------------------------------- properties

    /**
     * Fetches a property with its full length (bounded by {@link #PROPERTY_MAX_UNITS}).
     *
     * @return the data, to be freed with {@link #free(Pointer)}, with {@link #actualType},
     *     {@link #actualFormat} and {@link #itemCount} describing it; null if the window is gone,
     *     the property is absent or its type is not {@code requiredType}
     */
    private Pointer fetch(final long window, final long atom, final long requiredType) {
        long units = PROPERTY_FIRST_READ_UNITS;
        for (int attempt = 0; attempt < 2; attempt++) {
            final int status = Xlib.XGetWindowProperty(display, window, atom, 0, units, 0, requiredType,
                actualType, actualFormat, itemCount, bytesAfter, propertyData);
            if (status != 0) {
                return null; // BadWindow and friends: the window went away between two calls
            }
            final Pointer data = propertyData.getValue();
            final long type = actualType.getValue();
            if (type == 0 || (requiredType != ANY_PROPERTY_TYPE && type != requiredType)) {
                free(data); // absent, or a mismatched type: Xlib returns no data but may return a block
                return null;
            }
            final long remaining = bytesAfter.getValue();
            if (remaining == 0 || attempt == 1 || units >= PROPERTY_MAX_UNITS) {
                return data;
            }
            free(data);
            final long itemBytes = itemCount.getValue() * (actualFormat.getValue() / 8);
            units = Math.min(PROPERTY_MAX_UNITS, (itemBytes + remaining + 3) / 4);
        }
        return null;
    }

    private static void free(final Pointer data) {
        if (data != null) {
            Xlib.XFree(data);
        }
    }

    /**
     * A format-32 list (WINDOW or ATOM), each item masked to 32 bits.
     *
     * @return the items; an empty array if absent, of another type or format
     */
    long[] longListProperty(final long window, final long atom, final long type) {
        final Pointer data = fetch(window, atom, type);
        if (data == null) {
            return EMPTY;
        }
        try {
            if (actualFormat.getValue() != 32) {
                return EMPTY;
            }
            final int count = (int) Math.min(itemCount.getValue(), Integer.MAX_VALUE);
            final long[] items = data.getLongArray(0, count);
            for (int i = 0; i < count; i++) {
                items[i] &= 0xFFFF_FFFFL; // Xlib may sign-extend 32-bit items into its longs
            }
            return items;
        } finally {
            free(data);
        }
    }

    /** The first item of a format-32 property, masked to 32 bits; {@code absent} if there is none. */
    long longProperty(final long window, final long atom, final long type, final long absent) {
        final Pointer data = fetch(window, atom, type);
        if (data == null) {
            return absent;
        }
        try {
            if (actualFormat.getValue() != 32 || itemCount.getValue() < 1) {
                return absent;
            }
            return data.getLong(0) & 0xFFFF_FFFFL;
        } finally {
            free(data);
        }
    }

    /** True if the ATOM list {@code listAtom} of {@code window} contains {@code value}. */
    boolean atomListContains(final long window, final long listAtom, final long value) {
        final long[] atoms = longListProperty(window, listAtom, XA_ATOM);
        for (final long atom : atoms) {
            if (atom == value) {
                return true;
            }
        }
        return false;
    }

    /**
     * The window's title: {@code _NET_WM_NAME} (UTF-8) if set, else {@code WM_NAME} (Latin-1 for
     * STRING; UTF8_STRING as UTF-8; COMPOUND_TEXT read as Latin-1, right for its ASCII subset).
     *
     * @return the title, or "" if neither is set or the window is gone
     */
    String title(final long window) {
        final String netName = textProperty(window, netWmName, utf8String);
        if (netName != null) {
            return netName;
        }
        final String wmName = textProperty(window, XA_WM_NAME, ANY_PROPERTY_TYPE);
        return wmName != null ? wmName : "";
    }

    private String textProperty(final long window, final long atom, final long type) {
        final Pointer data = fetch(window, atom, type);
        if (data == null) {
            return null;
        }
        try {
            final long actual = actualType.getValue();
            if (actualFormat.getValue() != 8) {
                return null;
            }
            final byte[] bytes = data.getByteArray(0, (int) Math.min(itemCount.getValue(), Integer.MAX_VALUE));
            if (actual == utf8String) {
                return new String(bytes, StandardCharsets.UTF_8);
            }
            if (actual == XA_STRING || actual == compoundText) {
                return new String(bytes, StandardCharsets.ISO_8859_1);
            }
            return null;
        } finally {
            free(data);
        }
    }

    // ---------------------------------------------------------------- geometry

    /**
     * Reads a window's size, map state and position in root coordinates (two round trips).
     *
     * @param out receives x, y, width, height, map_state
     * @return false if the window is gone
     */
    boolean geometry(final long window, final int[] out) {
        if (Xlib.XGetWindowAttributes(display, window, attributes) == 0) {
            return false;
        }
        if (Xlib.XTranslateCoordinates(display, window, root, 0, 0, intA, intB, childWindow) == 0) {
            return false;
        }
        out[0] = intA.getValue();
        out[1] = intB.getValue();
        out[2] = attributes.getInt(ATTR_WIDTH_OFFSET);
        out[3] = attributes.getInt(ATTR_HEIGHT_OFFSET);
        out[4] = attributes.getInt(ATTR_MAP_STATE_OFFSET);
        return true;
    }

    // ---------------------------------------------------------------- monitors

    /**
     * The active monitors (XRandR 1.5), in the server's order. Without XRandR, or if the server
     * reports none, the root window as one monitor named "default".
     */
    List<MonitorInfo> monitors() {
        final List<MonitorInfo> monitors = new ArrayList<>(4);
        if (randrEventBase >= 0) {
            final Pointer list = XRandR.XRRGetMonitors(display, root, 1, intA);
            if (list != null) {
                try {
                    final int count = intA.getValue();
                    for (int i = 0; i < count; i++) {
                        final long base = (long) i * MONITOR_INFO_LENGTH;
                        final String name = atomName(list.getLong(base + MONITOR_NAME_OFFSET));
                        monitors.add(new MonitorInfo(MonitorInfo.stableId(name), name,
                            list.getInt(base + MONITOR_X_OFFSET), list.getInt(base + MONITOR_Y_OFFSET),
                            list.getInt(base + MONITOR_WIDTH_OFFSET), list.getInt(base + MONITOR_HEIGHT_OFFSET),
                            list.getInt(base + MONITOR_PRIMARY_OFFSET) != 0));
                    }
                } finally {
                    XRandR.XRRFreeMonitors(list);
                }
            }
        }
        if (monitors.isEmpty() && Xlib.XGetWindowAttributes(display, root, attributes) != 0) {
            final String name = "default";
            monitors.add(new MonitorInfo(MonitorInfo.stableId(name), name, 0, 0,
                attributes.getInt(ATTR_WIDTH_OFFSET), attributes.getInt(ATTR_HEIGHT_OFFSET), true));
        }
        return monitors;
    }

    /** An atom's name; cached, since an atom's name never changes while the server runs. */
    String atomName(final long atom) {
        final String cached = atomNames.get(atom);
        if (cached != null) {
            return cached;
        }
        final Pointer name = atom == 0 ? null : Xlib.XGetAtomName(display, atom);
        if (name == null) {
            return "";
        }
        try {
            final String value = name.getString(0, StandardCharsets.ISO_8859_1.name());
            atomNames.put(atom, value);
            return value;
        } finally {
            Xlib.XFree(name);
        }
    }

    // ---------------------------------------------------------------- events

    /** Flushes requests and reads what the socket holds; returns the number of queued events. */
    int pending() {
        return Xlib.XPending(display);
    }

    /** Takes the next event into the reused buffer (blocks if none is queued: call {@link #pending()} first). */
    void nextEvent() {
        Xlib.XNextEvent(display, event);
    }

    int eventType() {
        return event.getInt(EVENT_TYPE_OFFSET) & 0x7F; // bit 7 marks events sent with XSendEvent
    }

    long eventWindow() {
        return event.getLong(EVENT_WINDOW_OFFSET);
    }

    long eventAtom() {
        return event.getLong(PROPERTY_EVENT_ATOM_OFFSET);
    }

    /** The window a structure event is about (for SubstructureNotify on root: the child). */
    long eventSubject() {
        return event.getLong(STRUCTURE_EVENT_SUBJECT_OFFSET);
    }

    boolean isRandrEvent(final int type) {
        return randrEventBase >= 0 && type >= randrEventBase && type < randrEventBase + RR_EVENT_COUNT;
    }

    /**
     * Sleeps until the X socket or the wake descriptor is readable, or the timeout passes.
     * Call {@link #pending()} first: events Xlib already read are not on the socket any more.
     *
     * @param wakeFd read end of the wake pipe
     * @param timeoutMs -1 waits forever
     * @return {@link #POLL_X_READY} | {@link #POLL_WAKE_READY}, or 0 on timeout or EINTR
     */
    int await(final int wakeFd, final int timeoutMs) {
        pollFds.setInt(0, connectionFd);
        pollFds.setShort(4, POLLIN);
        pollFds.setShort(6, (short) 0);
        pollFds.setInt(POLLFD_LENGTH, wakeFd);
        pollFds.setShort(POLLFD_LENGTH + 4, POLLIN);
        pollFds.setShort(POLLFD_LENGTH + 6, (short) 0);
        final int n = LibC.poll(pollFds, 2, timeoutMs);
        if (n <= 0) {
            return 0;
        }
        int ready = 0;
        if ((pollFds.getShort(6) & POLL_READY) != 0) {
            ready |= POLL_X_READY;
        }
        if ((pollFds.getShort(POLLFD_LENGTH + 6) & POLL_READY) != 0) {
            ready |= POLL_WAKE_READY;
        }
        return ready;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            Xlib.XCloseDisplay(display);
        }
    }

    // ---------------------------------------------------------------- wake pipe (libc)

    /**
     * Creates the pipe that wakes a reader sleeping in {@link #await(int, int)}.
     *
     * @return {read fd, write fd}
     */
    static int[] openWakePipe() {
        if (LOAD_FAILURE != null) {
            throw new X11Exception("libc is not usable", LOAD_FAILURE);
        }
        final int[] fds = new int[2];
        if (LibC.pipe(fds) != 0) {
            throw new X11Exception("pipe() failed, errno " + Native.getLastError());
        }
        return fds;
    }

    /** Writes one byte; the pipe stays readable until closed, so one wake is enough for good. */
    static void wake(final int writeFd) {
        LibC.write(writeFd, WAKE_BYTE, 1);
    }

    static void closeFd(final int fd) {
        LibC.close(fd);
    }

    private static final long[] EMPTY = new long[0];
    private static final byte[] WAKE_BYTE = {1};

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

    /** The libc calls the reader sleeps and wakes with. */
    static final class LibC {
        private LibC() {
        }

        static native int pipe(int[] fds);

        static native int poll(Pointer fds, long count, int timeoutMs);

        static native long write(int fd, byte[] buffer, long count);

        static native int close(int fd);
    }
}
