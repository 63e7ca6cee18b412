package dev.saccade.wayland;

import com.sun.jna.Pointer;
import java.io.IOException;

/**
 * Pixels of an output through {@code zwlr_screencopy_manager_v1} (bound at version 1:
 * capture_output_region 1; the frame's events buffer 0, flags 1, ready 2, failed 3, its requests
 * copy 0 and destroy 1) into a {@code wl_shm} buffer in a memfd we map. The compositor copies at
 * its next output frame, so a capture waits for {@code ready} (or {@code failed}) up to its
 * timeout. Formats: ARGB8888 (0) and XRGB8888 (1), little-endian B, G, R, X bytes; the y_invert
 * flag flips rows. One thread, the connection's.
 */
public final class Screencopy implements AutoCloseable {
    public static final String MANAGER = "zwlr_screencopy_manager_v1";
    private static final int FORMAT_ARGB8888 = 0;
    private static final int FORMAT_XRGB8888 = 1;
    private static final int FLAG_Y_INVERT = 1;
    private static final int PROT_READ_WRITE = 3;
    private static final int MAP_SHARED = 1;
    private static final int MFD_CLOEXEC = 1;

    private final WaylandConnection connection;
    private final Pointer manager;
    private final Pointer shm;
    private long captures;

    private Screencopy(final WaylandConnection connection, final Pointer manager, final Pointer shm) {
        this.connection = connection;
        this.manager = manager;
        this.shm = shm;
    }

    public static Screencopy open(final WaylandConnection connection) throws IOException {
        final Pointer manager = connection.bind(MANAGER, WlInterfaces.SCREENCOPY_MANAGER, 1);
        if (manager == null) {
            throw new IOException("the compositor offers no " + MANAGER);
        }
        final Pointer shm = connection.bind("wl_shm", WlInterfaces.WL_SHM, 1);
        if (shm == null) {
            throw new IOException("the compositor offers no wl_shm");
        }
        return new Screencopy(connection, manager, shm);
    }

    /** The state of one frame, written by its event handler. */
    private static final class Frame {
        int format = -1;
        int width;
        int height;
        int stride;
        int flags;
        boolean ready;
        boolean failed;
    }

    /**
     * Captures the region (x, y, width, height) of {@code output} (output coordinates) as packed
     * RGB, 3 bytes a pixel, rows top to bottom, into {@code rgb} (at least width × height × 3
     * bytes of the size the compositor chose, which it reports: the returned {width, height}).
     *
     * @return {width, height} of the copied image
     */
    public int[] capture(final Pointer output, final int x, final int y, final int width, final int height,
        final byte[] rgb, final int timeoutMs) throws IOException {
        return copy(output, x, y, width, height, (long) rgb.length / 3, timeoutMs, (map, f, flip) -> {
            final byte[] row = new byte[f.stride];
            for (int r = 0; r < f.height; r++) {
                map.read((long) (flip ? f.height - 1 - r : r) * f.stride, row, 0, f.stride);
                int o = r * f.width * 3;
                for (int c = 0; c < f.width; c++) {
                    rgb[o++] = row[c * 4 + 2];
                    rgb[o++] = row[c * 4 + 1];
                    rgb[o++] = row[c * 4];
                }
            }
        });
    }

    /**
     * Captures the region as one int a pixel, 0xXXRRGGBB (the X11 capture's layout), rows top to
     * bottom, into {@code out} (at least width × height ints).
     *
     * @return {width, height} of the copied image
     */
    public int[] captureXrgb(final Pointer output, final int x, final int y, final int width, final int height,
        final int[] out, final int timeoutMs) throws IOException {
        return copy(output, x, y, width, height, out.length, timeoutMs, (map, f, flip) -> {
            for (int r = 0; r < f.height; r++) {
                map.read((long) (flip ? f.height - 1 - r : r) * f.stride, out, r * f.width, f.width);
            }
        });
    }

