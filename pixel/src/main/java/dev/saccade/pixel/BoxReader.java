package dev.saccade.pixel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads one label-sized box on its own: its inside, grey, dark inverted, its border and the boxes
 * inside it erased; a symbol by its shape ({@link GlyphShapes}), else upscaled, padded and read
 * by Tesseract as one line. Reusing readers remember what each prepared crop read (by a hash of
 * its pixels), so a box whose pixels did not change is not read again when the window around it
 * did: a pressed button or an edited label elsewhere costs one box read, not every box's. One
 * thread uses an instance.
 */
final class BoxReader {
    /** The border band left out of the crop. */
    static final int INSET = 2;
    /** A box read on its own: single symbols score low even when right. */
    private static final float MIN_BOX_WORD_CONFIDENCE = 20f;
    private static final int BOX_SCALE = 2;
    /** A box read less surely than this is read again at twice the scale; the surer reading wins. */
    private static final float SURE_BOX_CONFIDENCE = 85f;
    private static final int BOX_PAD = 8;
    /** What a symbol read from its shape ({@link GlyphShapes}) is worth, on Tesseract's 0–100 scale. */
    private static final float SHAPE_CONFIDENCE = 80f;
    /** Crops remembered: a few windows' worth of buttons. */
    private static final int REMEMBERED = 1024;

    private final OcrEngine ocr;
    private final boolean reuse;
    private final List<OcrWord> boxWords = new ArrayList<>();
    private final Map<Long, Reading> readings = new RecentMap<>(REMEMBERED);
    private long hits;
    /** The deadline cut the current box's read: it is not remembered. */
    private boolean cut;

    /** What a crop read: its words relative to the crop, whether it showed a border all round, its confidence. */
    private record Reading(List<OcrWord> words, boolean bordered, float confidence) {
    }

    BoxReader(final OcrEngine ocr, final boolean reuse) {
        this.ocr = ocr;
        this.reuse = reuse;
    }

    /** Boxes answered from what an unchanged crop read before. */
    long hits() {
        return hits;
    }

    private static long key(final byte[] crop, final int w, final int h) {
        long hash = WindowAnalyzer.mix(0x243F6A8885A308D3L, ((long) w << 32) | h);
        int i = 0;
        for (; i + 8 <= crop.length; i += 8) {
            long v = 0;
            for (int k = 0; k < 8; k++) {
                v = (v << 8) | (crop[i + k] & 0xFF);
            }
            hash = WindowAnalyzer.mix(hash, v);
        }
        for (; i < crop.length; i++) {
            hash = WindowAnalyzer.mix(hash, crop[i]);
        }
        return hash;
    }

    /**
     * OCR of one box on its own: its inside, grey, dark inverted, its border (ink reaching the
     * crop's edge: rectangles, ovals, focus rings) and the boxes inside it erased, 2× upscaled,
     * padded, read as one line.
     */
    void read(final Candidate c, final List<Candidate> candidates, final byte[] grey, final int width,
        final int deadlineMs) {
        final int bx = c.x + INSET;
        final int by = c.y + INSET;
        final int bw = c.w - 2 * INSET;
        final int bh = c.h - 2 * INSET;
        final int[] histogram = new int[256];
        final byte[] crop = new byte[bw * bh];
        for (int y = 0; y < bh; y++) {
            for (int x = 0; x < bw; x++) {
                final int g = grey[(by + y) * width + bx + x] & 0xFF;
                crop[y * bw + x] = (byte) g;
                histogram[g]++;
            }
        }
        int background = 0;
        for (int g = 1; g < 256; g++) {
            background = histogram[g] > histogram[background] ? g : background;
        }
        final boolean dark = background < WindowAnalyzer.DARK;
        if (dark) {
            background = 255 - background;
            for (int i = 0; i < crop.length; i++) {
                crop[i] = (byte) (255 - (crop[i] & 0xFF));
            }
        }
        for (final Candidate o : candidates) {
            if (o != c && o.w * o.h < c.w * c.h && c.holds(o.x + o.w / 2, o.y + o.h / 2)) {
                WindowAnalyzer.fill(crop, bw, bh, o.x - bx, o.y - by, o.w, o.h, (byte) background);
            }
        }
        final long key = reuse ? key(crop, bw, bh) : 0;
        final Reading known = reuse ? readings.get(key) : null;
        if (known != null) {
            c.bordered |= known.bordered();
            for (final OcrWord w : known.words()) {
                c.words.add(new OcrWord(w.text(), bx + w.x(), by + w.y(), w.width(), w.height(), w.line(), w.confidence()));
            }
            if (!c.words.isEmpty()) {
                c.ocrConfidence = known.confidence();
            }
            hits++;
            return;
        }
        if (eraseBorder(crop, bw, bh, background) >= bw + bh) {
            c.bordered = true; // an outline all round (an Athena oval, a rounded frame): a control's shape
        }
        cut = false;
        readCrop(c, crop, bx, by, bw, bh, background, deadlineMs);
        if (reuse && !cut) {
            final List<OcrWord> relative = new ArrayList<>(c.words.size());
            for (final OcrWord w : c.words) {
                relative.add(new OcrWord(w.text(), w.x() - bx, w.y() - by, w.width(), w.height(), w.line(), w.confidence()));
            }
            readings.put(key, new Reading(List.copyOf(relative), c.bordered, c.ocrConfidence));
        }
    }

