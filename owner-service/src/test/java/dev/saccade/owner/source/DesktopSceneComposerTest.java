package dev.saccade.owner.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.desktop.AccessibilitySnapshot;
import dev.saccade.desktop.AccessibleApplication;
import dev.saccade.desktop.MonitorInfo;
import dev.saccade.desktop.TargetIds;
import dev.saccade.desktop.WindowAttribution;
import dev.saccade.desktop.WindowInfo;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Pure logic of the composer: occlusion and safe points from stacking order, displays, ids. */
class DesktopSceneComposerTest {
    private static WindowInfo window(final long xid, final int x, final int y, final int w, final int h) {
        return new WindowInfo(xid, 100, "w" + xid, x, y, w, h, false, true, 0);
    }

    @Test
    void safePointIsTheCentreWhenNothingAboveCoversIt() {
        final List<WindowInfo> stack = List.of(window(1, 0, 0, 100, 100), window(2, 200, 200, 50, 50));
        final int[] p = new int[2];
        assertTrue(DesktopSceneComposer.safePoint(stack, 0, p));
        assertEquals(50, p[0]);
        assertEquals(50, p[1]);
    }

    @Test
    void safePointMovesOffTheCentreWhenAWindowAboveCoversIt() {
        // window 2 (above) covers the middle of window 1 but not its top-left corner
        final List<WindowInfo> stack = List.of(window(1, 0, 0, 90, 90), window(2, 20, 20, 70, 70));
        final int[] p = new int[2];
        assertTrue(DesktopSceneComposer.safePoint(stack, 0, p));
        assertTrue(p[0] < 20 || p[1] < 20, "free point outside the cover: " + p[0] + "," + p[1]);
    }

    @Test
    void aWindowCoveredEverywhereHasNoSafePoint() {
        final List<WindowInfo> stack = List.of(window(1, 10, 10, 50, 50), window(2, 0, 0, 100, 100));
        assertFalse(DesktopSceneComposer.safePoint(stack, 0, new int[2]));
        // the window below does not cover the one above
        assertTrue(DesktopSceneComposer.safePoint(stack, 1, new int[2]));
    }

    @Test
    void hiddenWindowsAboveDoNotOcclude() {
        final WindowInfo hidden = new WindowInfo(2, 1, "min", 0, 0, 100, 100, true, false, 0);
        assertTrue(DesktopSceneComposer.safePoint(List.of(window(1, 10, 10, 50, 50), hidden), 0, new int[2]));
    }

    @Test
    void aWindowBelongsToTheDisplayHoldingItsCentre() {
        final MonitorInfo left = new MonitorInfo(11, "L", 0, 0, 1920, 1080, true);
        final MonitorInfo right = new MonitorInfo(22, "R", 1920, 0, 1280, 1024, false);
        assertEquals(22, DesktopSceneComposer.displayOf(List.of(left, right), window(1, 1800, 0, 400, 300)));
        assertEquals(11, DesktopSceneComposer.displayOf(List.of(left, right), window(1, 1700, 0, 400, 300)));
        assertEquals(11, DesktopSceneComposer.displayOf(List.of(left, right), window(1, -900, -900, 10, 10)));
        assertEquals(0, DesktopSceneComposer.displayOf(List.of(), window(1, 0, 0, 10, 10)));
    }

    @Test
    void gridAndWindowIdsAreDistinctAcrossSourcesAndCells() {
        final Set<Long> ids = new HashSet<>();
        for (int r = 0; r < 9; r++) {
            for (int c = 0; c < 16; c++) {
                assertTrue(ids.add(TargetIds.gridCell(0xABCDEF12345L, r, c)));
                assertTrue(ids.add(TargetIds.gridCell(0x1234L, r, c)));
            }
        }
        assertTrue(ids.add(TargetIds.window(0x400001)));
        assertNotEquals(0, TargetIds.window(0));
        assertEquals(1, TargetIds.namespace(TargetIds.window(0x400001)));
        assertEquals(2, TargetIds.namespace(TargetIds.gridCell(1, 2, 3)));
        assertEquals(TargetIds.gridCell(7, 1, 1), TargetIds.gridCell(7, 1, 1));
    }

    @Test
    void gridLayoutRefusesEmptyOrHugeGrids() {
        assertThrows(IllegalArgumentException.class, () -> new GridLayout(0, 5));
        assertThrows(IllegalArgumentException.class, () -> new GridLayout(100, 100));
        assertEquals("r2c3", new String(new GridLayout(4, 4).label(2, 3), java.nio.charset.StandardCharsets.US_ASCII));
    }

