package dev.saccade.pixel;

import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.WindowInfo;
import dev.saccade.x11.X11Capture;
import dev.saccade.x11.X11DesktopReader;
import java.nio.file.Path;
import java.util.List;

/**
 * By hand: prints what the pixel source finds in every window of a display (uncovered windows
 * read right; covered parts read what covers them), {@code java -cp ... PixelProbe :1}; or in
 * windows saved by {@link PixelImages} ({@code PixelProbe file.ppm [repeat]}: the timing of the
 * last of the repeated readings; {@code PixelProbe file.ppm repeat prepared.pgm} also saves the
 * image the text pass read, for {@link TesseractProbe}).
 */
public final class PixelProbe {
    public static void main(final String[] args) throws Exception {
        if (args.length > 0 && args[0].endsWith(".ppm")) {
            offline(args);
            return;
        }
        final String display = args.length > 0 ? args[0] : System.getenv("DISPLAY");
        final DesktopSnapshot snapshot = X11DesktopReader.readOnce(display);
        try (WindowReader reader = WindowReader.open(X11Capture.open(display), System.getProperty(PixelConfiguration.LANGUAGES_PROP_NAME, "eng"))) {
            for (final WindowInfo w : snapshot.windows()) {
                print(w.title(), reader.read(w, 5_000, 64));
            }
        }
    }

    private static void offline(final String[] args) throws Exception {
        final Path ppm = Path.of(args[0]);
        final int repeat = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        final Object[] image = PixelImages.load(ppm);
        final List<int[]> children = PixelImages.children(Path.of(args[0].replace(".ppm", ".children")));
        try (OcrEngine ocr = OcrEngine.open(null, "eng")) {
            final WindowAnalyzer analyzer = new WindowAnalyzer(ocr);
            final com.sun.management.ThreadMXBean cpu =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
            PixelWindow pw = null;
            long cpuNs = 0;
            long calls = 0;
            long allocated = 0;
            for (int i = 0; i < repeat; i++) {
                final long n0 = ocr.recognitions();
                final long a0 = cpu.getCurrentThreadAllocatedBytes();
                final long c0 = cpu.getCurrentThreadCpuTime();
                pw = analyzer.analyze(1, (int[]) image[0], (int) image[1], (int) image[2], i, children, List.of(),
                    new WindowAnalyzer.Budget(5_000, 256));
                cpuNs = cpu.getCurrentThreadCpuTime() - c0;
                calls = ocr.recognitions() - n0;
                allocated = cpu.getCurrentThreadAllocatedBytes() - a0;
            }
            System.out.printf("last reading's CPU %.1f ms, %d Tesseract calls, %d KiB allocated on the Java heap%n", cpuNs / 1e6,
                calls, allocated / 1024);
            if (args.length > 2) {
                final int w = (int) image[1];
                final int h = (int) image[2];
                try (java.io.OutputStream out = java.nio.file.Files.newOutputStream(Path.of(args[2]))) {
                    out.write(("P5\n" + w + " " + h + "\n255\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    out.write(analyzer.preparedImage(), 0, w * h);
                }
            }
            print(ppm.toString(), pw);
        }
    }

    private static void print(final String title, final PixelWindow pw) {
        System.out.printf("window '%s' %dx%d analyze %.1f ms incomplete %s%n", title, pw.width(), pw.height(),
            pw.analysisNs() / 1e6, pw.incomplete());
        for (final PixelElement e : pw.elements()) {
            System.out.printf("  role %d (%d,%d %dx%d) conf %.2f flags %d '%s'%n", e.role(), e.x(), e.y(), e.width(),
                e.height(), e.confidenceQ16() / 65535.0, e.flags(), e.text());
        }
    }
}
