package dev.saccade.pixel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A second look at small text: the rows of each word no taller than {@link #SMALL_HEIGHT} that the
 * window pass doubted, or that is drawn in a bitmap font, are read again one row per call at
 * {@link #SCALE} times the scale (each pixel a square block, strokes thickened by a pixel, a strut
 * at the left of the row) and their words replace the first reading's (D55). Bitmap fonts with
 * one-pixel strokes (xterm's default {@code fixed}, Xt and Tk apps) read at their own size come
 * out below the word confidence floor or confidently wrong; read this way they read as well as
 * anti-aliased text. Anti-aliased text that read well the first time costs nothing more; what
 * each row read is remembered by a hash of its pixels, so an unchanged terminal row, or one that
 * scrolled, is not read again. One thread uses an instance.
 */
final class SmallTextLook {
    /** Word boxes at most this tall are small text: a 13-pixel terminal cell's glyphs. */
    static final int SMALL_HEIGHT = 14;
    private static final int SCALE = 3;
    /** Rows above and below a doubtful word read with it: ascenders, descenders, a cursor block. */
    private static final int MARGIN = 3;
    private static final int PAD = 8;
    /**
     * The strut, a bar left of a row from {@code STRUT_ABOVE} rows above its ink to {@code STRUT_BELOW}
     * below: Tesseract scales a line to the height its ink spans, and a terminal line without
     * descenders ("saccade-6305-ish marker") came out stretched, its digits misread (6 as B, 7 as /,
     * 1 as L) or below the confidence floor; with the strut the line is scaled as if it had
     * ascenders and descenders, and read right (D55).
     */
    private static final int STRUT_ABOVE = 3;
    private static final int STRUT_BELOW = 3;
    /** Grey levels strictly between these are neither ink nor paper. */
    private static final int GREY_FROM = 48;
    private static final int GREY_TO = 208;
    /** A word with at most one grey pixel in this many is drawn in a bitmap font. */
    private static final int CRISP_RATIO = 50;
    /** Columns either side of a band's words read with them (not a window border beside them). */
    private static final int EDGE = 2;
    /** White between the strut and the row (scaled pixels): the strut reads as a word of its own. */
    private static final int STRUT_GAP = 12;
    /** Bands read again in one window reading. */
    private static final int MAX_BANDS = 64;
    private static final int REMEMBERED = 512;
    /** Line numbers of words read again: apart from the window pass's, one range per row. */
    private static final int LINE_BASE = 1 << 20;
    private static final int LINES_PER_ROW = 64;

    private final OcrEngine ocr;
    private final boolean reuse;
    private final Map<Long, List<OcrWord>> readings = new RecentMap<>(REMEMBERED);
    private final List<OcrWord> read = new ArrayList<>();
    private byte[] image = new byte[0];
    private long looks;

    SmallTextLook(final OcrEngine ocr, final boolean reuse) {
        this.ocr = ocr;
        this.reuse = reuse;
    }

    /** Rows read again by Tesseract (not answered from memory). */
    long looks() {
        return looks;
    }

    /**
     * Replaces the words of doubtful or bitmap-font small-text rows in {@code words} by a reading
     * of each row at {@link #SCALE} times the scale.
     *
     * @param prepared the image the window pass read (dark on light), {@code width} a row
     * @param minConfidence below it a word is doubtful
     * @return false if the deadline cut a read (the words read so far are kept)
     */
    boolean look(final byte[] prepared, final int width, final int height, final List<OcrWord> words,
        final float minConfidence, final long deadlineNs) {
        final List<int[]> bands = bands(prepared, width, words, height, minConfidence);
        final List<OcrWord> found = new ArrayList<>();
        for (final int[] band : bands) {
            // the columns the band's words span: a window border beside them would read as a letter
            int x0 = width;
            int x1 = 0;
            for (final OcrWord w : words) {
                if (centreY(w) >= band[0] && centreY(w) < band[1]) {
                    x0 = Math.min(x0, w.x());
                    x1 = Math.max(x1, w.x() + w.width());
                }
            }
            x0 = Math.max(0, x0 - EDGE);
            x1 = Math.min(width, x1 + EDGE);
            if (x1 <= x0) {
                continue;
            }
            for (final int[] row : rows(words, band[0], band[1])) {
                final int remainingMs = (int) ((deadlineNs - System.nanoTime()) / 1_000_000L);
                found.clear();
                if (remainingMs <= 0 || !readRow(prepared, width, height, x0, x1, row, remainingMs, found)) {
                    return false; // the row's first reading stays
                }
                words.removeIf(w -> centreY(w) >= row[0] && centreY(w) < row[1]);
                words.addAll(found);
            }
        }
        return true;
    }

    /**
     * The text rows of a band, top down: the rows [top, bottom) the words centred in it span, a
     * word joining the row whose centre is within half its height of its own (as {@link #addByRow}).
     * Rows whose words overlap (touching ink) are one row, read as a block.
     */
    static List<int[]> rows(final List<OcrWord> words, final int from, final int to) {
        final List<OcrWord> in = new ArrayList<>();
        for (final OcrWord w : words) {
            if (centreY(w) >= from && centreY(w) < to) {
                in.add(w);
            }
        }
        in.sort(java.util.Comparator.comparingInt(SmallTextLook::centreY));
        final List<int[]> out = new ArrayList<>();
        int rowCentre = Integer.MIN_VALUE;
        for (final OcrWord w : in) {
            final int[] last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null && (centreY(w) - rowCentre <= Math.max(2, w.height() / 2) || w.y() < last[1])) {
                last[0] = Math.min(last[0], w.y());
                last[1] = Math.max(last[1], w.y() + w.height());
            } else {
                out.add(new int[] {w.y(), w.y() + w.height()});
                rowCentre = centreY(w);
            }
        }
        return out;
    }

    /**
     * Reads one row at {@link #SCALE} times the scale with a strut left of it (rows whose ink
     * touches, taller than a small row: as a block, without one), and adds its words at their
     * place in the window, one line number for each row.
     *
     * @return false if the deadline cut the read
     */
    private boolean readRow(final byte[] prepared, final int width, final int height, final int x0, final int x1,
        final int[] row, final int deadlineMs, final List<OcrWord> out) {
        final boolean single = row[1] - row[0] <= SMALL_HEIGHT;
        // the strut: from above the ink to a descender's depth below it
        final int top = Math.max(0, row[0] - STRUT_ABOVE);
        final int bottom = Math.min(height, row[1] + STRUT_BELOW);
        final int cw = x1 - x0;
        final int rows = bottom - top;
        final long key = reuse ? key(prepared, width, x0, cw, row[0], row[1] - row[0], top, rows) : 0;
        List<OcrWord> relative = reuse ? readings.get(key) : null;
        boolean whole = true;
        if (relative == null) {
            final int lead = single ? SCALE + STRUT_GAP : 0;
            final int ow = cw * SCALE + 2 * PAD + lead;
            final int oh = rows * SCALE + 2 * PAD;
            if (image.length < ow * oh) {
                image = new byte[ow * oh];
            }
            java.util.Arrays.fill(image, 0, ow * oh, (byte) 0xFF);
            upscale(prepared, width, x0, cw, row[0], row[1], top, image, ow, PAD + lead);
            if (single) {
                for (int y = PAD; y < PAD + rows * SCALE; y++) {
                    java.util.Arrays.fill(image, y * ow + PAD, y * ow + PAD + SCALE, (byte) 0);
                }
            }
            embolden(image, ow, oh);
            read.clear();
            looks++;
            whole = ocr.recognize(image, ow, oh, single ? Tesseract.PSM_SINGLE_LINE : Tesseract.PSM_SINGLE_BLOCK, deadlineMs,
                read);
            final List<OcrWord> mapped = new ArrayList<>(read.size());
            for (final OcrWord w : read) {
                String text = w.text();
                int x = w.x();
                if (single && x < PAD + SCALE + STRUT_GAP / 2) {
                    if (x + w.width() <= PAD + SCALE + STRUT_GAP / 2) {
                        continue; // the strut itself
                    }
                    text = text.substring(1); // the strut read as the word's first letter
                    x = PAD + lead;
                    if (text.isEmpty()) {
                        continue;
                    }
                }
                mapped.add(new OcrWord(text, Math.max(0, (x - PAD - lead) / SCALE), Math.max(0, (w.y() - PAD) / SCALE),
                    Math.max(1, (w.x() + w.width() - x) / SCALE), Math.max(1, w.height() / SCALE), w.line(), w.confidence()));
            }
            relative = List.copyOf(mapped);
            if (reuse && whole) {
                readings.put(key, relative);
            }
        }
        addByRow(relative, x0, top, out);
        return whole;
    }

    /**
     * Whether sparse-text segmentation put the word on a line of its own although a small word of
     * another line sits beside it, a space away on the same row: a terminal's row cut at its
     * single-cell spaces, read word by word.
     */
    private static boolean splitFromNeighbour(final OcrWord w, final List<OcrWord> words) {
        for (final OcrWord o : words) {
            if (o.line() != w.line() && o.height() <= SMALL_HEIGHT && Math.abs(centreY(o) - centreY(w)) <= w.height() / 2) {
                final int gap = Math.max(o.x() - (w.x() + w.width()), w.x() - (o.x() + o.width()));
                if (gap >= 0 && gap <= w.height()) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether the word is drawn in a bitmap font: ink and paper and (almost) no grey between. The
     * window pass reads such small text with confidence and still wrong (a terminal's 6 as B, its
     * "-ish" as "-ich"), so it always gets the second look; anti-aliased text has grey edges.
     */
    static boolean crisp(final byte[] image, final int width, final OcrWord w) {
        int grey = 0;
        final int x0 = Math.max(0, w.x());
        final int x1 = Math.min(width, w.x() + w.width());
        final int y1 = Math.min(image.length / width, w.y() + w.height());
        for (int y = Math.max(0, w.y()); y < y1; y++) {
            for (int i = y * width + x0, end = y * width + x1; i < end; i++) {
                final int v = image[i] & 0xFF;
                if (v > GREY_FROM && v < GREY_TO) {
                    grey++;
                }
            }
        }
        return grey * CRISP_RATIO <= w.width() * w.height();
    }

    /**
     * Adds a band's words at their place in the window, one line number per text row: sparse-text
     * segmentation splits a terminal's row at its single-cell spaces into lines of their own.
     */
    private static void addByRow(final List<OcrWord> found, final int x0, final int from, final List<OcrWord> words) {
        final List<OcrWord> sorted = new ArrayList<>(found);
        sorted.sort(java.util.Comparator.comparingInt(SmallTextLook::centreY));
        int row = -1;
        int rowCentre = Integer.MIN_VALUE;
        for (final OcrWord w : sorted) {
            if (row < 0 || centreY(w) - rowCentre > Math.max(2, w.height() / 2)) {
                row++;
                rowCentre = centreY(w);
            }
            words.add(new OcrWord(w.text(), x0 + w.x(), from + w.y(), w.width(), w.height(),
                LINE_BASE + LINES_PER_ROW * from + row, w.confidence()));
        }
    }

    /** The row bands [from, to) around doubtful small words, merged where they overlap, top down. */
    static List<int[]> bands(final byte[] image, final int width, final List<OcrWord> words, final int height,
        final float minConfidence) {
        final List<int[]> out = new ArrayList<>();
        final List<OcrWord> doubtful = new ArrayList<>();
        for (final OcrWord w : words) {
            if (w.height() <= SMALL_HEIGHT && (w.confidence() < minConfidence || splitFromNeighbour(w, words)
                || crisp(image, width, w))) {
                doubtful.add(w);
            }
        }
        doubtful.sort(java.util.Comparator.comparingInt(OcrWord::y));
        for (final OcrWord w : doubtful) {
            final int from = Math.max(0, w.y() - MARGIN);
            final int to = Math.min(height, w.y() + w.height() + MARGIN);
            final int[] last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null && from <= last[1]) {
                last[1] = Math.max(last[1], to);
            } else if (out.size() < MAX_BANDS && to > from) {
                out.add(new int[] {from, to});
            }
        }
        // a word of the first reading across a band's edge belongs to it: read with it, not cut in two
        for (final int[] band : out) {
            for (final OcrWord w : words) {
                final int c = centreY(w);
                if (c >= band[0] && c < band[1]) {
                    band[0] = Math.max(0, Math.min(band[0], w.y()));
                    band[1] = Math.min(height, Math.max(band[1], w.y() + w.height()));
                }
            }
        }
        final List<int[]> merged = new ArrayList<>(out.size());
        for (final int[] band : out) {
            final int[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && band[0] < last[1]) {
                last[1] = Math.max(last[1], band[1]);
            } else {
                merged.add(band);
            }
        }
        return merged;
    }

    /**
     * The ink rows [{@code from}, {@code to}) of columns [{@code x0}, {@code x0 + w}), each pixel a
     * {@link #SCALE}-square block, at {@code left} of the padded image whose first row is {@code top}'s:
     * a bitmap glyph keeps its crisp strokes (bilinear blurs a one-pixel stroke into grey that reads
     * as another letter); rows outside the run stay white (a neighbour row's ascenders).
     */
    private static void upscale(final byte[] in, final int width, final int x0, final int w, final int from, final int to,
        final int top, final byte[] out, final int outWidth, final int left) {
        for (int y = (from - top) * SCALE; y < (to - top) * SCALE; y++) {
            final int o = (PAD + y) * outWidth + left;
            final int source = (top + y / SCALE) * width + x0;
            for (int x = 0; x < w * SCALE; x++) {
                out[o + x] = in[source + x / SCALE];
            }
        }
    }

    /**
     * Thickens dark strokes by one pixel right and down (each pixel the darkest of its 2×2 block):
     * a bitmap font's one-pixel strokes, scaled, are still thinner than the strokes the model read.
     */
    private static void embolden(final byte[] image, final int w, final int h) {
        for (int y = 0; y < h - 1; y++) {
            for (int x = 0, i = y * w; x < w - 1; x++, i++) {
                final int a = Math.min(image[i] & 0xFF, image[i + 1] & 0xFF);
                final int b = Math.min(image[i + w] & 0xFF, image[i + w + 1] & 0xFF);
                image[i] = (byte) Math.min(a, b);
            }
        }
    }

    private static int centreY(final OcrWord w) {
        return w.y() + w.height() / 2;
    }

    private static long key(final byte[] image, final int width, final int x0, final int w, final int from, final int rows,
        final int top, final int all) {
        long hash = WindowAnalyzer.mix(0x13198A2E03707344L, ((long) w << 32) | rows);
        hash = WindowAnalyzer.mix(hash, ((long) (from - top) << 32) | all);
        for (int y = from; y < from + rows; y++) {
            for (int i = y * width + x0, end = i + w; i < end; i++) {
                hash = WindowAnalyzer.mix(hash, image[i]);
            }
        }
        return hash;
    }
}
