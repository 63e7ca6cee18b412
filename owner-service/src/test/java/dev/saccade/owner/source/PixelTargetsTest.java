package dev.saccade.owner.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.desktop.MonitorInfo;
import dev.saccade.desktop.TargetIds;
import dev.saccade.desktop.WindowInfo;
import dev.saccade.owner.scene.ScenePacket;
import dev.saccade.pixel.PixelElement;
import dev.saccade.pixel.PixelSnapshot;
import dev.saccade.pixel.PixelWindow;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Pure logic of PIXEL targets in a scene: placement, bits, occlusion, stale readings, incompleteness. */
class PixelTargetsTest {
    private static final List<MonitorInfo> MONITORS = List.of(new MonitorInfo(7, "S", 0, 0, 1920, 1080, true));

    private static WindowInfo window(final long xid, final int x, final int y, final int w, final int h) {
        return new WindowInfo(xid, 0, "w" + xid, x, y, w, h, false, true, 0);
    }

    private static PixelElement yes() {
        return new PixelElement(TargetIds.pixel(42), 5, 38, 35, 25, Role.BUTTON, "Yes", 0xF000, TargetFlag.APPROXIMATE);
    }

    @Test
    void anElementIsAClickableTargetOfItsWindowAtItsCurrentPlace() {
        final WindowInfo w = window(0x600031, 200, 64, 112, 68);
        final PixelSnapshot s = new PixelSnapshot(1, 0, Map.of(w.xid(), new PixelWindow(w.xid(), 112, 68, 9,
            List.of(yes()), false, 0)));
        try (ScenePacket p = new ScenePacket(16, 1024)) {
            assertEquals(1, PixelTargets.add(p.reset(), List.of(w), MONITORS, s, Set.of(), 0, new int[2]));
            final TargetFlyweight t = new TargetFlyweight().wrap(p.bytes(), p.recordAt(0));
            assertEquals(TargetIds.pixel(42), t.targetId());
            assertEquals(TargetIds.window(w.xid()), t.parentId());
            assertEquals(w.xid(), t.windowId());
            assertEquals(7, t.displayId());
            assertEquals(205 * RectQ8.ONE, t.boundsXQ8());
            assertEquals(102 * RectQ8.ONE, t.boundsYQ8());
            assertEquals(SourceBit.PIXEL, t.sourceBits());
            assertEquals(TargetCapability.CLICK | TargetCapability.POINTER_MOVE, t.capabilityBits());
            assertEquals(TargetFlag.ACTIONABLE | TargetFlag.APPROXIMATE, t.flags());
            assertEquals(Role.BUTTON, t.role());
            assertEquals(0xF000, t.confidenceQ16());
            assertEquals(3, t.textSize());
            assertFalse(p.incomplete());
        }
    }

    @Test
    void aCoveredElementIsOccludedAResizedWindowsReadingIsLeftOutAndACutReadingMarksTheScene() {
        final WindowInfo below = window(1, 0, 0, 400, 300);
        final WindowInfo above = window(2, 0, 0, 300, 200);      // covers the element at (5,38)
        final WindowInfo resized = window(3, 500, 500, 200, 100); // read at 210×100
        final PixelSnapshot s = new PixelSnapshot(1, 0, Map.of(
            1L, new PixelWindow(1, 400, 300, 1, List.of(yes()), true, 0),
            3L, new PixelWindow(3, 210, 100, 1, List.of(yes()), false, 0)));
        try (ScenePacket p = new ScenePacket(16, 1024)) {
            assertEquals(1, PixelTargets.add(p.reset(), List.of(below, above, resized), MONITORS, s, Set.of(), 0,
                new int[2]));
            final TargetFlyweight t = new TargetFlyweight().wrap(p.bytes(), p.recordAt(0));
            assertEquals(1, t.windowId());
            assertEquals(TargetFlag.OCCLUDED | TargetFlag.APPROXIMATE, t.flags());
            assertTrue(p.incomplete(), "a reading cut by its deadline or budget: SOURCE_INCOMPLETE");
        }
    }

    @Test
    void anElementAnAccessibleObjectReplacesIsNotAdded() {
        final WindowInfo w = window(1, 0, 0, 400, 300);
        final PixelSnapshot s = new PixelSnapshot(1, 0, Map.of(1L, new PixelWindow(1, 400, 300, 1, List.of(yes()), false, 0)));
        try (ScenePacket p = new ScenePacket(16, 1024)) {
            assertEquals(0, PixelTargets.add(p.reset(), List.of(w), MONITORS, s, Set.of(TargetIds.pixel(42)), 0,
                new int[2]));
        }
    }
}
