package dev.saccade.helper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Steps of a held move and the rest before a release: bounded, ending exactly on the target. */
class DragPacerTest {
    @Test
    void aHeldMoveTakesStepsOfAtMostTheStepLengthAndEndsOnTheTarget() {
        assertEquals(1, DragPacer.steps(10, 10, 10, 10));
        assertEquals(1, DragPacer.steps(10, 10, 22, 10), "a 12 px step is one");
        assertEquals(5, DragPacer.steps(0, 0, 120, 0));
        assertEquals(DragPacer.MAX_STEPS, DragPacer.steps(0, 0, 4000, 3000), "bounded");
        final int n = DragPacer.steps(100, 200, 400, 50);
        for (int i = 1; i <= n; i++) {
            final int dx = DragPacer.at(100, 400, i, n) - DragPacer.at(100, 400, i - 1, n);
            final int dy = DragPacer.at(200, 50, i, n) - DragPacer.at(200, 50, i - 1, n);
            assertTrue(Math.hypot(dx, dy) <= DragPacer.MAX_STEP_PX + 1, "step " + i);
        }
        assertEquals(400, DragPacer.at(100, 400, n, n));
        assertEquals(50, DragPacer.at(200, 50, n, n));
    }

    @Test
    void theDragBeginsBeforeMoreMotionThenStepsComeEveryStep() {
        final DragPacer pacer = new DragPacer();
        assertEquals(0, pacer.gapNs(0), "the first step goes at once");
        pacer.moved(1_000_000_000L);
        assertEquals(DragPacer.BEGIN_NS - 10_000_000L, pacer.gapNs(1_010_000_000L));
        pacer.moved(1_100_000_000L);
        assertEquals(DragPacer.STEP_NS, pacer.gapNs(1_100_000_000L));
        pacer.settleNs(1_200_000_000L);
        assertEquals(0, pacer.gapNs(1_200_000_000L), "a release starts over");
    }

    @Test
    void aReleaseRestsOnlyAfterHeldMotion() {
        final DragPacer pacer = new DragPacer();
        assertEquals(0, pacer.settleNs(1_000), "a click does not wait");
        pacer.moved(1_000_000_000L);
        assertTrue(pacer.dragging());
        assertEquals(DragPacer.SETTLE_NS - 20_000_000L, pacer.settleNs(1_020_000_000L));
        assertFalse(pacer.dragging(), "the rest is once per release");
        pacer.moved(1_000_000_000L);
        assertEquals(0, pacer.settleNs(2_000_000_000L), "rested long enough already");
    }
}