    /** The symbol or the words of a prepared crop, into the candidate. */
    private void readCrop(final Candidate c, final byte[] crop, final int bx, final int by, final int bw, final int bh,
        final int background, final int deadlineMs) {
        final OcrWord symbol = GlyphShapes.symbol(crop, bw, bh, background, SHAPE_CONFIDENCE);
        if (symbol != null) {
            // a symbol the English model has no letter for (÷ × ±) or reads as noise (. -): no OCR
            c.words.add(new OcrWord(symbol.text(), bx + symbol.x(), by + symbol.y(), symbol.width(), symbol.height(), 0,
                SHAPE_CONFIDENCE));
            c.ocrConfidence = SHAPE_CONFIDENCE;
            return;
        }
        float best = readScaled(crop, bw, bh, background, bx, by, BOX_SCALE, deadlineMs, c.words);
        if (best < SURE_BOX_CONFIDENCE) {
            // doubtful: a second look at twice the size (digits such as 3 and 5 part there)
            final List<OcrWord> second = new ArrayList<>();
            final float other = readScaled(crop, bw, bh, background, bx, by, 2 * BOX_SCALE, deadlineMs, second);
            if (other > best) {
                c.words.clear();
                c.words.addAll(second);
                best = other;
            }
        }
        if (!c.words.isEmpty()) {
            c.ocrConfidence = best;
            final OcrWord last = c.words.get(c.words.size() - 1);
            final String text = last.text();
            final char end = text.charAt(text.length() - 1);
            if (text.length() >= 2 && (end == '2' || end == '3') && !Character.isDigit(text.charAt(text.length() - 2))
                && GlyphShapes.superscriptLast(crop, bw, bh, background)) {
                // an exponent: the English model has no ² or ³ and reads "x²" as "x2"
                c.words.set(c.words.size() - 1, new OcrWord(text.substring(0, text.length() - 1) + (end == '2' ? "²" : "³"),
                    last.x(), last.y(), last.width(), last.height(), last.line(), last.confidence()));
            }
        }
    }

    /** One read of a prepared crop at a scale; the words go to {@code out}; returns their mean confidence (0 if none). */
    private float readScaled(final byte[] crop, final int bw, final int bh, final int background, final int bx,
        final int by, final int scale, final int deadlineMs, final List<OcrWord> out) {
        final int ow = bw * scale + 2 * BOX_PAD;
        final int oh = bh * scale + 2 * BOX_PAD;
        final byte[] image = new byte[ow * oh];
        java.util.Arrays.fill(image, (byte) background);
        upscale(crop, bw, bh, image, ow, BOX_PAD, scale);
        boxWords.clear();
        cut |= !ocr.recognize(image, ow, oh, Tesseract.PSM_SINGLE_LINE, deadlineMs, boxWords);
        float sum = 0;
        for (final OcrWord word : boxWords) {
            final String text = WindowAnalyzer.clean(word.text());
            if (word.confidence() >= MIN_BOX_WORD_CONFIDENCE && !text.isEmpty()) {
                out.add(new OcrWord(text, bx + (word.x() - BOX_PAD) / scale, by + (word.y() - BOX_PAD) / scale,
                    word.width() / scale, word.height() / scale, 0, word.confidence()));
                sum += word.confidence();
            }
        }
        return out.isEmpty() ? 0 : sum / out.size();
    }

    /** Bilinear upscaling into {@code out} at ({@code pad}, {@code pad}): smooth edges read better than blocks. */
    static void upscale(final byte[] in, final int w, final int h, final byte[] out, final int outWidth, final int pad,
        final int scale) {
        for (int y = 0; y < h * scale; y++) {
            final double sy = Math.max(0, (y + 0.5) / scale - 0.5);
            final int y0 = Math.min(h - 1, (int) sy);
            final int y1 = Math.min(h - 1, y0 + 1);
            final double fy = sy - y0;
            final int dst = (pad + y) * outWidth + pad;
            for (int x = 0; x < w * scale; x++) {
                final double sx = Math.max(0, (x + 0.5) / scale - 0.5);
                final int x0 = Math.min(w - 1, (int) sx);
                final int x1 = Math.min(w - 1, x0 + 1);
                final double fx = sx - x0;
                final double top = (in[y0 * w + x0] & 0xFF) * (1 - fx) + (in[y0 * w + x1] & 0xFF) * fx;
                final double bottom = (in[y1 * w + x0] & 0xFF) * (1 - fx) + (in[y1 * w + x1] & 0xFF) * fx;
                out[dst + x] = (byte) (int) Math.round(top * (1 - fy) + bottom * fy);
            }
        }
    }

    /** Sets to the background every ink pixel connected to the crop's edge; returns how many. */
    private static int eraseBorder(final byte[] crop, final int w, final int h, final int background) {
        final int limit = background - 50;
        final int[] stack = new int[w * h];
        int top = 0;
        int erased = 0;
        for (int x = 0; x < w; x++) {
            top = push(crop, stack, top, x, limit, background);
            top = push(crop, stack, top, (h - 1) * w + x, limit, background);
        }
        for (int y = 0; y < h; y++) {
            top = push(crop, stack, top, y * w, limit, background);
            top = push(crop, stack, top, y * w + w - 1, limit, background);
        }
        while (top > 0) {
            final int i = stack[--top];
            erased++;
            final int x = i % w;
            final int y = i / w;
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    final int nx = x + dx;
                    final int ny = y + dy;
                    if (nx >= 0 && nx < w && ny >= 0 && ny < h) {
                        top = push(crop, stack, top, ny * w + nx, limit, background);
                    }
                }
            }
        }
        return erased;
    }

    private static int push(final byte[] crop, final int[] stack, final int top, final int i, final int limit,
        final int background) {
        if ((crop[i] & 0xFF) < limit) {
            crop[i] = (byte) background;
            stack[top] = i;
            return top + 1;
        }
        return top;
    }
}
