package dev.saccade.pixel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The box finder on drawn images: a bordered button is found, glyphs and filled blocks are not. */
class BoxFinderTest {
    private static final int W = 200;
    private static final int H = 120;

    @Test
    void aOnePixelBorderIsOneBoxAtItsBoundsAndGlyphsInsideItAreNot() {
        final byte[] grey = blank();
        border(grey, 20, 30, 80, 28, 120);
        // "text": three small filled blocks inside, and an "o" (a small ring) beside them
        fill(grey, 30, 38, 6, 10, 40);
        fill(grey, 40, 38, 6, 10, 40);
        border(grey, 50, 38, 8, 10, 40);
        final List<BoxFinder.Box> boxes = new BoxFinder().find(grey, W, H);
        assertEquals(1, boxes.size(), boxes.toString());
        final BoxFinder.Box b = boxes.get(0);
        assertTrue(Math.abs(b.x() - 20) <= 1 && Math.abs(b.y() - 30) <= 1, b.toString());
        assertTrue(Math.abs(b.width() - 80) <= 2 && Math.abs(b.height() - 28) <= 2, b.toString());
        assertTrue(b.cover() >= BoxFinder.MIN_PERIMETER_COVER);
    }

    @Test
    void aFlatFilledButtonIsABoxAndAShapeOpenOnTwoSidesIsNot() {
        final byte[] grey = blank();
        fill(grey, 10, 10, 40, 30, 60);           // a flat, filled button: edges only round it
        line(grey, 100, 20, 60, true, 60);        // an "L": two sides of a rectangle only
        line(grey, 100, 20, 40, false, 60);
        final List<BoxFinder.Box> boxes = new BoxFinder().find(grey, W, H);
        assertEquals(1, boxes.size(), boxes.toString());
        assertTrue(boxes.get(0).x() <= 10 && boxes.get(0).x() + boxes.get(0).width() >= 50, boxes.toString());
    }

    @Test
    void twoSeparateButtonsAreTwoBoxes() {
        final byte[] grey = blank();
        border(grey, 10, 10, 50, 30, 100);
        border(grey, 80, 10, 50, 30, 100);
        assertEquals(2, new BoxFinder().find(grey, W, H).size());
    }

    @Test
    void textCleaningDropsBorderBarsAndBracketsAtTheEnds() {
        assertEquals("Yes", WindowAnalyzer.clean("|Yes|"));
        assertEquals("No", WindowAnalyzer.clean("(No)"));
        assertEquals("", WindowAnalyzer.clean("||"));
        assertEquals("a(b)c", WindowAnalyzer.clean("a(b)c"));
    }

    @Test
    void idsDependOnWindowGeometryAndTextAndStayInThePixelNamespace() {
        final long id = WindowAnalyzer.id(0x400015, 12, 40, 60, 24, "OK");
        assertEquals(id, WindowAnalyzer.id(0x400015, 12, 40, 60, 24, "OK"));
        assertTrue(id != WindowAnalyzer.id(0x400016, 12, 40, 60, 24, "OK"), "another window");
        assertTrue(id != WindowAnalyzer.id(0x400015, 12, 40, 60, 24, "Cancel"), "another text");
        assertTrue(id != WindowAnalyzer.id(0x400015, 80, 40, 60, 24, "OK"), "another place");
        assertEquals(4, dev.saccade.desktop.TargetIds.namespace(id));
    }

    @Test
    void thePixelHashSeesOnePixelChange() {
        final int[] a = new int[640 * 480];
        final int[] b = a.clone();
        b[12345] = 1;
        assertEquals(PixelSource.hash(a), PixelSource.hash(a.clone()));
        assertTrue(PixelSource.hash(a) != PixelSource.hash(b));
    }

    private static byte[] blank() {
        final byte[] g = new byte[W * H];
        Arrays.fill(g, (byte) 240);
        return g;
    }

    private static void fill(final byte[] g, final int x, final int y, final int w, final int h, final int v) {
        for (int r = y; r < y + h; r++) {
            Arrays.fill(g, r * W + x, r * W + x + w, (byte) v);
        }
    }

    private static void border(final byte[] g, final int x, final int y, final int w, final int h, final int v) {
        line(g, x, y, w, true, v);
        line(g, x, y + h - 1, w, true, v);
        line(g, x, y, h, false, v);
        line(g, x + w - 1, y, h, false, v);
    }

    private static void line(final byte[] g, final int x, final int y, final int n, final boolean horizontal, final int v) {
        for (int i = 0; i < n; i++) {
            g[(horizontal ? y : y + i) * W + (horizontal ? x + i : x)] = (byte) v;
        }
    }
}
