package dev.saccade.pixel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The window-wide text pass: one sparse-text Tesseract read of the image {@link WindowAnalyzer}
 * prepared (boxes read on their own blanked, dark regions inverted). Nearly all of a text-heavy
 * window's reading time is this pass (gtk3-demo: ~152 of ~158 ms CPU, of which 17.5 ms layout and
 * the rest one LSTM forward per text line, 40; bench/README.md "Pixel source" has the ways of
 * calling Tesseract measured against it), and Tesseract's cost follows the lines it reads, so a
 * reusing pass keeps the last image and words of each window and, when the window changed in
 * part, reads again only the full-width band of rows that changed (grown until no earlier word
 * crosses its edges) and keeps the earlier words outside it. A selection moved in a list costs
 * the two rows it left and entered. A band over half the window, a window of another size or a
 * first reading is read whole; a pass the deadline cut is not remembered. One thread uses an
 * instance.
 */
final class TextPass {
    /** Windows remembered (each: its prepared image and its words). */
    private static final int REMEMBERED = 8;
    /** Rows above and below the changed ones that are read with them: a line's ascenders and descenders. */
    private static final int MARGIN = 12;

    private final OcrEngine ocr;
    private final boolean reuse;
    private final Map<Long, Previous> previous = new RecentMap<>(REMEMBERED);
    private byte[] band = new byte[0];
    private long bandReads;
    private long unchanged;

    /** A window's last prepared image and the words read in it. */
    private record Previous(byte[] image, int width, int height, List<OcrWord> words) {
    }

    TextPass(final OcrEngine ocr, final boolean reuse) {
        this.ocr = ocr;
        this.reuse = reuse;
    }

    /** Passes that read only a band of a window. */
    long bandReads() {
        return bandReads;
    }

    /** Passes answered whole from the last one (the prepared image unchanged). */
    long unchanged() {
        return unchanged;
    }

    /**
     * Reads the words of a prepared window image into {@code out}.
     *
     * @return false if the deadline cut the read
     */
    boolean read(final long xid, final byte[] image, final int width, final int height, final int deadlineMs,
        final List<OcrWord> out) {
        final Previous before = reuse ? previous.remove(xid) : null;
        final int start = out.size();
        boolean complete;
        final int[] rows = before != null && before.width() == width && before.height() == height
            ? changedRows(before.image(), image, width, height) : null;
        if (before != null && rows == null && before.width() == width && before.height() == height) {
            out.addAll(before.words());
            unchanged++;
            complete = true;
        } else if (rows != null && 2 * (rows[1] - rows[0]) < height) {
            complete = readBand(before, image, width, height, rows, deadlineMs, out);
        } else {
            complete = ocr.recognize(image, width, height, Tesseract.PSM_SPARSE_TEXT, deadlineMs, out);
        }
        if (reuse && complete) {
            final byte[] copy = before != null && before.image().length == width * height ? before.image()
                : new byte[width * height];
            System.arraycopy(image, 0, copy, 0, width * height);
            previous.put(xid, new Previous(copy, width, height, List.copyOf(out.subList(start, out.size()))));
        }
        return complete;
    }

    /** Rows [from, to) that differ, or null when none does. */
    static int[] changedRows(final byte[] a, final byte[] b, final int width, final int height) {
        int first = -1;
        int last = -1;
        for (int y = 0; y < height; y++) {
            if (!java.util.Arrays.equals(a, y * width, (y + 1) * width, b, y * width, (y + 1) * width)) {
                if (first < 0) {
                    first = y;
                }
                last = y;
            }
        }
        return first < 0 ? null : new int[] {first, last + 1};
    }

    private boolean readBand(final Previous before, final byte[] image, final int width, final int height,
        final int[] rows, final int deadlineMs, final List<OcrWord> out) {
        int from = Math.max(0, rows[0] - MARGIN);
        int to = Math.min(height, rows[1] + MARGIN);
        boolean grown = true;
        while (grown) {
            // an earlier word across the band's edge is read again whole, with its line
            grown = false;
            for (final OcrWord w : before.words()) {
                if (w.y() < to && w.y() + w.height() > from && (w.y() < from || w.y() + w.height() > to)) {
                    from = Math.max(0, Math.min(from, w.y() - MARGIN / 2));
                    to = Math.min(height, Math.max(to, w.y() + w.height() + MARGIN / 2));
                    grown = true;
                }
            }
        }
        if (2 * (to - from) >= height) {
            return ocr.recognize(image, width, height, Tesseract.PSM_SPARSE_TEXT, deadlineMs, out);
        }
        bandReads++;
        final int n = width * (to - from);
        if (band.length < n) {
            band = new byte[n];
        }
        System.arraycopy(image, from * width, band, 0, n);
        final List<OcrWord> read = new ArrayList<>();
        final boolean complete = ocr.recognize(band, width, to - from, Tesseract.PSM_SPARSE_TEXT, deadlineMs, read);
        int lines = 0;
        for (final OcrWord w : before.words()) {
            if (w.y() + w.height() <= from || w.y() >= to) {
                out.add(w);
                lines = Math.max(lines, w.line() + 1);
            }
        }
        for (final OcrWord w : read) {
            // the band's lines numbered after every kept one: a line number names one line
            out.add(new OcrWord(w.text(), w.x(), w.y() + from, w.width(), w.height(), lines + w.line(), w.confidence()));
        }
        return complete;
    }
}
