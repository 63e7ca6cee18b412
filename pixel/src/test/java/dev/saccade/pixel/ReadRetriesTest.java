package dev.saccade.pixel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A window whose reading ran out of time is read again, the same pixels included, with more time
 * each time, a bounded number of times; a finished reading ends it.
 */
class ReadRetriesTest {
    private static final long XTERM = 0x600001L;
    private static final long OTHER = 0x700001L;

    @Test
    void aReadingCutByTimeIsReadAgainWithMoreTimeAtMostThreeTimes() {
        final ReadRetries retries = new ReadRetries();
        assertEquals(1000, retries.deadlineMs(XTERM, 1000));
        assertFalse(retries.readsAgain(XTERM), "a reading that was not cut is answered by its pixels' hash");
        final int[] deadlines = new int[ReadRetries.MAX_RETRIES];
        for (int i = 0; i < ReadRetries.MAX_RETRIES; i++) {
            retries.read(XTERM, true);
            final Set<Long> dirty = new HashSet<>();
            assertTrue(retries.addDue(dirty), "retry " + (i + 1) + " due");
            assertEquals(Set.of(XTERM), dirty);
            assertTrue(retries.readsAgain(XTERM), "the same pixels are read again");
            deadlines[i] = retries.deadlineMs(XTERM, 1000);
        }
        assertEquals(2000, deadlines[0]);
        assertEquals(4000, deadlines[1]);
        assertEquals(4000, deadlines[2], "growth is capped");
        retries.read(XTERM, true);
        final Set<Long> dirty = new HashSet<>();
        assertFalse(retries.addDue(dirty), "no retry after the last");
        assertTrue(dirty.isEmpty());
        assertFalse(retries.readsAgain(XTERM), "the same pixels now answer from the last reading until drawn again");
    }

    @Test
    void aFinishedReadingOrAWindowNoLongerServedEndsTheRetries() {
        final ReadRetries retries = new ReadRetries();
        retries.read(XTERM, true);
        retries.read(OTHER, true);
        retries.read(XTERM, false);
        assertFalse(retries.readsAgain(XTERM));
        assertEquals(1000, retries.deadlineMs(XTERM, 1000), "a finished reading resets the deadline");
        retries.retain(Set.of(XTERM));
        final Set<Long> dirty = new HashSet<>();
        assertFalse(retries.addDue(dirty));
        assertFalse(retries.readsAgain(OTHER));
    }
}
