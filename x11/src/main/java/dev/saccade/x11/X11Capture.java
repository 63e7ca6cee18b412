package dev.saccade.x11;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import dev.saccade.desktop.ScreenCapture;
import dev.saccade.x11.Xlib.Libc;
import dev.saccade.x11.Xlib.X11;
import dev.saccade.x11.Xlib.Xdamage;
import dev.saccade.x11.Xlib.Xext;
import java.util.List;

/**
 * The X11 {@link ScreenCapture} the pixel source reads ({@link X11Backend#openCapture}), through
 * {@link Xlib}'s libX11, MIT-SHM (libXext) and DAMAGE (libXdamage). One thread opens, uses and closes it (the pixel thread).
 *
 * <p>Capture reads the root window at a window's rectangle ({@code XShmGetImage}, one shared
 * segment the size of the screen, 0600 and removed as soon as the server attached it): what the
 * user sees there, with nothing drawn off-screen; the source drops boxes a window above covers.
 * Damage ({@code XDamageReportRawRectangles} on the root) reports every drawing in any window as
 * a root rectangle, so the thread sleeps in {@code poll()} while nothing changes.
 *
 * <p>LP64 only: XIDs and C longs are Java longs (the x11 package checks the same on load).
 */
public final class X11Capture implements ScreenCapture {
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
    /** X child windows read per top-level window: a toolkit with thousands is not worth the trip. */
    private static final int MAX_CHILDREN = 256;

    private static final Throwable LOAD_FAILURE;

    static {
        Throwable failure = null;
        if (Native.LONG_SIZE != Long.BYTES || Native.POINTER_SIZE != Long.BYTES) {
            failure = new UnsatisfiedLinkError("X11Capture maps C long to a Java long: LP64 only");
        } else {
            try {
                X11.load();
                Xext.load();
                Xdamage.load();
            } catch (final LinkageError e) {
                failure = e.getCause() != null ? e.getCause() : e;
            }
        }
        LOAD_FAILURE = failure;
    }

    private final long display;
    private final long root;
    private final long visual;
    private final int depth;
    private final int screenWidth;
    private final int screenHeight;
    private final int connectionFd;
    private final int damageEventBase;
    private final long damage;
    private final Memory shmInfo = new Memory(SHM_INFO_LENGTH);
    private final long shmInfoAddress = Pointer.nativeValue(shmInfo);
    /** The attached segment, null before and after. */
    private Pointer shmAddress;
    private final Memory event = new Memory(XEVENT_LENGTH);
    private final long eventAddress = Pointer.nativeValue(event);
    private final Memory pollFds = new Memory(16);
    private final long pollFdsAddress = Pointer.nativeValue(pollFds);
    private final Memory attributes = new Memory(ATTRIBUTES_LENGTH);
    private final long attributesAddress = Pointer.nativeValue(attributes);
    private final long[] rootReturn = new long[1];
    private final long[] parentReturn = new long[1];
    private final long[] childrenReturn = new long[1];
    private final int[] countReturn = new int[1];
    private final int[] intA = new int[1];
    private final int[] intB = new int[1];
    private final long[] childWindow = new long[1];
    private long captures;
    private boolean closed;

    private X11Capture(final long display) {
        this.display = display;
        final int screen = X11.XDefaultScreen(display);
        root = X11.XDefaultRootWindow(display);
        visual = X11.XDefaultVisual(display, screen);
        depth = X11.XDefaultDepth(display, screen);
        screenWidth = X11.XDisplayWidth(display, screen);
        screenHeight = X11.XDisplayHeight(display, screen);
        connectionFd = X11.XConnectionNumber(display);
        if (Xext.XShmQueryExtension(display) == 0) {
            throw new IllegalStateException("the X server has no MIT-SHM extension");
        }
        if (Xdamage.XDamageQueryExtension(display, intA, intB) == 0) {
            throw new IllegalStateException("the X server has no DAMAGE extension");
        }
        damageEventBase = intA[0];
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
        final long display = X11.XOpenDisplay(displayName);
        if (display == 0) {
            throw new IllegalStateException("cannot open X display " + (displayName != null ? displayName : "$DISPLAY"));
        }
        try {
            return new X11Capture(display);
        } catch (final RuntimeException e) {
            X11.XCloseDisplay(display);
            throw e;
        }
    }

    private void attachSegment(final long bytes) {
        final int id = Libc.shmget(Libc.IPC_PRIVATE, bytes, Libc.IPC_CREAT | 0600);
        if (id < 0) {
            throw new IllegalStateException("shmget of " + bytes + " bytes failed, errno " + Native.getLastError());
        }
        final long address = Libc.shmat(id, 0, 0);
        if (address == -1L) {
            Libc.shmctl(id, Libc.IPC_RMID, 0);
            throw new IllegalStateException("shmat failed, errno " + Native.getLastError());
        }
        shmInfo.clear();
        shmInfo.setInt(SHM_ID_OFFSET, id);
        shmInfo.setLong(SHM_ADDR_OFFSET, address);
        final boolean attached = Xext.XShmAttach(display, shmInfoAddress) != 0;
        X11.XSync(display, 0);
        Libc.shmctl(id, Libc.IPC_RMID, 0); // gone once both detach: nothing to leak after a crash
        if (!attached) {
            Libc.shmdt(address);
            throw new IllegalStateException("XShmAttach failed");
        }
        shmAddress = new Pointer(address);
    }

