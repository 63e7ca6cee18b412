package dev.saccade.desktop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Pure logic: display ids, topology epochs and snapshot equality, no X server. */
class DesktopSnapshotTest {
    private static final MonitorInfo SCREEN = monitor("screen", 0, 0, 1920, 1080, false);
    private static final WindowInfo EDITOR = new WindowInfo(0x400007, 42, "Editor", 10, 20, 800, 600,
        false, true, 0);

    @Test
    void stableIdDependsOnlyOnTheNameAndIsNeverZero() {
        assertEquals(MonitorInfo.stableId("DP-1"), MonitorInfo.stableId(new String("DP-1")));
        // Pinned: an id must not change between releases, or agents' display preconditions break.
        assertEquals(5998590772789901371L, MonitorInfo.stableId("screen"));
        assertNotEquals(0, MonitorInfo.stableId(""));
        final Set<Long> ids = new HashSet<>();
        for (final String name : List.of("DP-1", "DP-2", "HDMI-1", "HDMI-A-1", "eDP-1", "screen", "default")) {
            assertTrue(ids.add(MonitorInfo.stableId(name)), name);
        }
    }

    @Test
    void topologyEpochIsEqualForEqualLayoutsAndDiffersWhenAMonitorChanges() {
        final DesktopSnapshot one = snapshot(1, List.of(SCREEN));
        final DesktopSnapshot again = snapshot(7, List.of(monitor("screen", 0, 0, 1920, 1080, false)));
        assertEquals(one.topologyEpoch(), again.topologyEpoch());
        assertNotEquals(0, one.topologyEpoch());

        final List<Long> epochs = new ArrayList<>();
        epochs.add(one.topologyEpoch());
        epochs.add(snapshot(1, List.of(monitor("screen", 0, 0, 1280, 1024, false))).topologyEpoch());
        epochs.add(snapshot(1, List.of(monitor("screen", 1, 0, 1920, 1080, false))).topologyEpoch());
        epochs.add(snapshot(1, List.of(monitor("screen", 0, 0, 1920, 1080, true))).topologyEpoch());
        epochs.add(snapshot(1, List.of(SCREEN, monitor("DP-2", 1920, 0, 1920, 1080, false))).topologyEpoch());
        epochs.add(snapshot(1, List.of(monitor("DP-2", 1920, 0, 1920, 1080, false), SCREEN)).topologyEpoch());
        assertEquals(epochs.size(), new HashSet<>(epochs).size(), epochs.toString());
    }

    @Test
    void sameStateIgnoresSequenceAndCaptureTimeOnly() {
        final DesktopSnapshot a = new DesktopSnapshot(1, 100, EDITOR.xid(), List.of(EDITOR), List.of(SCREEN));
        final DesktopSnapshot b = new DesktopSnapshot(2, 200, EDITOR.xid(), List.of(EDITOR), List.of(SCREEN));
        assertTrue(a.sameStateAs(b));
        assertFalse(a.sameStateAs(null));
        assertFalse(a.sameStateAs(new DesktopSnapshot(2, 200, 0, List.of(EDITOR), List.of(SCREEN))));
        final WindowInfo moved = new WindowInfo(EDITOR.xid(), 42, "Editor", 11, 20, 800, 600, false, true, 0);
        assertFalse(a.sameStateAs(new DesktopSnapshot(2, 200, EDITOR.xid(), List.of(moved), List.of(SCREEN))));
    }

    @Test
    void snapshotListsAreImmutableAndLookupsFindByXid() {
        final List<WindowInfo> windows = new ArrayList<>(List.of(EDITOR));
        final DesktopSnapshot s = new DesktopSnapshot(1, 0, 0, windows, List.of(SCREEN));
        windows.clear();
        assertEquals(1, s.windows().size(), "copied, not shared");
        assertThrows(UnsupportedOperationException.class, () -> s.windows().clear());
        assertSame(EDITOR, s.window(0x400007));
        assertNull(s.window(0x400008));
        assertSame(SCREEN, s.primaryMonitor(), "no primary: the first");
    }

    private static DesktopSnapshot snapshot(final long sequence, final List<MonitorInfo> monitors) {
        return new DesktopSnapshot(sequence, 0, 0, List.of(), monitors);
    }

    private static MonitorInfo monitor(final String name, final int x, final int y, final int w, final int h,
        final boolean primary) {
        return new MonitorInfo(MonitorInfo.stableId(name), name, x, y, w, h, primary);
    }
}
