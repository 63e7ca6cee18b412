package dev.saccade.pixel;

/** Rectangle arithmetic shared by the detector, the analyzer and the fusion with accessibility. */
public final class Geometry {
    private Geometry() {
    }

    /** Intersection over union of two rectangles; 0 when either is empty. */
    public static double iou(final int ax, final int ay, final int aw, final int ah,
        final int bx, final int by, final int bw, final int bh) {
        if (aw <= 0 || ah <= 0 || bw <= 0 || bh <= 0) {
            return 0;
        }
        final long iw = Math.min(ax + aw, bx + bw) - Math.max(ax, bx);
        final long ih = Math.min(ay + ah, by + bh) - Math.max(ay, by);
        if (iw <= 0 || ih <= 0) {
            return 0;
        }
        final double inter = (double) iw * ih;
        return inter / ((double) aw * ah + (double) bw * bh - inter);
    }

    /** Whether two rectangles overlap with positive area. */
    public static boolean intersects(final int ax, final int ay, final int aw, final int ah,
        final int bx, final int by, final int bw, final int bh) {
        return aw > 0 && ah > 0 && bw > 0 && bh > 0 && ax < bx + bw && ax + aw > bx && ay < by + bh && ay + ah > by;
    }
}