    /** Moves a mapped frame into the caller's pixels. */
    private interface Sink {
        void accept(Pointer map, Frame frame, boolean flip);
    }

    private int[] copy(final Pointer output, final int x, final int y, final int width, final int height,
        final long capacityPixels, final int timeoutMs, final Sink sink) throws IOException {
        final Frame f = new Frame();
        final Pointer frame = connection.request(manager, 1, WlInterfaces.SCREENCOPY_FRAME, 1, 0, null, 0, output,
            x, y, width, height);
        connection.listen(frame, (opcode, args) -> {
            switch (opcode) {
                case 0 -> {
                    f.format = args.intAt(0);
                    f.width = args.intAt(1);
                    f.height = args.intAt(2);
                    f.stride = args.intAt(3);
                }
                case 1 -> f.flags = args.intAt(0);
                case 2 -> f.ready = true;
                case 3 -> f.failed = true;
                default -> { }
            }
        });
        Pointer pool = null;
        Pointer buffer = null;
        Pointer map = null;
        int fd = -1;
        long size = 0;
        try {
            connection.roundtrip(); // the buffer event comes right after the request
            if (f.failed || f.format < 0) {
                throw new IOException("screencopy refused the region " + x + "," + y + " " + width + "x" + height);
            }
            if (f.format != FORMAT_ARGB8888 && f.format != FORMAT_XRGB8888) {
                throw new IOException("unsupported screencopy format 0x" + Integer.toHexString(f.format));
            }
            if ((long) f.width * f.height > capacityPixels) {
                throw new IOException("the capture of " + f.width + "x" + f.height + " does not fit " + capacityPixels
                    + " pixels");
            }
            size = (long) f.stride * f.height;
            fd = WaylandNative.LibC.LIB.memfd_create("saccade-screencopy", MFD_CLOEXEC);
            if (fd < 0 || WaylandNative.LibC.LIB.ftruncate(fd, size) != 0) {
                throw new IOException("cannot make the capture buffer's memfd");
            }
            map = WaylandNative.LibC.LIB.mmap(null, size, PROT_READ_WRITE, MAP_SHARED, fd, 0);
            if (map == null || Pointer.nativeValue(map) == -1L) {
                map = null;
                throw new IOException("cannot map the capture buffer");
            }
            pool = connection.request(shm, 0, WlInterfaces.WL_SHM_POOL, 1, 0, null, fd, (int) size);
            buffer = connection.request(pool, 0, WlInterfaces.WL_BUFFER, 1, 0, null, 0, f.width, f.height, f.stride,
                f.format);
            connection.send(frame, 0, buffer);
            final long deadlineNs = System.nanoTime() + timeoutMs * 1_000_000L;
            while (!f.ready && !f.failed) {
                final long leftMs = (deadlineNs - System.nanoTime()) / 1_000_000L;
                if (leftMs <= 0) {
                    throw new IOException("no screencopy frame within " + timeoutMs + " ms");
                }
                if (!connection.pump((int) Math.min(leftMs, 100))) {
                    throw new IOException("the Wayland connection failed during a capture");
                }
            }
            if (f.failed) {
                throw new IOException("the compositor failed the capture");
            }
            sink.accept(map, f, (f.flags & FLAG_Y_INVERT) != 0);
            captures++;
            return new int[] {f.width, f.height};
        } finally {
            connection.destroy(frame, 1);
            if (buffer != null) {
                connection.destroy(buffer, 0);
            }
            if (pool != null) {
                connection.destroy(pool, 1);
            }
            connection.flush();
            if (map != null) {
                WaylandNative.LibC.LIB.munmap(map, size);
            }
            if (fd >= 0) {
                WaylandNative.LibC.LIB.close(fd);
            }
        }
    }

    /** Captures completed since {@link #open}. */
    public long captures() {
        return captures;
    }

    @Override
    public void close() {
        connection.forget(manager); // no destructor at version 1
        connection.forget(shm); // wl_shm has a release request only from version 2
    }
}
