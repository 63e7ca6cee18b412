package dev.saccade.pixel;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads the few symbols a button is often labelled with and that Tesseract's English model
 * cannot: it has no ÷ × ± ² ³ at all (they are not in its character set) and at screen sizes
 * (a 2×2 px dot, a 4×1 px bar) it turns "." and "-" into noise. The glyph's ink is split into
 * 8-connected parts (ink: darker than halfway between the background and the darkest pixel), each
 * part is a dot, a horizontal bar, an upright cross or a diagonal cross, and the arrangement of
 * the parts names the symbol: dot → ".", bar → "-", upright cross → "+", diagonal cross → "×",
 * dot over bar over dot → "÷", bar over bar → "=", upright cross over bar → "±". Anything else is
 * left to Tesseract. A lone diagonal cross is taken for the multiplication sign, not the letter x:
 * at 7 px the two differ by less than anti-aliasing does, and a button whose whole label is the
 * letter x is the rarer of the two. {@link #superscriptLast} finds a raised last glyph ("x²" read
 * as "x2"). Pure functions over a crop with a light background (dark ones are inverted first).
 */
final class GlyphShapes {
    /** Ink must be at least this much darker than the background to count as a glyph. */
    private static final int MIN_CONTRAST = 60;
    /** A symbol label is small: more parts or more ink than this is text for Tesseract. */
    private static final int MAX_PARTS = 3;
    private static final int MAX_SYMBOL_SIZE = 24;

    private GlyphShapes() {
    }

    /** One 8-connected part of the ink: its bounds (inclusive) and, per row and column, its ink counts. */
    record Part(int x0, int y0, int x1, int y1, int[] rowInk, int[] columnInk, boolean[] ink) {
        int width() {
            return x1 - x0 + 1;
        }

        int height() {
            return y1 - y0 + 1;
        }

        boolean at(final int x, final int y) {
            return x >= x0 && x <= x1 && y >= y0 && y <= y1 && ink[(y - y0) * width() + x - x0];
        }

        int centreX2() {
            return x0 + x1;
        }
    }

    private enum Shape { DOT, BAR, CROSS, DIAGONAL, OTHER }

    /**
     * The symbol a label-sized crop shows, as a word in the crop's coordinates (line 0, confidence
     * {@code confidence}), or null when its ink is not one of the symbols read here.
     *
     * @param crop grey levels, {@code w} a row, light background
     * @param background the crop's background grey level
     */
    static OcrWord symbol(final byte[] crop, final int w, final int h, final int background, final float confidence) {
        final List<Part> parts = parts(crop, w, h, background, MAX_PARTS + 1);
        if (parts.isEmpty() || parts.size() > MAX_PARTS) {
            return null;
        }
        int x0 = Integer.MAX_VALUE;
        int y0 = Integer.MAX_VALUE;
        int x1 = Integer.MIN_VALUE;
        int y1 = Integer.MIN_VALUE;
        for (final Part p : parts) {
            x0 = Math.min(x0, p.x0());
            y0 = Math.min(y0, p.y0());
            x1 = Math.max(x1, p.x1());
            y1 = Math.max(y1, p.y1());
        }
        if (x1 - x0 >= MAX_SYMBOL_SIZE || y1 - y0 >= MAX_SYMBOL_SIZE) {
            return null;
        }
        final String text = name(parts);
        return text == null ? null : new OcrWord(text, x0, y0, x1 - x0 + 1, y1 - y0 + 1, 0, confidence);
    }

    private static String name(final List<Part> parts) {
        parts.sort((a, b) -> a.y0() != b.y0() ? Integer.compare(a.y0(), b.y0()) : Integer.compare(a.x0(), b.x0()));
        final Shape[] shapes = new Shape[parts.size()];
        for (int i = 0; i < shapes.length; i++) {
            shapes[i] = shape(parts.get(i));
        }
        if (parts.size() == 1) {
            switch (shapes[0]) {
                case DOT:
                    return ".";
                case BAR:
                    return "-";
                case CROSS:
                    return "+";
                case DIAGONAL:
                    return "×";
                default:
                    return null;
            }
        }
        if (!stacked(parts)) {
            return null;
        }
        if (parts.size() == 2 && shapes[0] == Shape.BAR && shapes[1] == Shape.BAR) {
            return "=";
        }
        if (parts.size() == 2 && shapes[0] == Shape.CROSS && shapes[1] == Shape.BAR) {
            return "±";
        }
        if (parts.size() == 3 && shapes[0] == Shape.DOT && shapes[1] == Shape.BAR && shapes[2] == Shape.DOT) {
            return "÷";
        }
        return null;
    }

    /**
     * Whether the last glyph of a crop's ink is raised like an exponent: the parts lying wholly
     * above the middle of the lowest glyph are right of it, reach the ink's right end and start no
     * lower than that glyph's top (an exponent may break into parts, and touch the glyph before it
     * column-wise, so it is told by height, not by a gap).
     */
    static boolean superscriptLast(final byte[] crop, final int w, final int h, final int background) {
        final List<Part> parts = parts(crop, w, h, background, 64);
        Part base = null;
        for (final Part p : parts) {
            if (base == null || p.y1() > base.y1() || p.y1() == base.y1() && p.height() > base.height()) {
                base = p;
            }
        }
        if (base == null || base.height() < 5) {
            return false;
        }
        int raisedTop = Integer.MAX_VALUE;
        int raisedBottom = Integer.MIN_VALUE;
        int raisedRight = Integer.MIN_VALUE;
        int otherRight = Integer.MIN_VALUE;
        for (final Part p : parts) {
            if (2 * p.y1() < base.y0() + base.y1()) {
                if (p.centreX2() <= base.centreX2()) {
                    return false; // raised ink before the glyph: an accent or a dot, not an exponent
                }
                raisedTop = Math.min(raisedTop, p.y0());
                raisedBottom = Math.max(raisedBottom, p.y1());
                raisedRight = Math.max(raisedRight, p.x1());
            } else {
                otherRight = Math.max(otherRight, p.x1());
            }
        }
        return raisedRight > otherRight && raisedTop <= base.y0() && raisedBottom - raisedTop >= 2;
    }

