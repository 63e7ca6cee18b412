package dev.saccade.x11;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import dev.saccade.desktop.MonitorInfo;
import dev.saccade.x11.Xlib.IoErrorExitHandler;
import dev.saccade.x11.Xlib.Libc;
import dev.saccade.x11.Xlib.X11;
import dev.saccade.x11.Xlib.Xrandr;
import java.util.ArrayList;
import java.util.List;

/**
 * One Xlib connection: the root window and the atoms the reader asks about, geometry, monitors,
 * events, and the pipe that wakes a reader sleeping on the X socket. Its native calls are
 * {@link Xlib}'s, loaded by {@link X11Native} (with the process-wide error handlers), its property reads are
 * {@link X11Properties}.
 *
 * <p>Not thread-safe: one thread opens, uses and closes an instance (the reader thread, or the
 * caller of {@link X11DesktopReader#readOnce(String)}). The out-parameters and the event buffer
 * are allocated once per connection and reused.
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

    /** XWindowAttributes (LP64), 136 bytes. */
    static final int WINDOW_ATTRIBUTES_LENGTH = 136;
    static final int ATTR_X_OFFSET = 0;
    static final int ATTR_Y_OFFSET = 4;
    static final int ATTR_WIDTH_OFFSET = 8;
    static final int ATTR_HEIGHT_OFFSET = 12;
    static final int ATTR_MAP_STATE_OFFSET = 92;
    static final int ATTR_OVERRIDE_REDIRECT_OFFSET = 120;

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

    private final long display;
    private final long root;
    private final int connectionFd;
    private final int randrEventBase;
    private final X11Properties properties;

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
    final long gtkFrameExtents;

    // Reused out-parameters: one connection, one thread.
    private final int[] intA = new int[1];
    private final int[] intB = new int[1];
    private final long[] childWindow = new long[1];
    private final long[] treeRoot = new long[1];
    private final long[] treeParent = new long[1];
    private final long[] treeChildren = new long[1];
    private final Memory attributes = new Memory(WINDOW_ATTRIBUTES_LENGTH);
    private final Memory event = new Memory(XEVENT_LENGTH);
    private final Memory pollFds = new Memory(2L * POLLFD_LENGTH);
    private final long attributesAddress = Pointer.nativeValue(attributes);
    private final long eventAddress = Pointer.nativeValue(event);
    private final long pollFdsAddress = Pointer.nativeValue(pollFds);
    private final IoErrorExitHandler exitHandler;

    /** Set by {@link #exitHandler} on the thread using this connection; never cleared. */
    private boolean connectionLost;
    private boolean closed;

    private X11Desktop(final long display) {
        this.display = display;
        this.exitHandler = (d, userData) -> connectionLost = true;
        X11.XSetIOErrorExitHandler(display, exitHandler, 0);
        this.root = X11.XDefaultRootWindow(display);
        this.connectionFd = X11.XConnectionNumber(display);
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
        gtkFrameExtents = intern("_GTK_FRAME_EXTENTS");
        this.randrEventBase = queryRandr(display);
        this.properties = new X11Properties(display, utf8String, compoundText, netWmName);
    }

    /**
     * Opens a connection.
     *
     * @param displayName an X display name such as {@code ":0"}; null means {@code $DISPLAY}
     * @throws X11Exception if the libraries cannot be loaded or the display cannot be opened
     */
    static X11Desktop open(final String displayName) {
        if (X11Native.LOAD_FAILURE != null) {
            throw new X11Exception("libX11 is not usable", X11Native.LOAD_FAILURE);
        }
        X11Native.installErrorHandlers();
        final long display = X11.XOpenDisplay(displayName);
        if (display == 0) {
            throw new X11Exception("cannot open X display " + (displayName != null ? displayName : "$DISPLAY"));
        }
        return new X11Desktop(display);
    }

    private static int queryRandr(final long display) {
        if (X11Native.XRANDR_LOAD_FAILURE != null) {
            return -1;
        }
        final int[] eventBase = new int[1];
        final int[] errorBase = new int[1];
        return Xrandr.XRRQueryExtension(display, eventBase, errorBase) != 0 ? eventBase[0] : -1;
    }

    /** Protocol errors (BadWindow, BadAtom ...) absorbed in this process since it started. */
    static long protocolErrorCount() {
        return X11Native.protocolErrorCount();
    }

    /** The error_code of the most recent protocol error; 0 if none yet. */
    static int lastProtocolErrorCode() {
        return X11Native.lastProtocolErrorCode();
    }

    /** I/O errors (lost connections) absorbed in this process since it started. */
    static long ioErrorCount() {
        return X11Native.ioErrorCount();
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
        return X11.XInternAtom(display, name, 0);
    }

    /** Root: clients come and go (SubstructureNotify), its properties and its size change. */
    void selectRootEvents() {
        X11.XSelectInput(display, root,
            SUBSTRUCTURE_NOTIFY_MASK | STRUCTURE_NOTIFY_MASK | PROPERTY_CHANGE_MASK);
        if (randrEventBase >= 0) {
            Xrandr.XRRSelectInput(display, root,
                RR_SCREEN_CHANGE_NOTIFY_MASK | RR_CRTC_CHANGE_NOTIFY_MASK | RR_OUTPUT_CHANGE_NOTIFY_MASK);
        }
    }

    /**
     * A client: its own resizes, maps and title or state changes. Asynchronous; if the window is
     * already gone the BadWindow goes to the counting handler.
     */
    void selectClientEvents(final long window) {
        X11.XSelectInput(display, window, STRUCTURE_NOTIFY_MASK | PROPERTY_CHANGE_MASK);
    }

    // ---------------------------------------------------------------- properties

    /** {@link X11Properties#longListProperty}. */
    long[] longListProperty(final long window, final long atom, final long type) {
        return properties.longListProperty(window, atom, type);
    }

    /** {@link X11Properties#longProperty}. */
    long longProperty(final long window, final long atom, final long type, final long absent) {
        return properties.longProperty(window, atom, type, absent);
    }

    /** {@link X11Properties#atomListContains}. */
    boolean atomListContains(final long window, final long listAtom, final long value) {
        return properties.atomListContains(window, listAtom, value);
    }

    /** {@link X11Properties#title}. */
    String title(final long window) {
        return properties.title(window);
    }

    /** {@link X11Properties#atomName}. */
    String atomName(final long atom) {
        return properties.atomName(atom);
    }

    // ---------------------------------------------------------------- geometry

    /**
     * Reads a window's size, map state and position in root coordinates (two round trips).
     *
     * @param out receives x, y, width, height, map_state
     * @return false if the window is gone
     */
    boolean geometry(final long window, final int[] out) {
        if (X11.XGetWindowAttributes(display, window, attributesAddress) == 0) {
            return false;
        }
        if (X11.XTranslateCoordinates(display, window, root, 0, 0, intA, intB, childWindow) == 0) {
            return false;
        }
        out[0] = intA[0];
        out[1] = intB[0];
        out[2] = attributes.getInt(ATTR_WIDTH_OFFSET);
        out[3] = attributes.getInt(ATTR_HEIGHT_OFFSET);
        out[4] = attributes.getInt(ATTR_MAP_STATE_OFFSET);
        return true;
    }

    /**
     * The root window's children, bottom to top ({@code XQueryTree}); empty if the query fails.
     * Frames, managed clients and override-redirect windows alike.
     */
    long[] rootChildren() {
        if (X11.XQueryTree(display, root, treeRoot, treeParent, treeChildren, intA) == 0 || treeChildren[0] == 0) {
            return new long[0];
        }
        try {
            return new Pointer(treeChildren[0]).getLongArray(0, Math.max(0, intA[0]));
        } finally {
            X11.XFree(treeChildren[0]);
        }
    }

    /**
     * Reads a child of the root that is a mapped override-redirect window (a popup no window
     * manager lists): its position in root coordinates and its size (one round trip).
     *
     * @param out receives x, y, width, height
     * @return false if the window is gone, not override-redirect, or not viewable
     */
    boolean popupGeometry(final long window, final int[] out) {
        if (X11.XGetWindowAttributes(display, window, attributesAddress) == 0
            || attributes.getInt(ATTR_OVERRIDE_REDIRECT_OFFSET) == 0
            || attributes.getInt(ATTR_MAP_STATE_OFFSET) != IS_VIEWABLE) {
            return false;
        }
        out[0] = attributes.getInt(ATTR_X_OFFSET); // a child of the root: its position is in root coordinates
        out[1] = attributes.getInt(ATTR_Y_OFFSET);
        out[2] = attributes.getInt(ATTR_WIDTH_OFFSET);
        out[3] = attributes.getInt(ATTR_HEIGHT_OFFSET);
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
            final long monitorsAddress = Xrandr.XRRGetMonitors(display, root, 1, intA);
            if (monitorsAddress != 0) {
                final Pointer list = new Pointer(monitorsAddress);
                try {
                    final int count = intA[0];
                    for (int i = 0; i < count; i++) {
                        final long base = (long) i * MONITOR_INFO_LENGTH;
                        final String name = atomName(list.getLong(base + MONITOR_NAME_OFFSET));
                        monitors.add(new MonitorInfo(MonitorInfo.stableId(name), name,
                            list.getInt(base + MONITOR_X_OFFSET), list.getInt(base + MONITOR_Y_OFFSET),
                            list.getInt(base + MONITOR_WIDTH_OFFSET), list.getInt(base + MONITOR_HEIGHT_OFFSET),
                            list.getInt(base + MONITOR_PRIMARY_OFFSET) != 0));
                    }
                } finally {
                    Xrandr.XRRFreeMonitors(monitorsAddress);
                }
            }
        }
        if (monitors.isEmpty() && X11.XGetWindowAttributes(display, root, attributesAddress) != 0) {
            final String name = "default";
            monitors.add(new MonitorInfo(MonitorInfo.stableId(name), name, 0, 0,
                attributes.getInt(ATTR_WIDTH_OFFSET), attributes.getInt(ATTR_HEIGHT_OFFSET), true));
        }
        return monitors;
    }

    // ---------------------------------------------------------------- events

    /** Flushes requests and reads what the socket holds; returns the number of queued events. */
    int pending() {
        return X11.XPending(display);
    }

    /** Takes the next event into the reused buffer (blocks if none is queued: call {@link #pending()} first). */
    void nextEvent() {
        X11.XNextEvent(display, eventAddress);
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
        final int n = Libc.poll(pollFdsAddress, 2, timeoutMs);
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
            X11.XCloseDisplay(display);
        }
    }

    // ---------------------------------------------------------------- wake pipe (libc)

    /**
     * Creates the pipe that wakes a reader sleeping in {@link #await(int, int)}.
     *
     * @return {read fd, write fd}
     */
    static int[] openWakePipe() {
        if (X11Native.LOAD_FAILURE != null) {
            throw new X11Exception("libc is not usable", X11Native.LOAD_FAILURE);
        }
        final int[] fds = new int[2];
        if (Libc.pipe(fds) != 0) {
            throw new X11Exception("pipe() failed, errno " + Native.getLastError());
        }
        return fds;
    }

    /** Writes one byte; the pipe stays readable until closed, so one wake is enough for good. */
    static void wake(final int writeFd) {
        Libc.write(writeFd, WAKE_BYTE, 1);
    }

    static void closeFd(final int fd) {
        Libc.close(fd);
    }

    private static final byte[] WAKE_BYTE = {1};
}
