package dev.saccade.pixel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Symbols read from their shape, on glyphs drawn as the Qt calculator's buttons show them here
 * (DejaVu Sans at 9 pt, anti-aliased; '#' ink, '+' half-tone, '.' light, ' ' background), and
 * letters that must be left to Tesseract.
 */
class GlyphShapesTest {
    private static final int BACKGROUND = 245;

    @Test
    void theCalculatorsSymbolsAreNamed() {
        assertEquals(".", read("+.", "#+"));
        assertEquals("-", read("###+"));
        assertEquals("÷", read("   ##   ", "   ..   ", "########", "        ", "   ##   ", "   ..   "));
        assertEquals("±", read("   +.   ", "   ++   ", "########", "   #+   ", "   ++   ", "   ++   ", "        ",
            "########"));
        assertEquals("×", read("+#   .#.", " +# .#. ", "  +##.  ", "  .##.  ", " .#..#. ", ".#.  .#.", " .    . "));
        assertEquals("+", read("   ##   ", "   ##   ", "########", "   ##   ", "   ##   "));
        assertEquals("=", read("#######", "       ", "       ", "#######"));
    }

    @Test
    void lettersAndDigitsAreLeftToTesseract() {
        assertNull(read("##", "##", "##", "##", "##", "##", "##"), "1 or l");
        assertNull(read(" #### ", "#    #", "#    #", "#    #", " #### "), "o");
        assertNull(read("######", "    # ", "   #  ", "  #   ", "  #   ", " #    "), "7");
        assertNull(read("#   #  #", "# # # # ", " #   #  "), "a word");
        assertNull(read("", ""), "no ink");
    }

    @Test
    void aRaisedLastGlyphIsAnExponent() {
        final String[] xSquared = {
            "      .###",
            "         #.",
            "  +#   #.  .#",
            "   ## #+  +#",
            "    ###  .###.",
            "    +#.",
            "   .###",
            "   #+ ##",
            "  ##   #+"};
        assertTrue(superscript(xSquared));
        final String[] x2 = {
            "           .###",
            "              #.",
            "  +#   #.     .#",
            "   ## #+     +#",
            "    ###     #+",
            "    +#.    #+",
            "   .###   #+",
            "   #+ ##  #+",
            "  ##   #+ ######"};
        assertFalse(superscript(x2));
    }

    private static String read(final String... rows) {
        final Crop c = crop(rows);
        final OcrWord word = GlyphShapes.symbol(c.grey, c.w, c.h, BACKGROUND, 80f);
        return word == null ? null : word.text();
    }

    private static boolean superscript(final String... rows) {
        final Crop c = crop(rows);
        return GlyphShapes.superscriptLast(c.grey, c.w, c.h, BACKGROUND);
    }

    private record Crop(byte[] grey, int w, int h) {
    }

    /** The rows drawn in a 40×30 button face with a 6 px margin. */
    private static Crop crop(final String... rows) {
        final int w = 40;
        final int h = 30;
        final byte[] grey = new byte[w * h];
        java.util.Arrays.fill(grey, (byte) BACKGROUND);
        for (int y = 0; y < rows.length; y++) {
            for (int x = 0; x < rows[y].length(); x++) {
                final char ch = rows[y].charAt(x);
                final int g = ch == '#' ? 18 : ch == '+' ? 110 : ch == '.' ? 180 : BACKGROUND;
                grey[(6 + y) * w + 6 + x] = (byte) g;
            }
        }
        return new Crop(grey, w, h);
    }
}
