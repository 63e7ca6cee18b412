package dev.saccade.wlroots;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.MonitorInfo;
import dev.saccade.desktop.WindowInfo;
import dev.saccade.wayland.ForeignToplevels;
import dev.saccade.wayland.ForeignToplevels.Toplevel;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Pure logic of the foreign-toplevel snapshot: what stands in for geometry, stacking and visibility. */
class ToplevelDesktopReaderTest {
    private static final List<MonitorInfo> OUTPUTS = List.of(
        new MonitorInfo(1, "A", 0, 0, 1280, 720, true), new MonitorInfo(2, "B", 1280, 0, 800, 600, false));

    private static Toplevel toplevel(final long id, final String title, final int states, final Integer... outputs) {
        return new Toplevel(id, title, "app", states, List.of(outputs));
    }

    @Test
    void theActivatedWindowIsActiveAndOnTopAndEveryWindowHasItsOutputsBoundsMarkedApproximate() {
        final DesktopSnapshot s = ToplevelDesktopReader.snapshot(7, List.of(
            toplevel(1, "first", 0, 0),
            toplevel(2, "focused", 1 << ForeignToplevels.ACTIVATED | 1 << ForeignToplevels.MAXIMIZED, 1),
            toplevel(3, "last", 0, 1)), OUTPUTS);
        assertEquals(7, s.sequence());
        assertEquals(2, s.activeWindow());
        assertEquals(List.of("first", "last", "focused"), s.windows().stream().map(WindowInfo::title).toList());
        final WindowInfo focused = s.window(2);
        assertEquals(List.of(1280, 0, 800, 600), List.of(focused.x(), focused.y(), focused.width(), focused.height()));
        assertEquals(List.of(0, 0, 1280, 720), List.of(s.window(1).x(), s.window(1).y(), s.window(1).width(),
            s.window(1).height()));
        assertEquals(Set.of(1L, 2L, 3L), s.approximateWindows());
        assertEquals(0, focused.pid());
        assertTrue(s.clientRelativeWindows().isEmpty(), "no pid, no shell: nothing to translate");
    }

    @Test
    void aMinimizedWindowIsHiddenAndAWindowOnNoOutputTakesTheFirst() {
        final DesktopSnapshot s = ToplevelDesktopReader.snapshot(1, List.of(
            toplevel(1, "minimized", 1 << ForeignToplevels.MINIMIZED, 0),
            toplevel(2, "nowhere", 0)), OUTPUTS);
        assertEquals(0, s.activeWindow(), "nothing activated");
        assertTrue(s.window(1).hidden());
        assertFalse(s.window(1).viewable());
        assertTrue(s.window(2).viewable());
        assertEquals(1280, s.window(2).width());
    }

    @Test
    void snapshotsDifferWhenOnlyTheApproximateMarkDiffers() {
        final List<WindowInfo> windows = List.of(new WindowInfo(1, 0, "w", 0, 0, 10, 10, false, true,
            WindowInfo.NO_DESKTOP));
        final DesktopSnapshot exact = DesktopSnapshot.of(1, 0, 1, windows, OUTPUTS, Set.of());
        final DesktopSnapshot approximate = DesktopSnapshot.of(1, 0, 1, windows, OUTPUTS, Set.of(), Set.of(1L));
        assertFalse(exact.sameStateAs(approximate));
        assertTrue(approximate.sameStateAs(DesktopSnapshot.of(2, 5, 1, windows, OUTPUTS, Set.of(), Set.of(1L))));
    }
}
