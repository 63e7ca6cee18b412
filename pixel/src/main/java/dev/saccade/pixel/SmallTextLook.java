package dev.saccade.pixel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A second look at small text the window pass doubted: the rows of each doubtful word no taller
 * than {@link #SMALL_HEIGHT} are read again at twice the scale (each pixel a 2×2 block, read as
 * one block of lines) and their words replace the first reading's. Bitmap fonts with one-pixel strokes (xterm's default {@code fixed}, Xt and Tk apps)
 * read at their own size come out below the word confidence floor and vanish; twice as large they
 * read as well as anti-aliased text. Only doubtful rows are read again, so text that read well
 * the first time costs nothing more; what each prepared band read is remembered by a hash of its
 * pixels, so an unchanged terminal line is not read again. One thread uses an instance.
 */
final class SmallTextLook {
    /** Word boxes at most this tall are small text: a 13-pixel terminal cell's glyphs. */
    static final int SMALL_HEIGHT = 14;
    private static final int SCALE = 2;
    /** Rows above and below a doubtful word read with it: ascenders, descenders, a cursor block. */
    private static final int MARGIN = 3;
    private static final int PAD = 8;
    /** Bands read again in one window reading: a terminal's screenful. */
    private static final int MAX_BANDS = 64;
    private static final int REMEMBERED = 512;
    /** Line numbers of words read again: apart from the window pass's, one range per band. */
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

    /** Bands read again by Tesseract (not answered from memory). */
    long looks() {
        return looks;
    }

    /**
     * Replaces the words of doubtful small-text rows in {@code words} by a reading of those rows
     * at twice the scale.
     *
     * @param prepared the image the window pass read (dark on light), {@code width} a row
     * @param minConfidence below it a word is doubtful
     * @return false if the deadline cut a read (the words read so far are kept)
     */
    boolean look(final byte[] prepared, final int width, final int height, final List<OcrWord> words,
        final float minConfidence, final long deadlineNs) {
        final List<int[]> bands = bands(words, height, minConfidence);
        boolean complete = true;
        for (final int[] band : bands) {
            final int remainingMs = (int) ((deadlineNs - System.nanoTime()) / 1_000_000L);
            if (remainingMs <= 0) {
                return false;
            }
            final int from = band[0];
            final int rows = band[1] - from;
            final long key = reuse ? key(prepared, width, from, rows) : 0;
            List<OcrWord> found = reuse ? readings.get(key) : null;
            if (found == null) {
                final int ow = width * SCALE + 2 * PAD;
                final int oh = rows * SCALE + 2 * PAD;
                if (image.length < ow * oh) {
                    image = new byte[ow * oh];
                }
                java.util.Arrays.fill(image, 0, ow * oh, (byte) 0xFF);
                final byte[] crop = new byte[width * rows];
                System.arraycopy(prepared, from * width, crop, 0, crop.length);
                upscale(crop, width, rows, image, ow);
                read.clear();
                looks++;
                final boolean whole = ocr.recognize(image, ow, oh, Tesseract.PSM_SINGLE_BLOCK, remainingMs, read);
                complete &= whole;
                final List<OcrWord> relative = new ArrayList<>(read.size());
                for (final OcrWord w : read) {
                    relative.add(new OcrWord(w.text(), Math.max(0, (w.x() - PAD) / SCALE), Math.max(0, (w.y() - PAD) / SCALE),
                        Math.max(1, w.width() / SCALE), Math.max(1, w.height() / SCALE), w.line(), w.confidence()));
                }
                found = List.copyOf(relative);
                if (reuse && whole) {
                    readings.put(key, found);
                }
            }
            words.removeIf(w -> centreY(w) >= band[0] && centreY(w) < band[1]);
            addByRow(found, from, words);
        }
        return complete;
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
     * Adds a band's words at their place in the window, one line number per text row: sparse-text
     * segmentation splits a terminal's row at its single-cell spaces into lines of their own.
     */
    private static void addByRow(final List<OcrWord> found, final int from, final List<OcrWord> words) {
        final List<OcrWord> sorted = new ArrayList<>(found);
        sorted.sort(java.util.Comparator.comparingInt(SmallTextLook::centreY));
        int row = -1;
        int rowCentre = Integer.MIN_VALUE;
        for (final OcrWord w : sorted) {
            if (row < 0 || centreY(w) - rowCentre > Math.max(2, w.height() / 2)) {
                row++;
                rowCentre = centreY(w);
            }
            words.add(new OcrWord(w.text(), w.x(), from + w.y(), w.width(), w.height(),
                LINE_BASE + LINES_PER_ROW * from + row, w.confidence()));
        }
    }

    /** The row bands [from, to) around doubtful small words, merged where they overlap, top down. */
    static List<int[]> bands(final List<OcrWord> words, final int height, final float minConfidence) {
        final List<int[]> out = new ArrayList<>();
        final List<OcrWord> doubtful = new ArrayList<>();
        for (final OcrWord w : words) {
            if (w.height() <= SMALL_HEIGHT && (w.confidence() < minConfidence || splitFromNeighbour(w, words))) {
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
     * Each pixel into a {@link #SCALE}-square block, padded: a bitmap glyph keeps its crisp
     * strokes (bilinear blurs a one-pixel stroke into grey that reads as another letter).
     */
    private static void upscale(final byte[] in, final int w, final int h, final byte[] out, final int outWidth) {
        for (int y = 0; y < h * SCALE; y++) {
            final int row = (PAD + y) * outWidth + PAD;
            final int source = (y / SCALE) * w;
            for (int x = 0; x < w * SCALE; x++) {
                out[row + x] = in[source + x / SCALE];
            }
        }
    }

    private static int centreY(final OcrWord w) {
        return w.y() + w.height() / 2;
    }

    private static long key(final byte[] image, final int width, final int from, final int rows) {
        long hash = WindowAnalyzer.mix(0x13198A2E03707344L, ((long) width << 32) | rows);
        for (int i = from * width, end = (from + rows) * width; i < end; i++) {
            hash = WindowAnalyzer.mix(hash, image[i]);
        }
        return hash;
    }
}
