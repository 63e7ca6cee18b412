package dev.saccade.pixel;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * By hand: where a text pass's time goes, and what other ways of calling Tesseract cost, on the
 * image a reading's text pass read ({@code PixelProbe window.ppm 1 prepared.pgm} saves it).
 * {@code TesseractProbe prepared.pgm repeat step...}, each step printed with its median thread
 * CPU over {@code repeat} runs and the words it read:
 * <ul>
 * <li>{@code psm=N}: the whole image in page segmentation mode N (11: what the text pass does);</li>
 * <li>{@code layout=N}: layout analysis alone, and the text lines it finds;</li>
 * <li>{@code set:name=value}: a Tesseract variable for the following steps;</li>
 * <li>{@code scale=F}: the image scaled by F (area average), then mode 11;</li>
 * <li>{@code lines=PAD}: mode 11's lines read one call each (mode 13, a raw line, PAD px of white round it);
 * {@code lines7=PAD} the same in mode 7 (one line, which Tesseract still finds in the image);</li>
 * <li>{@code rows=GAP}: those lines side by side, GAP px apart, in raw lines (mode 13) of lines of about one height;</li>
 * <li>{@code strip=GAP}: those lines stacked GAP px apart in one image, read in one call (mode 6).</li>
 * </ul>
 * Measured figures: bench/README.md, "Pixel source".
 */
public final class TesseractProbe {
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private TesseractProbe() {
    }

    static native Pointer TessBaseAPIAnalyseLayout(Pointer api);

    static native int TessPageIteratorNext(Pointer iterator, int level);

    static native void TessPageIteratorDelete(Pointer iterator);

    public static void main(final String[] args) throws Exception {
        final byte[] file = Files.readAllBytes(Path.of(args[0]));
        final String[] header = new String(file, 0, Math.min(file.length, 40), StandardCharsets.US_ASCII).split("\\s+");
        final int width = Integer.parseInt(header[1]);
        final int height = Integer.parseInt(header[2]);
        final int offset = file.length - width * height;
        final byte[] image = Arrays.copyOfRange(file, offset, file.length);
        final int repeat = Integer.parseInt(args[1]);
        try (OcrEngine ocr = OcrEngine.open(null, "eng")) {
            Native.register(TesseractProbe.class, NativeLibrary.getInstance(Tesseract.LIBRARY));
            for (int i = 2; i < args.length; i++) {
                final String step = args[i];
                final String value = step.substring(step.indexOf(step.startsWith("set:") ? ':' : '=') + 1);
                if (step.startsWith("set:")) {
                    final String[] nameValue = value.split("=", 2);
                    System.out.println(step + " accepted=" + (Tesseract.TessBaseAPISetVariable(ocr.handle(), nameValue[0],
                        nameValue[1]) != 0));
                    continue;
                }
                final long[] cpu = new long[repeat];
                final List<OcrWord> words = new ArrayList<>();
                String detail = "";
                for (int r = 0; r < repeat; r++) {
                    words.clear();
                    final long c0 = CPU.getCurrentThreadCpuTime();
                    if (step.startsWith("psm=")) {
                        ocr.recognize(image, width, height, Integer.parseInt(value), 60_000, words);
                    } else if (step.startsWith("layout=")) {
                        detail = lines(ocr, image, width, height, Integer.parseInt(value)).size() + " lines";
                    } else if (step.startsWith("scale=")) {
                        final double f = Double.parseDouble(value);
                        final int sw = (int) (width * f);
                        final int sh = (int) (height * f);
                        ocr.recognize(scaled(image, width, height, sw, sh), sw, sh, Tesseract.PSM_SPARSE_TEXT, 60_000, words);
                    } else if (step.startsWith("lines=") || step.startsWith("lines7=")) {
                        final int pad = Integer.parseInt(value);
                        for (final int[] b : lines(ocr, image, width, height, Tesseract.PSM_SPARSE_TEXT)) {
                            final int cw = b[2] + 2 * pad;
                            final int ch = b[3] + 2 * pad;
                            final byte[] crop = new byte[cw * ch];
                            Arrays.fill(crop, (byte) 0xFF);
                            copy(image, width, b, crop, cw, pad, pad);
                            ocr.recognize(crop, cw, ch, step.startsWith("lines7=") ? Tesseract.PSM_SINGLE_LINE : 13, 60_000,
                                words);
                        }
                    } else if (step.startsWith("rows=")) {
                        // mode 11's lines side by side in raw lines (mode 13), GAP px apart, lines of about one height together
                        final int gap = Integer.parseInt(value);
                        final List<int[]> lines = lines(ocr, image, width, height, Tesseract.PSM_SPARSE_TEXT);
                        lines.sort((a, b) -> Integer.compare(a[3], b[3]));
                        int from = 0;
                        while (from < lines.size()) {
                            int to = from;
                            int rowWidth = gap;
                            while (to < lines.size() && lines.get(to)[3] <= lines.get(from)[3] + 4) {
                                rowWidth += lines.get(to)[2] + gap;
                                to++;
                            }
                            final int rowHeight = lines.get(to - 1)[3] + 8;
                            final byte[] row = new byte[rowWidth * rowHeight];
                            Arrays.fill(row, (byte) 0xFF);
                            int x = gap;
                            for (int k = from; k < to; k++) {
                                final int[] b = lines.get(k);
                                copy(image, width, b, row, rowWidth, x, (rowHeight - b[3]) / 2);
                                x += b[2] + gap;
                            }
                            ocr.recognize(row, rowWidth, rowHeight, 13, 60_000, words);
                            from = to;
                        }
                    } else if (step.startsWith("strip=")) {
                        final int gap = Integer.parseInt(value);
                        final List<int[]> lines = lines(ocr, image, width, height, Tesseract.PSM_SPARSE_TEXT);
                        int cw = 0;
                        int ch = gap;
                        for (final int[] b : lines) {
                            cw = Math.max(cw, b[2] + 2 * gap);
                            ch += b[3] + gap;
                        }
                        final byte[] strip = new byte[cw * ch];
                        Arrays.fill(strip, (byte) 0xFF);
                        int top = gap;
                        for (final int[] b : lines) {
                            copy(image, width, b, strip, cw, gap, top);
                            top += b[3] + gap;
                        }
                        ocr.recognize(strip, cw, ch, 6, 60_000, words);
                    } else {
                        throw new IllegalArgumentException("unknown step " + step);
                    }
                    cpu[r] = CPU.getCurrentThreadCpuTime() - c0;
                }
                Arrays.sort(cpu);
                final StringBuilder text = new StringBuilder();
                for (final OcrWord w : words) {
                    text.append(w.text()).append(w.confidence() < 40 ? "? " : " ");
                }
                System.out.printf(Locale.ROOT, "%s: CPU median %.1f ms, min %.1f ms, %d words %s%n  %s%n", step,
                    cpu[repeat / 2] / 1e6, cpu[0] / 1e6, words.size(), detail, text);
            }
        }
    }

