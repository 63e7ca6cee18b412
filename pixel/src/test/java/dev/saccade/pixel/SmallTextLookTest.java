package dev.saccade.pixel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which small words get the second look and how a band is cut into the rows read one by one: a
 * bitmap font (ink and paper, no grey) always; anti-aliased text only when doubtful; a row is the
 * words centred on it, whatever the segmentation's line numbers.
 */
class SmallTextLookTest {
    private static final int W = 40;

    @Test
    void aWordWithoutGreyIsDrawnInABitmapFont() {
        final byte[] image = new byte[W * 20];
        java.util.Arrays.fill(image, (byte) 0xFF);
        final OcrWord word = new OcrWord("saccade", 2, 2, 30, 10, 0, 90f);
        for (int x = 4; x < 30; x += 3) {
            for (int y = 3; y < 11; y++) {
                image[y * W + x] = 0; // one-pixel strokes
            }
        }
        assertTrue(SmallTextLook.crisp(image, W, word));
        for (int x = 5; x < 30; x += 3) {
            for (int y = 3; y < 11; y++) {
                image[y * W + x] = (byte) 0x80; // anti-aliased edges beside them
            }
        }
        assertFalse(SmallTextLook.crisp(image, W, word));
        // confident bitmap-font text still gets the second look (its digits are often confidently wrong)
        java.util.Arrays.fill(image, (byte) 0xFF);
        assertEquals(1, SmallTextLook.bands(image, W, List.of(word), 20, 40f).size());
    }

    @Test
    void aBandIsCutIntoTheRowsItsWordsAreCentredOn() {
        // a terminal's two rows, 13 px apart; sparse text gave each word a line of its own
        final List<OcrWord> words = List.of(new OcrWord("saccade-6305-ish", 3, 5, 95, 9, 0, 30f),
            new OcrWord("marker", 104, 5, 35, 9, 1, 96f), new OcrWord("output", 3, 18, 35, 11, 2, 30f),
            new OcrWord("line", 44, 18, 23, 9, 3, 90f), new OcrWord("elsewhere", 3, 60, 50, 9, 4, 20f));
        final List<int[]> rows = SmallTextLook.rows(words, 0, 32);
        assertEquals(2, rows.size());
        assertArrayEquals(new int[] {5, 14}, rows.get(0));
        assertArrayEquals(new int[] {18, 29}, rows.get(1));
    }
}
