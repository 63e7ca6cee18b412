package dev.saccade.pixel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A selected row's band is found with its background; dark text, borders and dark text on grey are not bands. */
class LightTextBandsTest {
    private static final int W = 300;
    private static final int H = 120;

    @Test
    void aBlueRowWithWhiteTextIsABandAndDarkTextOnGreyIsNot() {
        final byte[] grey = new byte[W * H];
        Arrays.fill(grey, (byte) 250);
        fill(grey, 20, 10, 180, 21, 119);              // the selected row (Adwaita's blue as grey)
        for (int x = 30; x < 120; x += 8) {
            fill(grey, x, 15, 4, 11, 255);              // its white "glyphs"
        }
        fill(grey, 20, 50, 180, 21, 150);              // a grey row with dark text: not light text
        for (int x = 30; x < 120; x += 8) {
            fill(grey, x, 55, 4, 11, 20);
        }
        fill(grey, 20, 90, 200, 2, 40);                // a separator line
        for (int x = 30; x < 120; x += 8) {
            fill(grey, x, 100, 4, 11, 30);              // dark text on the window
        }
        final List<int[]> bands = new LightTextBands().find(grey, W, H);
        assertEquals(1, bands.size(), () -> bands.stream().map(Arrays::toString).toList().toString());
        assertArrayEquals(new int[] {20, 10, 180, 21, 119}, bands.get(0));
        assertTrue(new LightTextBands().find(new byte[W * H], W, H).isEmpty(), "a black window is no band");
    }

    private static void fill(final byte[] g, final int x, final int y, final int w, final int h, final int value) {
        for (int r = y; r < y + h; r++) {
            Arrays.fill(g, r * W + x, r * W + x + w, (byte) value);
        }
    }
}
