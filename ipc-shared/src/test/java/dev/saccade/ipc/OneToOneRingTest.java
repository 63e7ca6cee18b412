package dev.saccade.ipc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class OneToOneRingTest {
    @Test
    void refusesWhenFullAndKeepsOrder() {
        final OneToOneRing<Integer> ring = new OneToOneRing<>(3);
        for (int i = 0; i < 4; i++) {
            assertTrue(ring.offer(i), "capacity rounds up to 4");
        }
        assertFalse(ring.offer(4));
        assertEquals(0, ring.poll());
        assertTrue(ring.offer(4));
        for (int i = 1; i <= 4; i++) {
            assertEquals(i, ring.poll());
        }
        assertNull(ring.poll());
    }

    @Test
    @Timeout(30)
    void aConsumerThreadSeesEveryElementOfAProducerThreadInOrder() throws Exception {
        final OneToOneRing<Long> ring = new OneToOneRing<>(8);
        final int n = 1_000_000;
        final Thread producer = new Thread(() -> {
            for (long i = 0; i < n; i++) {
                while (!ring.offer(i)) {
                    Thread.onSpinWait();
                }
            }
        });
        producer.start();
        for (long expected = 0; expected < n; expected++) {
            Long got;
            while ((got = ring.poll()) == null) {
                Thread.onSpinWait();
            }
            assertEquals(expected, got);
        }
        producer.join();
        assertNull(ring.poll());
    }
}
