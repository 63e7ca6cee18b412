package dev.saccade.owner.pixel;

import dev.saccade.owner.x11.DesktopSnapshot;
import dev.saccade.owner.x11.WindowInfo;
import dev.saccade.owner.x11.X11DesktopReader;

/**
 * By hand: prints what the pixel source finds in every window of a display (uncovered windows
 * read right; covered parts read what covers them). {@code java -cp ... PixelProbe :1}
 */
public final class PixelProbe {
    public static void main(final String[] args) throws Exception {
        final String display = args.length > 0 ? args[0] : System.getenv("DISPLAY");
        final DesktopSnapshot snapshot = X11DesktopReader.readOnce(display);
        try (WindowReader reader = WindowReader.open(display, System.getProperty(PixelSourceContext.LANGUAGES_PROP, "eng"))) {
            for (final WindowInfo w : snapshot.windows()) {
                final PixelWindow pw = reader.read(w, 5_000, 64);
                System.out.printf("window %s '%s' %dx%d analyze %.1f ms incomplete %s%n", Long.toHexString(w.xid()),
                    w.title(), w.width(), w.height(), pw.analysisNs() / 1e6, pw.incomplete());
                for (final PixelElement e : pw.elements()) {
                    System.out.printf("  role %d (%d,%d %dx%d) conf %.2f flags %d '%s'%n", e.role(), e.x(), e.y(),
                        e.width(), e.height(), e.confidenceQ16() / 65535.0, e.flags(), e.text());
                }
            }
        }
    }
}
