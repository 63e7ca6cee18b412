package dev.saccade.helper.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.saccade.protocol.Button;
import org.junit.jupiter.api.Test;

/** Which first press of a plan waits, and how long: the same button, near, within the time. */
class MultiClickGuardTest {
    private static final long MS = 1_000_000L;

    @Test
    void aPressNearTheLastOneWithinTheTimeWaitsItOut() {
        final MultiClickGuard guard = new MultiClickGuard();
        assertEquals(0, guard.waitNs(Button.LEFT, 100, 100, 0, 400, 5), "no press yet");
        guard.pressed(Button.LEFT, 100, 100, 1_000 * MS);
        assertEquals(400 * MS + MultiClickGuard.MARGIN_NS - 100 * MS, guard.waitNs(Button.LEFT, 104, 95, 1_100 * MS, 400, 5));
        assertEquals(0, guard.waitNs(Button.LEFT, 106, 100, 1_100 * MS, 400, 5), "farther than the distance");
        assertEquals(0, guard.waitNs(Button.RIGHT, 100, 100, 1_100 * MS, 400, 5), "another button");
        assertEquals(0, guard.waitNs(Button.LEFT, 100, 100, 1_400 * MS + MultiClickGuard.MARGIN_NS, 400, 5), "the time is out");
        assertEquals(250 * MS + MultiClickGuard.MARGIN_NS - 100 * MS, guard.waitNs(Button.LEFT, 100, 100, 1_100 * MS, 250, 5));
    }
}
