package dev.saccade.desktop;

/**
 * Stable target ids: the top byte names the source, the rest comes from the element's own
 * stable identity, so the same element keeps its id across generations and sources never
 * collide. Never 0.
 */
public final class TargetIds {
    public static final long WINDOW_NAMESPACE = 0x01L << 56;
    public static final long GRID_NAMESPACE = 0x02L << 56;
    public static final long ACCESSIBILITY_NAMESPACE = 0x03L << 56;
    public static final long PIXEL_NAMESPACE = 0x04L << 56;
    private static final long LOW_56 = (1L << 56) - 1;

    private TargetIds() {
    }

    /** A top-level window: its X window id (stable while the window exists). */
    public static long window(final long xid) {
        return WINDOW_NAMESPACE | (xid & LOW_56);
    }

    /** A grid cell: display, row and column. */
    public static long gridCell(final long displayId, final int row, final int column) {
        return GRID_NAMESPACE | ((displayId & 0xFF_FFFFL) << 32) | ((long) (row & 0xFFFF) << 16) | (column & 0xFFFF);
    }

    /** A box the pixel source found: a digest of its window, its quantised geometry and its text. */
    public static long pixel(final long digest) {
        final long low = digest & LOW_56;
        return PIXEL_NAMESPACE | (low == 0 ? 1 : low);
    }

    public static int namespace(final long targetId) {
        return (int) (targetId >>> 56);
    }
}
