package dev.saccade.pixel;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds the bordered rectangles of a window image (buttons, fields, frames) in plain Java: an
 * edge map from the grey image's neighbour differences, its 8-connected components, and of those
 * the ones whose pixels run along most of their bounding box's perimeter. 2–7 ms for a window of
 * 800×650. One instance per thread: its work arrays are reused.
 */
final class BoxFinder {
    /** Grey-level step that counts as an edge (a 1 px border on a flat fill is far above it). */
    static final int EDGE_THRESHOLD = 18;
    /** Share of the perimeter the component must cover: rounded corners and a focus ring stay above it. */
    static final double MIN_PERIMETER_COVER = 0.75;
    /** Smaller closed shapes are glyphs (an "o", a "B"), not controls. */
    static final int MIN_WIDTH = 14;
    static final int MIN_HEIGHT = 14;
    /** A border is hollow: at most this share of its inside (inset by 4 px) is its own edge. */
    static final double MAX_INSIDE_FILL = 0.08;
    /** How far inside its bounds a border may run (two-pixel borders, anti-aliasing). */
    private static final int BAND = 2;

    private int[] labels = new int[0];
    private final Flood flood = new Flood();

    /** A rectangle found: its bounds in the image and the share of its perimeter covered. */
    record Box(int x, int y, int width, int height, double cover) {
        int area() {
            return width * height;
        }

        boolean contains(final int px, final int py) {
            return px >= x && px < x + width && py >= y && py < y + height;
        }

        double iou(final Box o) {
            return Geometry.iou(x, y, width, height, o.x, o.y, o.width, o.height);
        }
    }

    /** Grey levels (0..255) of 0xRRGGBB pixels, ITU-R BT.601 luma. */
    static void grey(final int[] rgb, final int count, final byte[] out) {
        for (int i = 0; i < count; i++) {
            final int p = rgb[i];
            out[i] = (byte) ((((p >> 16) & 0xFF) * 77 + ((p >> 8) & 0xFF) * 150 + (p & 0xFF) * 29) >> 8);
        }
    }

    /** The rectangles of a grey image, de-duplicated (IoU above 0.85 keeps the first). */
    List<Box> find(final byte[] grey, final int width, final int height) {
        final int n = width * height;
        if (labels.length < n) {
            labels = new int[n];
        }
        final int[] label = labels;
        // edges: 0 = none, Flood.OPEN = edge not yet labelled
        for (int y = 0; y < height; y++) {
            final int row = y * width;
            for (int x = 0; x < width; x++) {
                final int i = row + x;
                final int g = grey[i] & 0xFF;
                final int right = x + 1 < width ? Math.abs((grey[i + 1] & 0xFF) - g) : 0;
                final int down = y + 1 < height ? Math.abs((grey[i + width] & 0xFF) - g) : 0;
                label[i] = right > EDGE_THRESHOLD || down > EDGE_THRESHOLD ? Flood.OPEN : 0;
            }
        }
        final List<Box> boxes = new ArrayList<>();
        int next = 0;
        for (int start = 0; start < n; start++) {
            if (label[start] != Flood.OPEN) {
                continue;
            }
            final int id = ++next;
            flood.fill(label, width, height, start, id);
            final int minX = flood.minX();
            final int minY = flood.minY();
            final int maxX = flood.maxX();
            final int maxY = flood.maxY();
            final int w = maxX - minX + 1;
            final int h = maxY - minY + 1;
            if (w < MIN_WIDTH || h < MIN_HEIGHT || (w >= width - 2 && h >= height - 2)) {
                continue;
            }
            final double cover = perimeterCover(label, width, id, minX, minY, w, h);
            if (cover >= MIN_PERIMETER_COVER && insideFill(label, width, id, minX, minY, w, h) <= MAX_INSIDE_FILL) {
                add(boxes, new Box(minX, minY, w + 1, h + 1, cover));
            }
        }
        return boxes;
    }

    private static void add(final List<Box> boxes, final Box box) {
        for (int i = 0; i < boxes.size(); i++) {
            if (boxes.get(i).iou(box) > 0.85) {
                return;
            }
        }
        boxes.add(box);
    }

    private static double insideFill(final int[] label, final int width, final int id, final int x0, final int y0,
        final int w, final int h) {
        final int inset = 4;
        if (w <= 2 * inset || h <= 2 * inset) {
            return 0;
        }
        int own = 0;
        for (int y = y0 + inset; y < y0 + h - inset; y++) {
            for (int x = x0 + inset; x < x0 + w - inset; x++) {
                own += label[y * width + x] == id ? 1 : 0;
            }
        }
        return own / (double) ((w - 2 * inset) * (h - 2 * inset));
    }

    /** Share of perimeter positions with a pixel of component {@code id} within {@link #BAND} inside. */
    private static double perimeterCover(final int[] label, final int width, final int id, final int x0, final int y0,
        final int w, final int h) {
        int covered = 0;
        for (int x = x0; x < x0 + w; x++) {
            covered += column(label, width, id, x, y0, 1, h) ? 1 : 0;
            covered += column(label, width, id, x, y0 + h - 1, -1, h) ? 1 : 0;
        }
        for (int y = y0; y < y0 + h; y++) {
            covered += row(label, width, id, x0, y, 1, w) ? 1 : 0;
            covered += row(label, width, id, x0 + w - 1, y, -1, w) ? 1 : 0;
        }
        return covered / (2.0 * (w + h));
    }

    private static boolean column(final int[] label, final int width, final int id, final int x, final int y,
        final int step, final int h) {
        for (int k = 0; k <= BAND && k < h; k++) {
            if (label[(y + k * step) * width + x] == id) {
                return true;
            }
        }
        return false;
    }

    private static boolean row(final int[] label, final int width, final int id, final int x, final int y,
        final int step, final int w) {
        for (int k = 0; k <= BAND && k < w; k++) {
            if (label[y * width + x + k * step] == id) {
                return true;
            }
        }
        return false;
    }
}
