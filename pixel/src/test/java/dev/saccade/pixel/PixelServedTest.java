package dev.saccade.pixel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.desktop.AccessibilitySnapshot;
import dev.saccade.desktop.AccessibleApplication;
import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.MonitorInfo;
import dev.saccade.desktop.WindowInfo;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which windows pixels serve: those whose tree gives nothing to act on (none, or only a disabled
 * frame, as GTK 4 apps once showed) as well as those without a tree; a window with one enabled
 * control is the tree's.
 */
class PixelServedTest {
    private static final long PID = 4242;
    private static final WindowInfo WINDOW = new WindowInfo(0x400001L, PID, "Calculator", 100, 50, 355, 486, false,
        true, 0);

    private static AccessibilityNode node(final int role, final int capabilities, final int flags, final int x,
        final int y, final int w, final int h) {
        return new AccessibilityNode(1 + role, 0, role, capabilities, flags, 0, x, y, w, h, "", "", PID, ":1.5",
            "/org/a11y/atspi/accessible/" + role);
    }

    private static List<WindowInfo> served(final AccessibilityNode... nodes) {
        final DesktopSnapshot desktop = new DesktopSnapshot(1, 10, WINDOW.xid(), List.of(WINDOW),
            List.of(new MonitorInfo(1, "screen", 0, 0, 1280, 800, true)));
        final AccessibilitySnapshot tree = new AccessibilitySnapshot(1, 20, false,
            List.of(new AccessibleApplication(":1.5", PID, "app", List.of(nodes), true, true, null, 20)));
        return new PixelSource(new PixelSourceContext().treesExpected(true), s -> { }).served(desktop, tree);
    }

    @Test
    void aWindowWithOnlyADisabledFrameIsServedByPixels() {
        // GTK 4.8's calculator: its frame at 0,0 (window-relative extents), disabled, nothing else
        assertEquals(List.of(WINDOW), served(node(Role.WINDOW, TargetCapability.KEYBOARD, TargetFlag.DISABLED,
            0, 0, 355, 486)));
        // an enabled, focusable frame says nothing either: the window target stands for it
        assertEquals(List.of(WINDOW), served(node(Role.WINDOW, TargetCapability.KEYBOARD, 0, 100, 50, 355, 486)));
        // nor a label that only takes the pointer or a text selection
        assertEquals(List.of(WINDOW), served(node(Role.TEXT, TargetCapability.POINTER_MOVE
            | TargetCapability.TEXT_SELECT, 0, 120, 80, 200, 20)));
    }

    @Test
    void aWindowWithoutATreeIsServedOnceATreeReadAfterItFoundNothingChanged() {
        // xterm maps after the last published tree (capture 20): only a later read that found the
        // tree unchanged (nothing is published then) says that its window has no secure field
        final WindowInfo xterm = new WindowInfo(0x600001L, 777, "xterm", 0, 0, 484, 316, false, true, 0);
        final DesktopSnapshot desktop = new DesktopSnapshot(2, 30, xterm.xid(), List.of(xterm),
            List.of(new MonitorInfo(1, "screen", 0, 0, 1280, 800, true)));
        final AccessibilitySnapshot tree = new AccessibilitySnapshot(1, 20, false, List.of());
        final PixelSource source = new PixelSource(new PixelSourceContext().treesExpected(true), s -> { });
        assertEquals(List.of(), source.served(desktop, tree), "no read since it appeared");
        assertEquals(List.of(), source.served(desktop, tree, 25), "a read before it appeared");
        assertEquals(List.of(xterm), source.served(desktop, tree, 40));
    }

    @Test
    void aWindowWithAnActionableControlIsTheTrees() {
        assertEquals(List.of(), served(node(Role.WINDOW, 0, TargetFlag.DISABLED, 100, 50, 355, 486),
            node(Role.BUTTON, TargetCapability.CLICK | TargetCapability.INVOKE, 0, 120, 300, 60, 40)));
        // a disabled button is still nothing to act on
        assertEquals(List.of(WINDOW), served(node(Role.BUTTON, TargetCapability.CLICK, TargetFlag.DISABLED,
            120, 300, 60, 40)));
    }
}
