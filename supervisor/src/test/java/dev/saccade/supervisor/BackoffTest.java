package dev.saccade.supervisor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BackoffTest {
    @Test
    void shouldDoubleFrom250MsTo8SecondsForExitsInARow() {
        final Backoff backoff = new Backoff(250, 8_000, 60_000);
        final long[] delays = new long[9];
        for (int i = 0; i < delays.length; i++) {
            delays[i] = backoff.onExit(0);
        }
        assertArrayEquals(new long[] {250, 500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000, 8_000}, delays);
    }

    @Test
    void shouldStartOverAfterAHealthyRun() {
        final Backoff backoff = new Backoff(250, 8_000, 60_000);
        backoff.onExit(0);
        backoff.onExit(10);
        assertEquals(1_000, backoff.onExit(59_999), "59.999 s is not yet healthy");
        assertEquals(250, backoff.onExit(60_000), "60 s healthy resets the schedule");
        assertEquals(500, backoff.onExit(1));
    }

    @Test
    void anIsolatedCrashAfterTheDefaultHealthyRunRestartsAfterTheFirstStepEveryTime() {
        final Backoff backoff = new Backoff(250, 8_000, dev.saccade.supervisor.SupervisorConfiguration.HEALTHY_RESET_MS_DEFAULT);
        for (int i = 0; i < 10; i++) {
            assertEquals(250, backoff.onExit(9_000), "kill " + i + " of an owner that served for 9 s");
        }
        assertEquals(500, backoff.onExit(800), "an owner dying right after its start is a loop");
    }

    @Test
    void shouldNeverOverflowOnLongCrashLoops() {
        final Backoff backoff = new Backoff(250, 8_000, 60_000);
        for (int i = 0; i < 10_000; i++) {
            backoff.onExit(0);
        }
        assertEquals(8_000, backoff.onExit(0));
        assertEquals(8_000, backoff.delayFor(Integer.MAX_VALUE));
    }
}