    public int connectionFd() {
        return connectionFd;
    }

    @Override
    public int screenWidth() {
        return screenWidth;
    }

    @Override
    public int screenHeight() {
        return screenHeight;
    }

    /** Captures since open. */
    @Override
    public long captures() {
        return captures;
    }

    /**
     * Reads the root's pixels at the rectangle into {@code out} (0xRRGGBB, row-major,
     * {@code width} a row). The rectangle must lie on the screen.
     *
     * @return false if the server refused (the screen changed under it)
     */
    @Override
    public boolean capture(final int x, final int y, final int width, final int height, final int[] out) {
        final long imageAddress = Xext.XShmCreateImage(display, visual, depth, Z_PIXMAP, Pointer.nativeValue(shmAddress),
            shmInfoAddress, width, height);
        if (imageAddress == 0) {
            return false;
        }
        final Pointer image = new Pointer(imageAddress);
        try {
            if (image.getInt(IMAGE_BITS_PER_PIXEL_OFFSET) != 32) {
                throw new IllegalStateException("only 32-bit pixels are read, the screen has "
                    + image.getInt(IMAGE_BITS_PER_PIXEL_OFFSET));
            }
            final long errors = XErrorHandlers.protocolErrors();
            if (Xext.XShmGetImage(display, root, imageAddress, x, y, -1L) == 0 || XErrorHandlers.protocolErrors() != errors) {
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
            X11.XFree(imageAddress); // an MIT-SHM image's data is the segment: only the struct is ours
        }
    }

    /**
     * The viewable X descendants of a window in root coordinates (x, y, w, h appended to
     * {@code out}), depth first, at most {@value #MAX_CHILDREN}; Xt and Tk make every widget one.
     */
    @Override
    public void descendants(final long window, final List<int[]> out) {
        descend(window, out, 0);
    }

    private void descend(final long window, final List<int[]> out, final int level) {
        if (level > 8 || out.size() >= MAX_CHILDREN) {
            return;
        }
        final long errors = XErrorHandlers.protocolErrors();
        if (X11.XQueryTree(display, window, rootReturn, parentReturn, childrenReturn, countReturn) == 0
            || XErrorHandlers.protocolErrors() != errors) {
            return;
        }
        final int n = countReturn[0];
        final long children = childrenReturn[0];
        if (children == 0 || n == 0) {
            return;
        }
        final long[] ids = new Pointer(children).getLongArray(0, n);
        X11.XFree(children);
        for (int i = 0; i < n && out.size() < MAX_CHILDREN; i++) {
            if (X11.XGetWindowAttributes(display, ids[i], attributesAddress) == 0
                || attributes.getInt(ATTR_MAP_STATE_OFFSET) != IS_VIEWABLE) {
                continue;
            }
            final int width = attributes.getInt(8);
            final int height = attributes.getInt(12);
            if (X11.XTranslateCoordinates(display, ids[i], root, 0, 0, intA, intB, childWindow) == 0) {
                continue;
            }
            out.add(new int[] {intA[0], intB[0], width, height});
            descend(ids[i], out, level + 1);
        }
    }

    /**
     * Drains queued events; each damage rectangle goes to {@code sink}.
     *
     * @return the number of damage rectangles
     */
    @Override
    public int drainDamage(final DamageSink sink) {
        int rectangles = 0;
        int n;
        while ((n = X11.XPending(display)) > 0) {
            for (int i = 0; i < n; i++) {
                X11.XNextEvent(display, eventAddress);
                if (event.getInt(0) == damageEventBase) { // XDamageNotify = base + 0
                    rectangles++;
                    sink.damaged(event.getShort(DAMAGE_AREA_OFFSET), event.getShort(DAMAGE_AREA_OFFSET + 2),
                        event.getShort(DAMAGE_AREA_OFFSET + 4) & 0xFFFF, event.getShort(DAMAGE_AREA_OFFSET + 6) & 0xFFFF);
                }
            }
        }
        if (rectangles > 0) {
            Xdamage.XDamageSubtract(display, damage, 0, 0);
            X11.XFlush(display);
        }
        return rectangles;
    }

    /**
     * Sleeps until the X socket or the wake pipe is readable, or the timeout (ms, -1 forever).
     *
     * @return {@link #POLL_CAPTURE_READY} | {@link #POLL_WAKE_READY}, 0 on timeout
     */
    @Override
    public int await(final int wakeFd, final int timeoutMs) {
        X11.XFlush(display);
        if (X11.XPending(display) > 0) {
            return POLL_CAPTURE_READY;
        }
        pollFds.setInt(0, connectionFd);
        pollFds.setShort(4, (short) POLLIN);
        pollFds.setShort(6, (short) 0);
        pollFds.setInt(8, wakeFd);
        pollFds.setShort(12, (short) POLLIN);
        pollFds.setShort(14, (short) 0);
        if (Libc.poll(pollFdsAddress, 2, timeoutMs) <= 0) {
            return 0;
        }
        int ready = 0;
        if ((pollFds.getShort(6) & POLL_READY) != 0) {
            ready |= POLL_CAPTURE_READY;
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
            Xext.XShmDetach(display, shmInfoAddress);
            X11.XSync(display, 0);
            Libc.shmdt(Pointer.nativeValue(shmAddress));
        }
        X11.XCloseDisplay(display);
    }
}
