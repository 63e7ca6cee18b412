package dev.saccade.pcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TokenBucketTest {
    private static final long MS = 1_000_000L;

    @Test
    void grantsTheBurstThenOneTokenPerRefillIntervalWithRetryAfter() {
        final TokenBucket bucket = new TokenBucket(5, 10, 0); // 10/s: one token per 100 ms
        for (int i = 0; i < 5; i++) {
            assertEquals(0, bucket.tryTake(0));
        }
        assertEquals(100, bucket.tryTake(0));
        assertEquals(50, bucket.tryTake(50 * MS));
        assertEquals(0, bucket.tryTake(100 * MS));
        assertTrue(bucket.tryTake(100 * MS) > 0);
        // a long idle refills to the burst, not beyond
        for (int i = 0; i < 5; i++) {
            assertEquals(0, bucket.tryTake(60_000 * MS));
        }
        assertTrue(bucket.tryTake(60_000 * MS) > 0);
    }
}