    private static AccessibilityNode frame(final String name, final long pid, final int x, final int y, final int w,
        final int h) {
        return new AccessibilityNode(TargetIds.ACCESSIBILITY_NAMESPACE | 1, 0, Role.WINDOW, 0, 0, 0, x, y, w, h, name, name,
            pid, ":1.1", "/org/a11y/atspi/accessible/1");
    }

    @Test
    void framesBelongToTheirWindowByTitleAndBoundsNotByWhatLiesAboveThem() {
        // A dialog of the same process over the middle of its main window (stacking: bottom first).
        final List<WindowInfo> windows = List.of(
            new WindowInfo(1, 100, "Editor", 0, 0, 800, 600, false, true, 0),
            new WindowInfo(2, 100, "Open File", 200, 150, 400, 300, false, true, 0),
            new WindowInfo(3, 200, "Editor", 0, 0, 800, 600, false, true, 0));
        assertEquals(0, DesktopSceneComposer.frameWindow(windows, frame("Editor", 100, 0, 0, 800, 600)),
            "the main frame, although the dialog holds its centre");
        assertEquals(1, DesktopSceneComposer.frameWindow(windows, frame("Open File", 100, 200, 150, 400, 300)));
        assertEquals(1, DesktopSceneComposer.frameWindow(windows, frame("", 100, 203, 148, 400, 300)), "by bounds");
        assertEquals(0, DesktopSceneComposer.frameWindow(windows, frame("Editor", 100, 50, 50, 10, 10)),
            "by title, wherever it lies");
        assertEquals(1, WindowAttribution.windowOf(windows, frame("Editor", 100, 0, 0, 800, 600)),
            "by position alone the dialog would have taken it");
        assertEquals(-1, DesktopSceneComposer.frameWindow(windows, frame("Editor", 999, 0, 0, 800, 600)),
            "no window of its process: by position, and none is of pid 999");
    }

    @Test
    void onlyAWindowWhoseProcessHasNoTreeTakesKeysItself() {
        // D52: xterm (pid 300) publishes nothing; gtk3-demo (pid 100) has a tree whose fields take
        // the text; a GTK 4 app (pid 400) shows only its frame, disabled: nothing to act on.
        final AccessibilityNode entry = new AccessibilityNode(TargetIds.ACCESSIBILITY_NAMESPACE | 2,
            TargetIds.ACCESSIBILITY_NAMESPACE | 1, Role.TEXT_FIELD, TargetCapability.TEXT | TargetCapability.KEYBOARD, 0, 0,
            10, 10, 200, 24, "", "Name", 100, ":1.1", "/org/a11y/atspi/accessible/2");
        final AccessibilityNode disabledFrame = new AccessibilityNode(TargetIds.ACCESSIBILITY_NAMESPACE | 3, 0,
            Role.WINDOW, TargetCapability.KEYBOARD, TargetFlag.DISABLED, 0, 0, 0, 355, 486, "", "", 400, ":1.3",
            "/org/a11y/atspi/accessible/3");
        final AccessibilitySnapshot semantic = new AccessibilitySnapshot(1, 0, false, List.of(
            new AccessibleApplication(":1.1", 100, "gtk3-demo", List.of(frame("Editor", 100, 0, 0, 800, 600), entry), true,
                true, null, 0),
            new AccessibleApplication(":1.2", 200, "empty", List.of(), true, true, null, 0),
            new AccessibleApplication(":1.3", 400, "calculator", List.of(disabledFrame), true, true, null, 0)));
        assertFalse(DesktopSceneComposer.hasTree(semantic, new WindowInfo(5, 400, "Calculator", 0, 0, 355, 486, false,
            true, 0)), "only a disabled frame");
        assertTrue(DesktopSceneComposer.hasTree(semantic, new WindowInfo(1, 100, "Editor", 0, 0, 800, 600, false, true, 0)));
        assertFalse(DesktopSceneComposer.hasTree(semantic, new WindowInfo(2, 300, "xterm", 0, 0, 800, 600, false, true, 0)));
        assertFalse(DesktopSceneComposer.hasTree(semantic, new WindowInfo(3, 200, "empty", 0, 0, 80, 60, false, true, 0)),
            "registered, but no object");
        assertFalse(DesktopSceneComposer.hasTree(semantic, new WindowInfo(4, 0, "xmessage", 0, 0, 80, 60, false, true, 0)),
            "no _NET_WM_PID");
        assertFalse(DesktopSceneComposer.hasTree(null, new WindowInfo(1, 100, "Editor", 0, 0, 800, 600, false, true, 0)),
            "no accessibility source");
    }
}
