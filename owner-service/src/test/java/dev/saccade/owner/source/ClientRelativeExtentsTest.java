package dev.saccade.owner.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.desktop.AccessibilitySnapshot;
import dev.saccade.desktop.AccessibleApplication;
import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.FrameExtents;
import dev.saccade.desktop.MonitorInfo;
import dev.saccade.desktop.TargetIds;
import dev.saccade.desktop.WindowInfo;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetFlag;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * GTK 4's window-relative extents moved to the desktop through their window (D46) or, inside a
 * popover, through its own popup window (D64), and the part of a target on a monitor (a popup's
 * extents below the screen have none).
 */
class ClientRelativeExtentsTest {
    private static final MonitorInfo SCREEN = new MonitorInfo(1, "S", 0, 0, 1920, 1080, true);

    private static AccessibilityNode node(final long id, final long parent, final int role, final String name,
        final int x, final int y, final int w, final int h) {
        return new AccessibilityNode(TargetIds.ACCESSIBILITY_NAMESPACE | id, parent == 0 ? 0
            : TargetIds.ACCESSIBILITY_NAMESPACE | parent, role, 0, TargetFlag.ACTIONABLE, 0, x, y, w, h, name, name, 100, ":1.4",
            "/o/" + id);
    }

    private static AccessibilitySnapshot snapshot(final boolean windowRelative) {
        final List<AccessibilityNode> nodes = List.of(
            node(1, 0, Role.WINDOW, "Calculator", 0, 0, 355, 498),
            node(2, 1, Role.BUTTON, "7", 16, 300, 55, 40));
        return new AccessibilitySnapshot(1, 1, false, List.of(
            new AccessibleApplication(":1.4", 100, "gnome-calculator", nodes, true, false, null, 1, windowRelative)));
    }

    private static DesktopSnapshot desktop() {
        return new DesktopSnapshot(1, 1, 7, List.of(new WindowInfo(7, 100, "Calculator", 777, 304, 365, 508, false, true, 0)),
            List.of(SCREEN));
    }

    @Test
    void aWindowRelativeApplicationMovesByItsWindowAndTheSurfaceMargin() {
        final List<AccessibilityNode> moved = ClientRelativeExtents.translate(snapshot(true), desktop()).nodes();
        assertEquals(782, moved.get(0).x(), "window x + (365 - 355) / 2");
        assertEquals(309, moved.get(0).y(), "window y + (508 - 498) / 2");
        assertEquals(798, moved.get(1).x(), "the button moves with its frame");
        assertEquals(609, moved.get(1).y());
        assertEquals(55, moved.get(1).width(), "sizes stay");
    }

    @Test
    void screenCoordinatesStayWhereTheyAre() {
        final AccessibilitySnapshot screen = snapshot(false);
        assertSame(screen, ClientRelativeExtents.translate(screen, desktop()), "nothing window-relative: untouched");
    }

    @Test
    void aMarginTooLargeForShadowsIsNoMargin() {
        assertEquals(5, ClientRelativeExtents.margin(365, 355));
        assertEquals(0, ClientRelativeExtents.margin(355, 355));
        assertEquals(0, ClientRelativeExtents.margin(300, 355), "a window smaller than its frame");
        assertEquals(0, ClientRelativeExtents.margin(900, 355), "not a shadow: the frame sits at the origin");
    }

    @Test
    void onlyThePartOnAMonitorCounts() {
        final int[] out = new int[4];
        assertFalse(DesktopSceneComposer.onMonitor(List.of(SCREEN), 700, 1248, 120, 30, out),
            "a popup item below a 1080-pixel screen");
        assertTrue(DesktopSceneComposer.onMonitor(List.of(SCREEN), 700, 1060, 120, 40, out));
        assertEquals(1060, out[1]);
        assertEquals(20, out[3], "clipped to the screen's bottom edge");
        assertTrue(DesktopSceneComposer.onMonitor(List.of(), 700, 1248, 120, 30, out), "no monitors reported");
    }

    @Test
    void aStatedFrameExtentPlacesTheFrameInsteadOfTheCentredGuess() {
        // measured under mutter: a 482x608 X window stating 61, 61, 55, 67 around a 360x486 frame
        final AccessibilitySnapshot app = new AccessibilitySnapshot(1, 1, false, List.of(
            new AccessibleApplication(":1.4", 100, "gnome-calculator", List.of(
                node(1, 0, Role.WINDOW, "Calculator", 0, 0, 360, 486),
                node(2, 1, Role.BUTTON, "Basic", 119, 11, 60, 24)), true, false, null, 1, true)));
        final DesktopSnapshot desktop = new DesktopSnapshot(1, 1, 7,
            List.of(new WindowInfo(7, 100, "Calculator", 37, -22, 482, 608, false, true, 0)), List.of(SCREEN))
            .withSurfaces(List.of(), Map.of(7L, new FrameExtents(61, 61, 55, 67)));
        final List<AccessibilityNode> moved = ClientRelativeExtents.translate(app, desktop).nodes();
        assertEquals(98, moved.get(0).x(), "window x + the stated left margin");
        assertEquals(33, moved.get(0).y(), "window y + the stated top margin, not (608 - 486) / 2");
        assertEquals(217, moved.get(1).x());
        assertEquals(44, moved.get(1).y());
    }