    /** Parts one above the other: each part's centre lies within the widest part's columns. */
    private static boolean stacked(final List<Part> parts) {
        Part widest = parts.get(0);
        for (final Part p : parts) {
            widest = p.width() > widest.width() ? p : widest;
        }
        for (int i = 0; i < parts.size(); i++) {
            final Part p = parts.get(i);
            if (p.centreX2() < 2 * widest.x0() || p.centreX2() > 2 * widest.x1()
                || i > 0 && p.y0() <= parts.get(i - 1).y1()) {
                return false;
            }
        }
        return true;
    }

    private static Shape shape(final Part p) {
        final int w = p.width();
        final int h = p.height();
        if (w <= 3 && h <= 3) {
            return Shape.DOT;
        }
        if (h <= 2 && w >= 2 * h + 1) {
            return Shape.BAR;
        }
        if (w < 5 || h < 5 || w > 3 * h || h > 3 * w) {
            return Shape.OTHER;
        }
        int fullRow = -1;
        for (int y = 0; y < h; y++) {
            if (p.rowInk()[y] >= w - 1 && Math.abs(2 * y - (h - 1)) <= h / 2) {
                fullRow = y;
            }
        }
        int fullColumn = -1;
        for (int x = 0; x < w; x++) {
            if (p.columnInk()[x] >= h - 1 && Math.abs(2 * x - (w - 1)) <= w / 2) {
                fullColumn = x;
            }
        }
        final boolean cornersEmpty = !p.at(p.x0(), p.y0()) && !p.at(p.x1(), p.y0()) && !p.at(p.x0(), p.y1())
            && !p.at(p.x1(), p.y1());
        if (fullRow >= 0 && fullColumn >= 0 && cornersEmpty) {
            return Shape.CROSS;
        }
        final boolean cornersInked = corner(p, p.x0(), p.y0(), 1, 1) && corner(p, p.x1(), p.y0(), -1, 1)
            && corner(p, p.x0(), p.y1(), 1, -1) && corner(p, p.x1(), p.y1(), -1, -1);
        final int mx = p.x0() + (w - 1) / 2;
        final int my = p.y0() + (h - 1) / 2;
        final boolean edgesEmpty = !p.at(mx, p.y0()) && !p.at(mx + (w + 1) % 2, p.y0()) && !p.at(mx, p.y1())
            && !p.at(mx + (w + 1) % 2, p.y1()) && !p.at(p.x0(), my) && !p.at(p.x0(), my + (h + 1) % 2)
            && !p.at(p.x1(), my) && !p.at(p.x1(), my + (h + 1) % 2);
        if (fullRow < 0 && fullColumn < 0 && cornersInked && edgesEmpty && p.at(mx, my) | p.at(mx + 1, my)
            | p.at(mx, my + 1) | p.at(mx + 1, my + 1)) {
            return Shape.DIAGONAL;
        }
        return Shape.OTHER;
    }

    /** Ink in the 2×2 block at a corner. */
    private static boolean corner(final Part p, final int x, final int y, final int dx, final int dy) {
        return p.at(x, y) || p.at(x + dx, y) || p.at(x, y + dy) || p.at(x + dx, y + dy);
    }

    /** The ink's 8-connected parts; stops (returning what it has) after {@code limit} parts. */
    static List<Part> parts(final byte[] crop, final int w, final int h, final int background, final int limit) {
        int darkest = 255;
        for (int i = 0; i < w * h; i++) {
            darkest = Math.min(darkest, crop[i] & 0xFF);
        }
        final List<Part> parts = new ArrayList<>();
        if (background - darkest < MIN_CONTRAST) {
            return parts;
        }
        final int threshold = (background + darkest) / 2;
        final int[] label = new int[w * h];
        for (int i = 0; i < w * h; i++) {
            label[i] = (crop[i] & 0xFF) < threshold ? Flood.OPEN : 0;
        }
        final Flood flood = new Flood();
        int next = 0;
        for (int start = 0; start < w * h && parts.size() < limit; start++) {
            if (label[start] != Flood.OPEN) {
                continue;
            }
            final int id = ++next;
            flood.fill(label, w, h, start, id);
            final int x0 = flood.minX();
            final int y0 = flood.minY();
            final int pw = flood.maxX() - x0 + 1;
            final int ph = flood.maxY() - y0 + 1;
            final int[] rows = new int[ph];
            final int[] columns = new int[pw];
            final boolean[] ink = new boolean[pw * ph];
            for (int y = 0; y < ph; y++) {
                for (int x = 0; x < pw; x++) {
                    if (label[(y0 + y) * w + x0 + x] == id) {
                        rows[y]++;
                        columns[x]++;
                        ink[y * pw + x] = true;
                    }
                }
            }
            parts.add(new Part(x0, y0, flood.maxX(), flood.maxY(), rows, columns, ink));
        }
        return parts;
    }
}
