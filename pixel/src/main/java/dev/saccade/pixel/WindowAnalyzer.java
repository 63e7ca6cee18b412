package dev.saccade.pixel;

import dev.saccade.desktop.TargetIds;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetFlag;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Turns one window's pixels into {@link PixelElement}s: candidate boxes (the edge/contour
 * {@link BoxFinder}'s and the window's X child windows), each label-sized box read on its own
 * ({@link BoxReader}: a symbol by its shape, else upscaled, padded, one line), then one text
 * pass over the rest of the window ({@link TextPass}; those boxes blanked, dark boxes inverted
 * and light-text bands made dark on white first: Tesseract reads dark text on light), a role
 * from each box's shape, and the words outside any box grouped into text lines. Secure rectangles are blanked before OCR and nothing is
 * reported over them. Bounded by a deadline and a budget of per-box reads; a cut reading is
 * marked incomplete. A reusing analyzer (the pixel source's) reads again only the boxes and the
 * rows of text whose pixels changed since its last reading of the window. One thread uses an
 * instance.
 */
final class WindowAnalyzer {
    /** Words Tesseract is less sure of than this are dropped (noise from icons and borders). */
    private static final float MIN_WORD_CONFIDENCE = 40f;
    static final int DARK = 110;
    private static final int MAX_LABEL_HEIGHT = 64;
    private static final int MAX_LABEL_WIDTH = 480;

    private final BoxFinder finder = new BoxFinder();
    private final LightTextBands bands = new LightTextBands();
    private final BoxReader boxes;
    private final TextPass text;
    private final SmallTextLook small;
    private byte[] grey = new byte[0];
    private byte[] ocrImage = new byte[0];
    private final List<OcrWord> words = new ArrayList<>();
    private boolean outOfTime;

    /** An analyzer that reads every window whole: no reuse of earlier readings (benchmarks, tests). */
    WindowAnalyzer(final OcrEngine ocr) {
        this(ocr, false);
    }

    /**
     * @param reuse keep what was read in each box and each window's text, and read again only the
     *     boxes and the rows whose pixels changed ({@link BoxReader}, {@link TextPass})
     */
    WindowAnalyzer(final OcrEngine ocr, final boolean reuse) {
        this.boxes = new BoxReader(ocr, reuse);
        this.text = new TextPass(ocr, reuse);
        this.small = new SmallTextLook(ocr, reuse);
    }

    /** Boxes and text passes answered from earlier readings: {box hits, band reads, unchanged passes}. */
    long[] reuseCounts() {
        return new long[] {boxes.hits(), text.bandReads(), text.unchanged()};
    }

    /** The image the last text pass read (boxes blanked, polarity made dark on light), {@code width × height} of it: diagnostics. */
    byte[] preparedImage() {
        return ocrImage;
    }

    /** Whether the last analysis ran out of time (not out of box reads): a reading again with more time would finish it. */
    boolean outOfTime() {
        return outOfTime;
    }

    /** Bounds of the analysis: time for the whole window and per-box OCR reads. */
    record Budget(int deadlineMs, int maxBoxReads) {
    }

    /**
     * @param rgb the window's pixels, 0xRRGGBB, {@code width} a row
     * @param children the window's viewable X descendants, window-relative {x, y, w, h}
     * @param secure rectangles (window-relative) never read nor reported
     */
    PixelWindow analyze(final long xid, final int[] rgb, final int width, final int height, final long pixelHash,
        final List<int[]> children, final List<int[]> secure, final Budget budget) {
        final long startNs = System.nanoTime();
        final long deadlineNs = startNs + budget.deadlineMs() * 1_000_000L;
        final int n = width * height;
        if (grey.length < n) {
            grey = new byte[n];
            ocrImage = new byte[n];
        }
        BoxFinder.grey(rgb, n, grey);
        for (final int[] s : secure) {
            fill(grey, width, height, s[0], s[1], s[2], s[3], (byte) 0xFF);
        }
        final List<Candidate> candidates = candidates(width, height, children, secure);

        // Label-sized boxes are read one by one (upscaled, one line: far better on short labels
        // and symbols); the window pass reads the rest with those boxes blanked.
        markContainers(candidates);
        int boxReads = 0;
        boolean incomplete = false;
        boolean late = false;
        for (final Candidate c : candidates) {
            if (c.container || !labelSized(c)) {
                continue;
            }
            if (boxReads >= budget.maxBoxReads() || System.nanoTime() - deadlineNs > 0) {
                incomplete = true;
                late = boxReads < budget.maxBoxReads();
                break;
            }
            boxReads++;
            c.read = true;
            boxes.read(c, candidates, grey, width, (int) Math.max(1, (deadlineNs - System.nanoTime()) / 1_000_000L));
        }
        System.arraycopy(grey, 0, ocrImage, 0, n);
        final boolean darkWindow = mean(grey, width, 0, 0, width, height) < DARK;
        if (darkWindow) {
            invert(ocrImage, width, 0, 0, width, height);
        }
        final List<Candidate> changed = new ArrayList<>();
        for (final Candidate c : candidates) {
            if (c.read) {
                fill(ocrImage, width, height, c.x, c.y, c.w, c.h, (byte) 0xFF);
                changed.add(c);
            } else if (!c.container && (mean(grey, width, c.x, c.y, c.w, c.h) < DARK) != darkWindow) {
                invert(ocrImage, width, c.x, c.y, c.w, c.h);
                changed.add(c);
            }
        }
        if (!darkWindow) {
            // light text on a filled band (a selected row): dark on light for Tesseract
            for (final int[] b : bands.find(grey, width, height)) {
                boolean clear = true;
                for (final Candidate c : changed) {
                    clear &= !Geometry.intersects(b[0], b[1], b[2], b[3], c.x, c.y, c.w, c.h);
                }
                if (clear) {
                    whiten(ocrImage, width, b);
                }
            }
        }
        words.clear();
        final int remainingMs = (int) Math.max(1, (deadlineNs - System.nanoTime()) / 1_000_000L);
        late |= !text.read(xid, ocrImage, width, height, remainingMs, words);
        late |= !small.look(ocrImage, width, height, words, MIN_WORD_CONFIDENCE, deadlineNs);
        incomplete |= late;
        outOfTime = late;

        final List<OcrWord> free = new ArrayList<>();
        for (final OcrWord word : words) {
            if (word.confidence() < MIN_WORD_CONFIDENCE || overlapsAny(word, secure) || clean(word.text()).isEmpty()) {
                continue;
            }
            final Candidate owner = smallestHolding(candidates, word.x() + word.width() / 2, word.y() + word.height() / 2);
            if (owner == null || owner.read) {
                free.add(word);
            } else {
                owner.words.add(word);
            }
        }
        for (final Candidate c : candidates) {
            if (c.container || lines(c) >= 3) {
                c.container = true;
                free.addAll(c.words); // a frame's text is the text lines inside it
                c.words.clear();
            }
        }

        final List<PixelElement> elements = new ArrayList<>();
        for (final Candidate c : candidates) {
            if (!c.container) {
                element(xid, c, width, elements);
            }
        }
        textLines(xid, free, elements);
        elements.sort(Comparator.comparingInt(PixelElement::y).thenComparingInt(PixelElement::x));
        return new PixelWindow(xid, width, height, pixelHash, List.copyOf(unique(elements)), incomplete,
            System.nanoTime() - startNs);
    }

    private List<Candidate> candidates(final int width, final int height, final List<int[]> children,
        final List<int[]> secure) {
        final List<BoxFinder.Box> found = finder.find(grey, width, height);
        final List<Candidate> out = new ArrayList<>();
        final long windowArea = (long) width * height;
        for (final int[] r : children) {
            final int x = Math.max(0, r[0]);
            final int y = Math.max(0, r[1]);
            final int w = Math.min(width, r[0] + r[2]) - x;
            final int h = Math.min(height, r[1] + r[3]) - y;
            if (w < 8 || h < 8 || (long) w * h >= windowArea * 8 / 10) {
                continue; // a toolkit's wrapper around the whole client area says nothing
            }
            boolean bordered = false;
            for (final BoxFinder.Box b : found) {
                bordered |= Geometry.iou(x, y, w, h, b.x(), b.y(), b.width(), b.height()) > 0.6;
            }
            out.add(new Candidate(x, y, w, h, true, bordered, 1.0));
        }
        for (final BoxFinder.Box b : found) {
            boolean known = false;
            for (final Candidate c : out) {
                known |= c.exact && Geometry.iou(c.x, c.y, c.w, c.h, b.x(), b.y(), b.width(), b.height()) > 0.6;
            }
            if (!known) {
                out.add(new Candidate(b.x(), b.y(), b.width(), b.height(), false, true, b.cover()));
            }
        }
        out.removeIf(c -> {
            for (final int[] s : secure) {
                if (Geometry.intersects(c.x, c.y, c.w, c.h, s[0], s[1], s[2], s[3])) {
                    return true;
                }
            }
            return false;
        });
        return out;
    }

    /** A box holding two others (or a tall one holding one) is a frame or a panel, not a control; so is one with text on three lines. */
    private static void markContainers(final List<Candidate> candidates) {
        for (final Candidate c : candidates) {
            int inside = 0;
            for (final Candidate o : candidates) {
                if (o != c && o.w * o.h < c.w * c.h && c.holds(o.x + o.w / 2, o.y + o.h / 2)) {
                    inside++;
                }
            }
            c.container = inside >= 2 || (inside >= 1 && c.h > MAX_LABEL_HEIGHT);
        }
    }

    private static int lines(final Candidate c) {
        int lines = 0;
        int lastLine = -1;
        for (final OcrWord word : c.words) {
            if (word.line() != lastLine) {
                lines++;
                lastLine = word.line();
            }
        }
        return lines;
    }

    private static boolean labelSized(final Candidate c) {
        return c.h <= MAX_LABEL_HEIGHT && c.w <= MAX_LABEL_WIDTH && c.w >= 2 * BoxReader.INSET + 6 && c.h >= 2 * BoxReader.INSET + 6;
    }

    private static Candidate smallestHolding(final List<Candidate> candidates, final int px, final int py) {
        Candidate best = null;
        for (final Candidate c : candidates) {
            if (c.holds(px, py) && (best == null || c.w * c.h < best.w * best.h)) {
                best = c;
            }
        }
        return best;
    }

    /** Border lines read as bars and brackets at a word's ends. */
    static String clean(final String word) {
        int from = 0;
        int to = word.length();
        while (from < to && "|[](){}".indexOf(word.charAt(from)) >= 0) {
            from++;
        }
        while (to > from && "|[](){}".indexOf(word.charAt(to - 1)) >= 0) {
            to--;
        }
        return word.substring(from, to);
    }

    private void element(final long xid, final Candidate c, final int width, final List<PixelElement> out) {
        final String text = join(c.words);
        final int role;
        if (!text.isEmpty()) {
            int minX = Integer.MAX_VALUE;
            int maxX = Integer.MIN_VALUE;
            float confidence = 0;
            for (final OcrWord word : c.words) {
                minX = Math.min(minX, word.x());
                maxX = Math.max(maxX, word.x() + word.width());
                confidence += word.confidence();
            }
            c.ocrConfidence = Math.min(c.ocrConfidence, confidence / c.words.size());
            final int textCentre = (minX + maxX) / 2;
            final boolean centred = Math.abs(textCentre - (c.x + c.w / 2)) <= Math.max(6, c.w / 5);
            final boolean light = mean(grey, width, c.x + 2, c.y + 2, c.w - 4, c.h - 4) > 200;
            if (!c.bordered) {
                role = Role.TEXT;
            } else if (!centred && c.w >= 3 * c.h && light && minX - c.x < c.w / 4) {
                role = Role.TEXT_FIELD;
            } else {
                role = Role.BUTTON;
            }
        } else if (c.w >= 4 * c.h && c.h >= 16 && c.h <= 48 && mean(grey, width, c.x + 2, c.y + 2, c.w - 4, c.h - 4) > 200
            && deviation(grey, width, c.x + 3, c.y + 3, c.w - 6, c.h - 6) < 12) {
            role = Role.TEXT_FIELD;
        } else if (c.w >= 10 && c.w <= 26 && c.h >= 10 && c.h <= 26 && Math.abs(c.w - c.h) <= 3) {
            role = Role.CHECKBOX;
        } else if (c.w * c.h >= 256 && deviation(grey, width, c.x + 2, c.y + 2, c.w - 4, c.h - 4) > 30) {
            role = Role.IMAGE;
        } else {
            return; // an empty panel or a separator: nothing to act on
        }
        final double confidence = c.cover * (text.isEmpty() ? 0.5 : c.ocrConfidence / 100.0);
        out.add(new PixelElement(id(xid, c.x, c.y, c.w, c.h, text), c.x, c.y, c.w, c.h, role, text,
            q16(confidence), c.exact ? 0 : TargetFlag.APPROXIMATE));
    }

    /** Words outside boxes as lines: Tesseract's line, split where the gap is wider than the text is high. */
    private static void textLines(final long xid, final List<OcrWord> free, final List<PixelElement> out) {
        free.sort(Comparator.comparingInt(OcrWord::line).thenComparingInt(OcrWord::x));
        final List<OcrWord> line = new ArrayList<>();
        for (final OcrWord word : free) {
            if (!line.isEmpty()) {
                final OcrWord last = line.get(line.size() - 1);
                final int gap = word.x() - (last.x() + last.width());
                final int heightLimit = Math.max(last.height(), word.height());
                if (word.line() != last.line() || gap > heightLimit * 12 / 10 || gap < -heightLimit) {
                    emitLine(xid, line, out);
                    line.clear();
                }
            }
            line.add(word);
        }
        emitLine(xid, line, out);
    }

    private static void emitLine(final long xid, final List<OcrWord> line, final List<PixelElement> out) {
        if (line.isEmpty()) {
            return;
        }
        int x0 = Integer.MAX_VALUE;
        int x1 = Integer.MIN_VALUE;
        final int[] tops = new int[line.size()];
        final int[] bottoms = new int[line.size()];
        float confidence = 0;
        for (int i = 0; i < line.size(); i++) {
            final OcrWord word = line.get(i);
            x0 = Math.min(x0, word.x());
            x1 = Math.max(x1, word.x() + word.width());
            tops[i] = word.y();
            bottoms[i] = word.y() + word.height();
            confidence += word.confidence();
        }
        // the line's band is its words' median top and bottom: one word boxed with noise above
        // or below does not stretch it
        java.util.Arrays.sort(tops);
        java.util.Arrays.sort(bottoms);
        final int y0 = tops[tops.length / 2];
        final int y1 = Math.max(y0 + 1, bottoms[(bottoms.length - 1) / 2]);
        final String text = join(line);
        // a line's box is its ink padded by a third of its height: what a pointer aims at, and
        // about the extent toolkits give a label
        final int pad = Math.max(2, (y1 - y0) / 3);
        final int x = Math.max(0, x0 - pad);
        final int y = Math.max(0, y0 - pad);
        final int w = x1 + pad - x;
        final int h = y1 + pad - y;
        out.add(new PixelElement(id(xid, x, y, w, h, text), x, y, w, h, Role.TEXT, text,
            q16(confidence / line.size() / 100.0), TargetFlag.APPROXIMATE));
    }

    private static String join(final List<OcrWord> words) {
        final StringBuilder text = new StringBuilder();
        for (final OcrWord word : words) {
            if (text.length() > 0) {
                text.append(' ');
            }
            text.append(word.text());
        }
        return text.toString();
    }

    /** Ids stay while the box stays: its window, its geometry in 4 px steps, its text. */
    static long id(final long xid, final int x, final int y, final int w, final int h, final String text) {
        long hash = 0x9E3779B97F4A7C15L ^ xid;
        hash = mix(hash, ((long) ((x + 2) >> 2) << 32) | ((y + 2) >> 2));
        hash = mix(hash, ((long) ((w + 2) >> 2) << 32) | ((h + 2) >> 2));
        hash = mix(hash, text.hashCode());
        return TargetIds.pixel(hash);
    }

    private static List<PixelElement> unique(final List<PixelElement> elements) {
        final List<PixelElement> out = new ArrayList<>(elements.size());
        final java.util.Set<Long> seen = new java.util.HashSet<>();
        for (final PixelElement e : elements) {
            long id = e.targetId();
            while (!seen.add(id)) {
                id = TargetIds.pixel(mix(id, 1)); // same box twice (rare): still one id each
            }
            out.add(id == e.targetId() ? e : new PixelElement(id, e.x(), e.y(), e.width(), e.height(), e.role(), e.text(),
                e.confidenceQ16(), e.flags()));
        }
        return out;
    }

    static long mix(final long hash, final long value) {
        long h = (hash ^ value) * 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 29);
    }

    private static int q16(final double confidence) {
        return (int) Math.round(Math.max(0, Math.min(1, confidence)) * 0xFFFF);
    }

    private static boolean overlapsAny(final OcrWord word, final List<int[]> rects) {
        for (final int[] r : rects) {
            if (Geometry.intersects(word.x(), word.y(), word.width(), word.height(), r[0], r[1], r[2], r[3])) {
                return true;
            }
        }
        return false;
    }

    private static double mean(final byte[] g, final int width, final int x, final int y, final int w, final int h) {
        if (w <= 0 || h <= 0) {
            return 255;
        }
        long sum = 0;
        for (int r = y; r < y + h; r++) {
            for (int c = x; c < x + w; c++) {
                sum += g[r * width + c] & 0xFF;
            }
        }
        return (double) sum / ((long) w * h);
    }

    private static double deviation(final byte[] g, final int width, final int x, final int y, final int w, final int h) {
        if (w <= 0 || h <= 0) {
            return 0;
        }
        final double m = mean(g, width, x, y, w, h);
        double sum = 0;
        for (int r = y; r < y + h; r++) {
            for (int c = x; c < x + w; c++) {
                final double d = (g[r * width + c] & 0xFF) - m;
                sum += d * d;
            }
        }
        return Math.sqrt(sum / ((long) w * h));
    }

    /**
     * A light-text band {x, y, w, h, background} made dark text on white: its background (and
     * anything darker) becomes white like the window round it, its lightest text black; a plain
     * inversion would leave a grey bar whose edges Tesseract reads as part of the text.
     */
    private static void whiten(final byte[] g, final int width, final int[] band) {
        final int background = band[4];
        final int span = Math.max(1, 255 - background);
        for (int r = band[1]; r < band[1] + band[3]; r++) {
            for (int c = band[0]; c < band[0] + band[2]; c++) {
                final int v = g[r * width + c] & 0xFF;
                g[r * width + c] = (byte) (v <= background ? 255 : 255 - (v - background) * 255 / span);
            }
        }
    }

    private static void invert(final byte[] g, final int width, final int x, final int y, final int w, final int h) {
        for (int r = y; r < y + h; r++) {
            for (int c = x; c < x + w; c++) {
                g[r * width + c] = (byte) (255 - (g[r * width + c] & 0xFF));
            }
        }
    }

    static void fill(final byte[] g, final int width, final int height, final int x, final int y, final int w, final int h,
        final byte value) {
        final int x0 = Math.max(0, x);
        final int y0 = Math.max(0, y);
        final int x1 = Math.min(width, x + w);
        final int y1 = Math.min(height, y + h);
        for (int r = y0; r < y1; r++) {
            java.util.Arrays.fill(g, r * width + x0, Math.max(r * width + x0, r * width + x1), value);
        }
    }
}