    /**
     * gnome-calculator's mode menu, as measured on openbox: the popover answers its menu button's
     * origin (105, 6) with its surface's size 277x232; its popup window is at 468, 300.
     */
    private static AccessibilitySnapshot withPopover() {
        return new AccessibilitySnapshot(1, 1, false, List.of(
            new AccessibleApplication(":1.4", 100, "gnome-calculator", List.of(
                node(1, 0, Role.WINDOW, "Calculator", 0, 0, 355, 486),
                node(2, 1, Role.BUTTON, "GtkMenuButton", 105, 6, 78, 34),
                node(3, 2, Role.BUTTON, "Basic", 114, 11, 60, 24),
                node(4, 2, Role.MENU, "GtkPopoverMenu", 105, 6, 277, 232),
                node(7, 4, Role.UNKNOWN, "GtkPopoverContent", 129, 40, 229, 172),
                node(5, 7, Role.RADIO, "Advanced", 147, 78, 193, 32),
                node(6, 1, Role.BUTTON, "7", 16, 288, 55, 40),
                node(8, 1, Role.BUTTON, "mod", 217, 180, 55, 40),
                node(9, 1, Role.BUTTON, "Undo", 15, 11, 63, 24)), true, false, null, 1, true)));
    }

    private static DesktopSnapshot withPopup(final List<WindowInfo> popups) {
        return new DesktopSnapshot(1, 1, 7, List.of(new WindowInfo(7, 100, "Calculator", 457, 276, 365, 496, false, true, 0)),
            List.of(SCREEN)).withSurfaces(popups, Map.of());
    }

    @Test
    void aPopoverAndItsSubtreeMoveByTheirOwnPopupWindow() {
        final List<WindowInfo> popups = List.of(
            new WindowInfo(20, 100, "", 546, 325, 121, 30, false, true, WindowInfo.NO_DESKTOP), // a tooltip
            new WindowInfo(21, 100, "", 468, 300, 277, 232, false, true, WindowInfo.NO_DESKTOP));
        final List<AccessibilityNode> moved = ClientRelativeExtents.translate(withPopover(), withPopup(popups)).nodes();
        assertEquals(576, moved.get(2).x(), "the menu button moves by its window: 457 + 5 + 114");
        assertEquals(468, moved.get(3).x(), "the popover takes its popup window's place");
        assertEquals(300, moved.get(3).y());
        assertEquals(510, moved.get(5).x(), "an item: 468 + (147 - 105), where a click on it lands");
        assertEquals(372, moved.get(5).y(), "300 + (78 - 6)");
        assertEquals(478, moved.get(6).x(), "after the popover's subtree the window's shift again: 457 + 5 + 16");
        assertEquals(569, moved.get(6).y());
        assertTrue(moved.get(5).hasFlag(TargetFlag.ACTIONABLE), "the item keeps its flags");
        assertTrue(moved.get(7).hasFlag(TargetFlag.OCCLUDED), "a key under the popover's content is covered");
        assertFalse(moved.get(7).hasFlag(TargetFlag.ACTIONABLE));
        assertFalse(moved.get(8).hasFlag(TargetFlag.OCCLUDED), "under the popup window's margin only: not covered");
        assertFalse(moved.get(6).hasFlag(TargetFlag.OCCLUDED), "beside it: not covered");
    }

    @Test
    void aPopupOfAnotherSizeOrProcessMovesNothing() {
        final List<WindowInfo> others = List.of(
            new WindowInfo(21, 100, "", 468, 300, 277, 200, false, true, WindowInfo.NO_DESKTOP),
            new WindowInfo(22, 101, "", 468, 300, 277, 232, false, true, WindowInfo.NO_DESKTOP));
        final List<AccessibilityNode> moved = ClientRelativeExtents.translate(withPopover(), withPopup(others)).nodes();
        assertEquals(462 + 147, moved.get(5).x(), "no popup of its own: the window's shift, as before");
        assertFalse(moved.get(7).hasFlag(TargetFlag.OCCLUDED), "no popup shown: nothing covered");
    }

    @Test
    void aPopoverSeenOpenIsLeftOutOnceNoPopupShowsIt() {
        final PopoverRoots roots = new PopoverRoots();
        final List<WindowInfo> open = List.of(new WindowInfo(21, 100, "", 468, 300, 277, 232, false, true,
            WindowInfo.NO_DESKTOP));
        assertEquals(9, ClientRelativeExtents.translate(withPopover(), withPopup(open), roots).nodes().size(),
            "open: every object");
        final List<AccessibilityNode> closed = ClientRelativeExtents.translate(withPopover(), withPopup(List.of()), roots)
            .nodes();
        assertEquals(List.of("Calculator", "GtkMenuButton", "Basic", "7", "mod", "Undo"),
            closed.stream().map(AccessibilityNode::text).toList(),
            "the popover, its content and its item Advanced are left out; the rest stays");
        assertEquals(9, ClientRelativeExtents.translate(withPopover(), withPopup(List.of())).nodes().size(),
            "never seen open: nothing to tell it by, as before");
        assertEquals(9, ClientRelativeExtents.translate(withPopover(), withPopup(open), roots).nodes().size(),
            "opened again: every object");
    }
}
