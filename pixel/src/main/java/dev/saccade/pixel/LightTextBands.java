package dev.saccade.pixel;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds filled bands that carry light text: a list's or a menu's selected row (GTK's Adwaita
 * draws it blue, grey 119, with white text), a highlighted tab, a coloured header. They are no
 * bordered box, so {@link BoxFinder} does not see them, and they are not dark enough for the
 * window's own inversion: Tesseract binarises such a row into a black bar with white holes and
 * reads fragments of it ("Appl", "Cla" for "Application Class"). A band is an 8-connected
 * region of pixels darker than {@link #BAND_GREY}, at least {@link #MIN_WIDTH} wide and twice as
 * wide as high, whose region covers most of its bounding box, and whose holes (the glyphs) are
 * clearly lighter than it; {@link WindowAnalyzer} turns those rectangles into dark text on white
 * before the text pass.
 * One thread uses an instance: its work arrays are reused.
 */
final class LightTextBands {
    private static final int BAND_GREY = 170;
    private static final int MIN_WIDTH = 48;
    private static final int MIN_HEIGHT = 10;
    private static final int MAX_HEIGHT = 48;
    /** The band's own pixels cover at least this share of its box (glyph holes are the rest). */
    private static final double MIN_FILL = 0.6;
    /** The holes are at least this much lighter than the band: light text, not dark text on grey. */
    private static final int MIN_TEXT_CONTRAST = 60;

    private int[] labels = new int[0];
    private final Flood flood = new Flood();

    /** The bands of a grey image, {x, y, w, h, mean grey of the band's own pixels} each. */
    List<int[]> find(final byte[] grey, final int width, final int height) {
        final int n = width * height;
        if (labels.length < n) {
            labels = new int[n];
        }
        for (int i = 0; i < n; i++) {
            labels[i] = (grey[i] & 0xFF) < BAND_GREY ? Flood.OPEN : 0;
        }
        final List<int[]> bands = new ArrayList<>();
        int next = 0;
        for (int start = 0; start < n; start++) {
            if (labels[start] != Flood.OPEN) {
                continue;
            }
            final int id = ++next;
            final long count = flood.fill(labels, width, height, start, id);
            final int minX = flood.minX();
            final int minY = flood.minY();
            final int maxX = flood.maxX();
            final int maxY = flood.maxY();
            final int w = maxX - minX + 1;
            final int h = maxY - minY + 1;
            if (w < MIN_WIDTH || h < MIN_HEIGHT || h > MAX_HEIGHT || w < 2 * h || count < MIN_FILL * w * h) {
                continue;
            }
            // the holes: what in the box is not the band (the glyphs, and anti-aliasing round them)
            long holes = 0;
            long holeSum = 0;
            long sum = 0;
            for (int y = minY; y <= maxY; y++) {
                for (int x = minX; x <= maxX; x++) {
                    if (labels[y * width + x] != id) {
                        holes++;
                        holeSum += grey[y * width + x] & 0xFF;
                    } else {
                        sum += grey[y * width + x] & 0xFF;
                    }
                }
            }
            if (holes > 0 && holeSum / holes >= sum / count + MIN_TEXT_CONTRAST) {
                bands.add(new int[] {minX, minY, w, h, (int) (sum / count)});
            }
        }
        return bands;
    }
}
