package dev.saccade.pixel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Blanking secure fields and windows above a capture: only the part inside it, never a wrap. */
class PixelBlankTest {
    private static final int W = 8;
    private static final int H = 4;
    private static final int WHITE = 0xFFFFFF;

    private static int[] image() {
        final int[] rgb = new int[W * H];
        Arrays.fill(rgb, 0x123456);
        return rgb;
    }

    private static int whites(final int[] rgb) {
        return (int) Arrays.stream(rgb).filter(p -> p == WHITE).count();
    }

    @Test
    void aWindowRightOfOrBelowTheCaptureChangesNothing() {
        final int[] rgb = image();
        PixelSource.blank(rgb, W, H, new int[] {W + 3, 0, 50, H}); // once threw: a row start past the image
        PixelSource.blank(rgb, W, H, new int[] {W, 1, 5, 2});
        PixelSource.blank(rgb, W, H, new int[] {0, H, W, 9});
        PixelSource.blank(rgb, W, H, new int[] {-20, 0, 5, H});
        assertArrayEquals(image(), rgb);
    }

    @Test
    void anOverlapIsClippedToTheCapture() {
        final int[] rgb = image();
        PixelSource.blank(rgb, W, H, new int[] {6, -1, 10, 3}); // columns 6..7, rows 0..1
        assertEquals(4, whites(rgb));
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                assertEquals(x >= 6 && y <= 1, rgb[y * W + x] == WHITE, "pixel " + x + "," + y);
            }
        }
    }
}
