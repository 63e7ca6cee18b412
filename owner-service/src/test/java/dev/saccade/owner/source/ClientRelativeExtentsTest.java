package dev.saccade.owner.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.desktop.AccessibilitySnapshot;
import dev.saccade.desktop.AccessibleApplication;
import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.MonitorInfo;
import dev.saccade.desktop.TargetIds;
import dev.saccade.desktop.WindowInfo;
import dev.saccade.protocol.Role;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * GTK 4's window-relative extents moved to the desktop through their window (D46), and the part
 * of a target on a monitor (a popup's extents below the screen have none).
 */
class ClientRelativeExtentsTest {
    private static final MonitorInfo SCREEN = new MonitorInfo(1, "S", 0, 0, 1920, 1080, true);

    private static AccessibilityNode node(final long id, final long parent, final int role, final String name,
        final int x, final int y, final int w, final int h) {
        return new AccessibilityNode(TargetIds.ACCESSIBILITY_NAMESPACE | id, parent == 0 ? 0
            : TargetIds.ACCESSIBILITY_NAMESPACE | parent, role, 0, 0, 0, x, y, w, h, name, name, 100, ":1.4",
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
}
