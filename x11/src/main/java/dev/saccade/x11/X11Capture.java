package dev.saccade.x11;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import dev.saccade.x11.X11Native.LibC;
import java.util.List;

/**
 * The pixel source's X connection, with its native calls: libX11, MIT-SHM (libXext) and DAMAGE
 * (libXdamage); libc's are {@link X11Native}'s. One thread opens, uses and closes it (the pixel thread).
 *
 * <p>Capture reads the root window at a window's rectangle ({@code XShmGetImage}, one shared
 * segment the size of the screen, 0600 and removed as soon as the server attached it): what the
 * user sees there, with nothing drawn off-screen; the source drops boxes a window above covers.
 * Damage ({@code XDamageReportRawRectangles} on the root) reports every drawing in any window as
 * a root rectangle, so the thread sleeps in {@code poll()} while nothing changes.
 *
 * <p>LP64 only: XIDs and C longs are Java longs (the x11 package checks the same on load).
 */
public final class X11Capture implements AutoCloseable {
    /** XDamageNotifyEvent (LP64): the damaged rectangle, root coordinates. */
    private static final int DAMAGE_AREA_OFFSET = 64;
    private static final int XEVENT_LENGTH = 192;
    /** XShmSegmentInfo (LP64): shmseg, shmid, shmaddr, readOnly. */
    private static final int SHM_INFO_LENGTH = 32;
    private static final int SHM_ID_OFFSET = 8;
    private static final int SHM_ADDR_OFFSET = 16;
    /** XImage (LP64). */
    private static final int IMAGE_BYTES_PER_LINE_OFFSET = 44;
    private static final int IMAGE_BITS_PER_PIXEL_OFFSET = 48;
    /** XWindowAttributes (LP64). */
    private static final int ATTRIBUTES_LENGTH = 136;
    private static final int ATTR_MAP_STATE_OFFSET = 92;
    private static final int IS_VIEWABLE = 2;
    private static final int Z_PIXMAP = 2;
    private static final int DAMAGE_REPORT_RAW_RECTANGLES = 0;
    private static final int POLLIN = 0x1;
    private static final int POLL_READY = 0x1 | 0x8 | 0x10 | 0x20;
    public static final int POLL_X_READY = 1;
    public static final int POLL_WAKE_READY = 2;
    /** X child windows read per top-level window: a toolkit with thousands is not worth the trip. */
    private static final int MAX_CHILDREN = 256;

    private static final Throwable LOAD_FAILURE;

    static {
        Throwable failure = null;
        if (Native.LONG_SIZE != Long.BYTES || Native.POINTER_SIZE != Long.BYTES) {
            failure = new UnsatisfiedLinkError("X11Capture maps C long to a Java long: LP64 only");
        } else {
            try {
                Native.register(Xlib.class, NativeLibrary.getInstance("X11"));
                Native.register(Xext.class, library("Xext", "libXext.so.6"));
                Native.register(Xdamage.class, library("Xdamage", "libXdamage.so.1"));
            } catch (final Throwable t) {
                failure = t;
            }
        }
        LOAD_FAILURE = failure;
    }

    private static NativeLibrary library(final String name, final String soname) {
        try {
            return NativeLibrary.getInstance(name);
        } catch (final UnsatisfiedLinkError e) {
            return NativeLibrary.getInstance(soname); // runtime packages have no unversioned link
        }
    }

    private final Pointer display;
    private final long root;
    private final Pointer visual;
    private final int depth;
    private final int screenWidth;
    private final int screenHeight;
    private final int connectionFd;
    private final int damageEventBase;
    private final long damage;
    private final Memory shmInfo = new Memory(SHM_INFO_LENGTH);
    private Pointer shmAddress;
    private final Memory event = new Memory(XEVENT_LENGTH);
    private final Memory pollFds = new Memory(16);
    private final Memory attributes = new Memory(ATTRIBUTES_LENGTH);
    private final LongByReference rootReturn = new LongByReference();
    private final LongByReference parentReturn = new LongByReference();
    private final PointerByReference childrenReturn = new PointerByReference();
    private final IntByReference countReturn = new IntByReference();
    private final IntByReference intA = new IntByReference();
    private final IntByReference intB = new IntByReference();
    private final LongByReference childWindow = new LongByReference();
    private long captures;
    private boolean closed;

    private X11Capture(final Pointer display) {
        this.display = display;
        final int screen = Xlib.XDefaultScreen(display);
        root = Xlib.XDefaultRootWindow(display);
        visual = Xlib.XDefaultVisual(display, screen);
        depth = Xlib.XDefaultDepth(display, screen);
        screenWidth = Xlib.XDisplayWidth(display, screen);
        screenHeight = Xlib.XDisplayHeight(display, screen);
        connectionFd = Xlib.XConnectionNumber(display);
        if (Xext.XShmQueryExtension(display) == 0) {
            throw new IllegalStateException("the X server has no MIT-SHM extension");
        }
        if (Xdamage.XDamageQueryExtension(display, intA, intB) == 0) {
            throw new IllegalStateException("the X server has no DAMAGE extension");
        }
        damageEventBase = intA.getValue();
        damage = Xdamage.XDamageCreate(display, root, DAMAGE_REPORT_RAW_RECTANGLES);
        attachSegment((long) screenWidth * screenHeight * 4);
    }