    /** The text lines {x, y, w, h} Tesseract's layout analysis finds in a page segmentation mode. */
    private static List<int[]> lines(final OcrEngine ocr, final byte[] image, final int width, final int height,
        final int mode) {
        final Pointer api = ocr.handle();
        Tesseract.TessBaseAPISetPageSegMode(api, mode);
        Tesseract.TessBaseAPISetImage(api, image, width, height, 1, width);
        Tesseract.TessBaseAPISetSourceResolution(api, 96);
        final List<int[]> lines = new ArrayList<>();
        final Pointer iterator = TessBaseAPIAnalyseLayout(api);
        if (iterator != null) {
            final IntByReference l = new IntByReference();
            final IntByReference t = new IntByReference();
            final IntByReference r = new IntByReference();
            final IntByReference b = new IntByReference();
            do {
                if (Tesseract.TessPageIteratorBoundingBox(iterator, Tesseract.RIL_TEXTLINE, l, t, r, b) != 0) {
                    lines.add(new int[] {l.getValue(), t.getValue(), r.getValue() - l.getValue(), b.getValue() - t.getValue()});
                }
            } while (TessPageIteratorNext(iterator, Tesseract.RIL_TEXTLINE) != 0);
            TessPageIteratorDelete(iterator);
        }
        Tesseract.TessBaseAPIClear(api);
        return lines;
    }

    private static void copy(final byte[] image, final int width, final int[] box, final byte[] out, final int outWidth,
        final int x, final int y) {
        for (int row = 0; row < box[3]; row++) {
            System.arraycopy(image, (box[1] + row) * width + box[0], out, (y + row) * outWidth + x, box[2]);
        }
    }

    /** Area-average scaling. */
    private static byte[] scaled(final byte[] image, final int width, final int height, final int sw, final int sh) {
        final byte[] out = new byte[sw * sh];
        final double fx = (double) width / sw;
        final double fy = (double) height / sh;
        for (int y = 0; y < sh; y++) {
            for (int x = 0; x < sw; x++) {
                double sum = 0;
                final double x0 = x * fx;
                final double y0 = y * fy;
                for (int j = (int) y0; j < Math.min(height, Math.ceil(y0 + fy)); j++) {
                    for (int k = (int) x0; k < Math.min(width, Math.ceil(x0 + fx)); k++) {
                        final double overlap = (Math.min(x0 + fx, k + 1) - Math.max(x0, k))
                            * (Math.min(y0 + fy, j + 1) - Math.max(y0, j));
                        sum += overlap * (image[j * width + k] & 0xFF);
                    }
                }
                out[y * sw + x] = (byte) Math.round(sum / (fx * fy));
            }
        }
        return out;
    }
}
