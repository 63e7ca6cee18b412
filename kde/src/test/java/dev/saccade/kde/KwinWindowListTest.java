package dev.saccade.kde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.WindowInfo;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * KWin's window list as its script reports it, turned into a snapshot. The figures are those KWin
 * 5.27 reported for gnome-calculator (GTK 4, native Wayland) placed at 100,100 with its mode
 * popover open (docs/desktops/kde.md): the popover's buffer, 295 × 232, is the size GTK reports
 * for its root object.
 */
class KwinWindowListTest {
    private static final String CALCULATOR = "{\"id\":\"{c13a}\",\"pid\":28411,\"caption\":\"Calculator\","
        + "\"resourceClass\":\"org.gnome.Calculator\",\"x\":100,\"y\":100,\"width\":360,\"height\":489,\"stacking\":0,"
        + "\"active\":true,\"minimized\":false,\"screen\":0,\"x11\":false,\"popup\":false,\"bufferX\":39,\"bufferY\":45,"
        + "\"bufferWidth\":482,\"bufferHeight\":611}";
    private static final String POPOVER = "{\"id\":\"{14c8}\",\"pid\":28411,\"caption\":\"\","
        + "\"resourceClass\":\"gnome-calculator\",\"x\":156,\"y\":140,\"width\":249,\"height\":186,\"stacking\":1,"
        + "\"active\":false,\"minimized\":false,\"screen\":0,\"x11\":false,\"popup\":true,\"bufferX\":133,"
        + "\"bufferY\":119,\"bufferWidth\":295,\"bufferHeight\":232}";

    private static DesktopSnapshot snapshot(final String json) throws IOException {
        return new KwinWindowReader("unused", "unused", s -> { }).snapshot(KwinWindowList.parse(json));
    }

    @Test
    void aNativePopupIsAPopupAtItsWholeSurfaceNotAWindow() throws IOException {
        final DesktopSnapshot s = snapshot("[" + CALCULATOR + "," + POPOVER + "]");
        assertEquals(1, s.windows().size(), "the popover is no window of its own");
        final WindowInfo main = s.windows().get(0);
        assertEquals(List.of(100, 100, 360, 489), List.of(main.x(), main.y(), main.width(), main.height()),
            "a window is at its frame geometry");
        assertEquals(main.xid(), s.activeWindow());
        assertEquals(1, s.popups().size());
        final WindowInfo popup = s.popups().get(0);
        assertEquals(List.of(133, 119, 295, 232), List.of(popup.x(), popup.y(), popup.width(), popup.height()),
            "a popup is at its buffer geometry, the size GTK gives the popover's root");
        assertEquals(28411, popup.pid());
        assertTrue(popup.xid() != main.xid());
    }

    @Test
    void aClosedPopupChangesTheSnapshot() throws IOException {
        final KwinWindowReader reader = new KwinWindowReader("unused", "unused", s -> { });
        final DesktopSnapshot open = reader.snapshot(KwinWindowList.parse("[" + CALCULATOR + "," + POPOVER + "]"));
        final DesktopSnapshot closed = reader.snapshot(KwinWindowList.parse("[" + CALCULATOR + "]"));
        assertTrue(closed.popups().isEmpty());
        assertTrue(!closed.sameStateAs(open), "the popover closing is a new desktop state");
        assertEquals(open.windows().get(0).xid(), closed.windows().get(0).xid(), "the main window keeps its id");
    }

    @Test
    void anXwaylandOrMinimizedPopupIsNotPlaced() throws IOException {
        assertTrue(snapshot("[" + CALCULATOR + "," + POPOVER.replace("\"x11\":false", "\"x11\":true") + "]")
            .popups().isEmpty());
        assertTrue(snapshot("[" + CALCULATOR + "," + POPOVER.replace("\"minimized\":false", "\"minimized\":true") + "]")
            .popups().isEmpty());
    }

    @Test
    void aNegativeBufferSizeRefusesTheWholeList() {
        assertThrows(IOException.class, () -> KwinWindowList.parse("[" + CALCULATOR + ","
            + POPOVER.replace("\"bufferWidth\":295", "\"bufferWidth\":-1") + "]"));
    }

    @Test
    void aListWithoutBufferFieldsStillParses() throws IOException {
        final DesktopSnapshot s = snapshot("[{\"id\":\"{a}\",\"pid\":1,\"x\":1,\"y\":2,\"width\":3,\"height\":4}]");
        assertEquals(1, s.windows().size());
        assertTrue(s.popups().isEmpty());
    }
}
