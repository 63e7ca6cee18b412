package dev.saccade.pixel;

import dev.saccade.desktop.ScreenCapture;
import dev.saccade.desktop.WindowInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One window read on demand, with no cache and no damage: capture, child windows, segmentation and
 * OCR, as the pixel source does for a damaged window. For benchmarks, diagnostics and tests;
 * one thread uses an instance.
 */
public final class WindowReader implements AutoCloseable {
    private final ScreenCapture x;
    private final OcrEngine ocr;
    private final WindowAnalyzer analyzer;
    private final WindowAnalyzer reusing;

    private WindowReader(final ScreenCapture x, final OcrEngine ocr) {
        this.x = x;
        this.ocr = ocr;
        this.analyzer = new WindowAnalyzer(ocr);
        this.reusing = new WindowAnalyzer(ocr, true);
    }

    /**
     * A reader of the windows {@code x} captures; it closes {@code x}, also when it cannot start.
     *
     * @throws IOException when OCR cannot start
     */
    public static WindowReader open(final ScreenCapture x, final String languages) throws IOException {
        try {
            return new WindowReader(x, OcrEngine.open(null, languages));
        } catch (final IOException | RuntimeException e) {
            x.close();
            throw e;
        }
    }

    /** Reads a window that lies on screen and that nothing covers, whole (nothing reused). */
    public PixelWindow read(final WindowInfo w, final int deadlineMs, final int boxReads) {
        return read(analyzer, w, deadlineMs, boxReads);
    }

    /**
     * Reads a window as the pixel source does: what did not change since this method's last
     * reading of it (boxes with the same pixels, rows of text outside the changed band) is reused.
     */
    public PixelWindow readReusing(final WindowInfo w, final int deadlineMs, final int boxReads) {
        return read(reusing, w, deadlineMs, boxReads);
    }

    /** Tesseract calls of this reader's engine so far (a whole reading of gtk3-demo: 2; of the calculator: ~23). */
    public long recognitions() {
        return ocr.recognitions();
    }

    /** {box reads answered from earlier ones, text passes that read a band only, unchanged text passes} of {@link #readReusing}. */
    public long[] reuseCounts() {
        return reusing.reuseCounts();
    }

    private PixelWindow read(final WindowAnalyzer analyzer, final WindowInfo w, final int deadlineMs,
        final int boxReads) {
        final int[] rgb = new int[w.width() * w.height()];
        if (!x.capture(w.x(), w.y(), w.width(), w.height(), rgb)) {
            throw new IllegalStateException("capture of " + w + " refused");
        }
        final List<int[]> children = new ArrayList<>();
        x.descendants(w.xid(), children);
        for (final int[] c : children) {
            c[0] -= w.x();
            c[1] -= w.y();
        }
        return analyzer.analyze(w.xid(), rgb, w.width(), w.height(), PixelSource.hash(rgb), children, List.of(),
            new WindowAnalyzer.Budget(deadlineMs, boxReads));
    }

    /** A hash of the window's pixels as captured now (to wait for an app to redraw). */
    public long capturedHash(final WindowInfo w) {
        final int[] rgb = new int[w.width() * w.height()];
        if (!x.capture(w.x(), w.y(), w.width(), w.height(), rgb)) {
            throw new IllegalStateException("capture of " + w + " refused");
        }
        return PixelSource.hash(rgb);
    }

    /**
     * The baseline a reader is measured against: the window captured and its whole image read by
     * Tesseract once (sparse text), with no segmentation. Returns the number of words.
     */
    public int wholeWindowOcr(final WindowInfo w) {
        final int n = w.width() * w.height();
        final int[] rgb = new int[n];
        if (!x.capture(w.x(), w.y(), w.width(), w.height(), rgb)) {
            throw new IllegalStateException("capture of " + w + " refused");
        }
        final byte[] grey = new byte[n];
        BoxFinder.grey(rgb, n, grey);
        final List<OcrWord> words = new ArrayList<>();
        ocr.recognize(grey, w.width(), w.height(), Tesseract.PSM_SPARSE_TEXT, 60_000, words);
        return words.size();
    }

    @Override
    public void close() {
        ocr.close();
        x.close();
    }
}
