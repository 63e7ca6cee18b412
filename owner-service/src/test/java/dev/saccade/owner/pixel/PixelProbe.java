package dev.saccade.owner.pixel;

import dev.saccade.owner.x11.DesktopSnapshot;
import dev.saccade.owner.x11.WindowInfo;
import dev.saccade.owner.x11.X11DesktopReader;
import java.util.ArrayList;
import java.util.List;

/** By hand: prints what the pixel analyzer finds in every window of a display. */
public final class PixelProbe {
    public static void main(final String[] args) throws Exception {
        final String display = args.length > 0 ? args[0] : System.getenv("DISPLAY");
        final DesktopSnapshot snapshot = X11DesktopReader.readOnce(display);
        try (X11Capture x = X11Capture.open(display); OcrEngine ocr = OcrEngine.open(null, "eng")) {
            final WindowAnalyzer analyzer = new WindowAnalyzer(ocr);
            for (final WindowInfo w : snapshot.windows()) {
                for (int round = 0; round < 3; round++) {
                    final int[] rgb = new int[w.width() * w.height()];
                    final long t0 = System.nanoTime();
                    x.capture(w.x(), w.y(), w.width(), w.height(), rgb);
                    final long t1 = System.nanoTime();
                    final List<int[]> kids = new ArrayList<>();
                    x.descendants(w.xid(), kids);
                    for (final int[] k : kids) {
                        k[0] -= w.x();
                        k[1] -= w.y();
                    }
                    final PixelWindow pw = analyzer.analyze(w.xid(), rgb, w.width(), w.height(), 0, kids, List.of(),
                        new WindowAnalyzer.Budget(2000, 64));
                    System.out.printf("window %s '%s' %dx%d capture %.2f ms analyze %.1f ms kids %d incomplete %s%n",
                        Long.toHexString(w.xid()), w.title(), w.width(), w.height(), (t1 - t0) / 1e6, pw.analysisNs() / 1e6,
                        kids.size(), pw.incomplete());
                    if (round == 2 && System.getProperty("dump") != null) {
                        final java.awt.image.BufferedImage img = new java.awt.image.BufferedImage(w.width(), w.height(),
                            java.awt.image.BufferedImage.TYPE_INT_RGB);
                        img.setRGB(0, 0, w.width(), w.height(), rgb, 0, w.width());
                        javax.imageio.ImageIO.write(img, "png", new java.io.File(System.getProperty("dump") + Long.toHexString(w.xid()) + ".png"));
                    }
                    if (round == 2) {
                        for (final PixelElement e : pw.elements()) {
                            System.out.printf("  role %d (%d,%d %dx%d) conf %.2f flags %d '%s'%n", e.role(), e.x(), e.y(),
                                e.width(), e.height(), e.confidenceQ16() / 65535.0, e.flags(), e.text());
                        }
                    }
                }
            }
        }
    }
}