    /**
     * Opens a connection with damage reporting on the root.
     *
     * @throws IllegalStateException if a library, the display or an extension is missing
     */
    public static X11Capture open(final String displayName) {
        if (LOAD_FAILURE != null) {
            throw new IllegalStateException("libX11/libXext/libXdamage are not usable: " + LOAD_FAILURE, LOAD_FAILURE);
        }
        XErrorHandlers.install(displayName);
        final Pointer display = Xlib.XOpenDisplay(displayName);
        if (display == null) {
            throw new IllegalStateException("cannot open X display " + (displayName != null ? displayName : "$DISPLAY"));
        }
        try {
            return new X11Capture(display);
        } catch (final RuntimeException e) {
            Xlib.XCloseDisplay(display);
            throw e;
        }
    }

    private void attachSegment(final long bytes) {
        final int id = LibC.shmget(LibC.IPC_PRIVATE, bytes, LibC.IPC_CREAT | 0600);
        if (id < 0) {
            throw new IllegalStateException("shmget of " + bytes + " bytes failed, errno " + Native.getLastError());
        }
        final Pointer address = LibC.shmat(id, null, 0);
        if (Pointer.nativeValue(address) == -1L) {
            LibC.shmctl(id, LibC.IPC_RMID, null);
            throw new IllegalStateException("shmat failed, errno " + Native.getLastError());
        }
        shmInfo.clear();
        shmInfo.setInt(SHM_ID_OFFSET, id);
        shmInfo.setPointer(SHM_ADDR_OFFSET, address);
        final boolean attached = Xext.XShmAttach(display, shmInfo) != 0;
        Xlib.XSync(display, 0);
        LibC.shmctl(id, LibC.IPC_RMID, null); // gone once both detach: nothing to leak after a crash
        if (!attached) {
            LibC.shmdt(address);
            throw new IllegalStateException("XShmAttach failed");
        }
        shmAddress = address;
    }

    public int connectionFd() {
        return connectionFd;
    }

    public int screenWidth() {
        return screenWidth;
    }

    public int screenHeight() {
        return screenHeight;
    }

    /** Captures since open. */
    public long captures() {
        return captures;
    }

    /**
     * Reads the root's pixels at the rectangle into {@code out} (0xRRGGBB, row-major,
     * {@code width} a row). The rectangle must lie on the screen.
     *
     * @return false if the server refused (the screen changed under it)
     */
    public boolean capture(final int x, final int y, final int width, final int height, final int[] out) {
        final Pointer image = Xext.XShmCreateImage(display, visual, depth, Z_PIXMAP, shmAddress, shmInfo, width, height);
        if (image == null) {
            return false;
        }
        try {
            if (image.getInt(IMAGE_BITS_PER_PIXEL_OFFSET) != 32) {
                throw new IllegalStateException("only 32-bit pixels are read, the screen has "
                    + image.getInt(IMAGE_BITS_PER_PIXEL_OFFSET));
            }
            final long errors = XErrorHandlers.protocolErrors();
            if (Xext.XShmGetImage(display, root, image, x, y, -1L) == 0 || XErrorHandlers.protocolErrors() != errors) {
                return false;
            }
            captures++;
            final int stride = image.getInt(IMAGE_BYTES_PER_LINE_OFFSET);
            if (stride == width * 4) {
                shmAddress.read(0, out, 0, width * height);
            } else {
                for (int row = 0; row < height; row++) {
                    shmAddress.read((long) row * stride, out, row * width, width);
                }
            }
            return true;
        } finally {
            Xlib.XFree(image); // an MIT-SHM image's data is the segment: only the struct is ours
        }
    }

    /**
     * The viewable X descendants of a window in root coordinates (x, y, w, h appended to
     * {@code out}), depth first, at most {@value #MAX_CHILDREN}; Xt and Tk make every widget one.
     */
    public void descendants(final long window, final List<int[]> out) {
        descend(window, out, 0);
    }

    private void descend(final long window, final List<int[]> out, final int level) {
        if (level > 8 || out.size() >= MAX_CHILDREN) {
            return;
        }
        final long errors = XErrorHandlers.protocolErrors();
        if (Xlib.XQueryTree(display, window, rootReturn, parentReturn, childrenReturn, countReturn) == 0
            || XErrorHandlers.protocolErrors() != errors) {
            return;
        }
        final int n = countReturn.getValue();
        final Pointer children = childrenReturn.getValue();
        if (children == null || n == 0) {
            return;
        }
        final long[] ids = children.getLongArray(0, n);
        Xlib.XFree(children);
        for (int i = 0; i < n && out.size() < MAX_CHILDREN; i++) {
            if (Xlib.XGetWindowAttributes(display, ids[i], attributes) == 0
                || attributes.getInt(ATTR_MAP_STATE_OFFSET) != IS_VIEWABLE) {
                continue;
            }
            final int width = attributes.getInt(8);
            final int height = attributes.getInt(12);
            if (Xlib.XTranslateCoordinates(display, ids[i], root, 0, 0, intA, intB, childWindow) == 0) {
                continue;
            }
            out.add(new int[] {intA.getValue(), intB.getValue(), width, height});
            descend(ids[i], out, level + 1);
        }
    }

