package dev.saccade.protocol;

import net.openhft.chronicle.bytes.BytesStore;

/**
 * RectQ8 (16 bytes) and PointQ8 (8 bytes) embedded in other structs, read and tested in place.
 * Q8: signed fixed point, 256 = one desktop unit. A rect covers [x, x+width) × [y, y+height);
 * edge sums are done in 64 bits so no i32 overflow changes an answer.
 * <pre>
 *  0      4      8          12          16
 *  | x_q8 | y_q8 | width_q8 | height_q8 |
 * </pre>
 */
public final class RectQ8 {
    public static final int X_OFFSET = 0;
    public static final int Y_OFFSET = X_OFFSET + Integer.BYTES;
    public static final int WIDTH_OFFSET = Y_OFFSET + Integer.BYTES;
    public static final int HEIGHT_OFFSET = WIDTH_OFFSET + Integer.BYTES;
    public static final int LENGTH = HEIGHT_OFFSET + Integer.BYTES;
    public static final int POINT_LENGTH = 2 * Integer.BYTES;

    /** One desktop unit in Q8. */
    public static final int ONE = 256;

    private RectQ8() {
    }

    public static void write(
        final BytesStore<?, ?> b, final long at, final int x, final int y, final int w, final int h) {
        b.writeInt(at + X_OFFSET, x);
        b.writeInt(at + Y_OFFSET, y);
        b.writeInt(at + WIDTH_OFFSET, w);
        b.writeInt(at + HEIGHT_OFFSET, h);
    }

    public static void writePoint(final BytesStore<?, ?> b, final long at, final int x, final int y) {
        b.writeInt(at + X_OFFSET, x);
        b.writeInt(at + Y_OFFSET, y);
    }

    /**
     * Both rects have positive width and height and overlap with positive area (spec §5.3);
     * touching edges do not intersect.
     */
    public static boolean intersects(
        final long ax, final long ay, final long aw, final long ah,
        final long bx, final long by, final long bw, final long bh) {
        return aw > 0 && ah > 0 && bw > 0 && bh > 0
            && ax < bx + bw && ax + aw > bx
            && ay < by + bh && ay + ah > by;
    }

    public static boolean intersects(
        final BytesStore<?, ?> a, final long aAt, final BytesStore<?, ?> b, final long bAt) {
        return intersects(
            a.readInt(aAt + X_OFFSET), a.readInt(aAt + Y_OFFSET),
            a.readInt(aAt + WIDTH_OFFSET), a.readInt(aAt + HEIGHT_OFFSET),
            b.readInt(bAt + X_OFFSET), b.readInt(bAt + Y_OFFSET),
            b.readInt(bAt + WIDTH_OFFSET), b.readInt(bAt + HEIGHT_OFFSET));
    }

    /** Outer contains inner, edges may touch (CONTAINS / CONTAINED_BY relations). */
    public static boolean contains(
        final BytesStore<?, ?> outer, final long oAt, final BytesStore<?, ?> inner, final long iAt) {
        final long ox = outer.readInt(oAt + X_OFFSET);
        final long oy = outer.readInt(oAt + Y_OFFSET);
        final long ix = inner.readInt(iAt + X_OFFSET);
        final long iy = inner.readInt(iAt + Y_OFFSET);
        return ix >= ox && iy >= oy
            && ix + inner.readInt(iAt + WIDTH_OFFSET) <= ox + outer.readInt(oAt + WIDTH_OFFSET)
            && iy + inner.readInt(iAt + HEIGHT_OFFSET) <= oy + outer.readInt(oAt + HEIGHT_OFFSET);
    }

    /** x ≤ px < x+width ∧ y ≤ py < y+height. */
    public static boolean containsPoint(
        final BytesStore<?, ?> rect, final long rAt, final long px, final long py) {
        final long x = rect.readInt(rAt + X_OFFSET);
        final long y = rect.readInt(rAt + Y_OFFSET);
        return px >= x && px < x + rect.readInt(rAt + WIDTH_OFFSET)
            && py >= y && py < y + rect.readInt(rAt + HEIGHT_OFFSET);
    }
}