    /**
     * Drains queued events; each damage rectangle goes to {@code sink}.
     *
     * @return the number of damage rectangles
     */
    public int drainDamage(final DamageSink sink) {
        int rectangles = 0;
        int n;
        while ((n = Xlib.XPending(display)) > 0) {
            for (int i = 0; i < n; i++) {
                Xlib.XNextEvent(display, event);
                if (event.getInt(0) == damageEventBase) { // XDamageNotify = base + 0
                    rectangles++;
                    sink.damaged(event.getShort(DAMAGE_AREA_OFFSET), event.getShort(DAMAGE_AREA_OFFSET + 2),
                        event.getShort(DAMAGE_AREA_OFFSET + 4) & 0xFFFF, event.getShort(DAMAGE_AREA_OFFSET + 6) & 0xFFFF);
                }
            }
        }
        if (rectangles > 0) {
            Xdamage.XDamageSubtract(display, damage, 0, 0);
            Xlib.XFlush(display);
        }
        return rectangles;
    }

    /** Receives damaged root rectangles. */
    public interface DamageSink {
        void damaged(int x, int y, int width, int height);
    }

    /**
     * Sleeps until the X socket or the wake pipe is readable, or the timeout (ms, -1 forever).
     *
     * @return {@link #POLL_X_READY} | {@link #POLL_WAKE_READY}, 0 on timeout
     */
    public int await(final int wakeFd, final int timeoutMs) {
        Xlib.XFlush(display);
        if (Xlib.XPending(display) > 0) {
            return POLL_X_READY;
        }
        pollFds.setInt(0, connectionFd);
        pollFds.setShort(4, (short) POLLIN);
        pollFds.setShort(6, (short) 0);
        pollFds.setInt(8, wakeFd);
        pollFds.setShort(12, (short) POLLIN);
        pollFds.setShort(14, (short) 0);
        if (LibC.poll(pollFds, 2, timeoutMs) <= 0) {
            return 0;
        }
        int ready = 0;
        if ((pollFds.getShort(6) & POLL_READY) != 0) {
            ready |= POLL_X_READY;
        }
        if ((pollFds.getShort(14) & POLL_READY) != 0) {
            ready |= POLL_WAKE_READY;
        }
        return ready;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        Xdamage.XDamageDestroy(display, damage);
        if (shmAddress != null) {
            Xext.XShmDetach(display, shmInfo);
            Xlib.XSync(display, 0);
            LibC.shmdt(shmAddress);
        }
        Xlib.XCloseDisplay(display);
    }

    // ---------------------------------------------------------------- declarations

    static final class Xlib {
        private Xlib() {
        }

        static native Pointer XOpenDisplay(String name);

        static native int XCloseDisplay(Pointer display);

        static native int XDefaultScreen(Pointer display);

        static native long XDefaultRootWindow(Pointer display);

        static native Pointer XDefaultVisual(Pointer display, int screen);

        static native int XDefaultDepth(Pointer display, int screen);

        static native int XDisplayWidth(Pointer display, int screen);

        static native int XDisplayHeight(Pointer display, int screen);

        static native int XConnectionNumber(Pointer display);

        static native int XSync(Pointer display, int discard);

        static native int XFlush(Pointer display);

        static native int XPending(Pointer display);

        static native int XNextEvent(Pointer display, Pointer event);

        static native int XFree(Pointer data);

        static native int XQueryTree(Pointer display, long window, LongByReference root, LongByReference parent,
            PointerByReference children, IntByReference count);

        static native int XGetWindowAttributes(Pointer display, long window, Pointer attributes);

        static native int XTranslateCoordinates(Pointer display, long src, long dest, int srcX, int srcY,
            IntByReference destX, IntByReference destY, LongByReference child);
    }

    /** MIT-SHM. */
    static final class Xext {
        private Xext() {
        }

        static native int XShmQueryExtension(Pointer display);

        static native int XShmAttach(Pointer display, Pointer shmInfo);

        static native int XShmDetach(Pointer display, Pointer shmInfo);

        static native Pointer XShmCreateImage(Pointer display, Pointer visual, int depth, int format, Pointer data,
            Pointer shmInfo, int width, int height);

        static native int XShmGetImage(Pointer display, long drawable, Pointer image, int x, int y, long planeMask);
    }

    static final class Xdamage {
        private Xdamage() {
        }

        static native int XDamageQueryExtension(Pointer display, IntByReference eventBase, IntByReference errorBase);

        static native long XDamageCreate(Pointer display, long drawable, int level);

        static native void XDamageDestroy(Pointer display, long damage);

        static native void XDamageSubtract(Pointer display, long damage, long repair, long parts);
    }
}
