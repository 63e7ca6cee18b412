package dev.saccade.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AwaitTest {
    @Test
    void probeReturnsTheFirstAcceptedValue() throws IOException {
        final AtomicInteger reads = new AtomicInteger();
        final int value = Await.probe(reads::incrementAndGet, n -> n >= 3, Duration.ofSeconds(5), n -> "3 reads");
        assertEquals(3, value);
    }

    @Test
    void aProbeThatTimesOutNamesWhatItAwaitedAndTheLastValue() {
        final AssertionError e = assertThrows(AssertionError.class,
            () -> Await.probe(() -> "still", "done"::equals, Duration.ofMillis(20), Duration.ofMillis(5),
                last -> "done; last " + last));
        assertTrue(e.getMessage().contains("waiting for: done; last still"), e.getMessage());
    }

    @Test
    void retryingRetriesTheNamedExceptionOnlyAndKeepsTheLastAsCause() throws Exception {
        final AtomicInteger attempts = new AtomicInteger();
        assertEquals("bound", Await.retrying(() -> {
            if (attempts.incrementAndGet() < 3) {
                throw new IOException("not bound yet");
            }
            return "bound";
        }, IOException.class, Duration.ofSeconds(5), Duration.ofMillis(1), "a bound socket"));

        final IOException refused = new IOException("refused");
        final AssertionError late = assertThrows(AssertionError.class, () -> Await.retrying(() -> {
            throw refused;
        }, IOException.class, Duration.ofMillis(20), Duration.ofMillis(5), "a bound socket"));
        assertSame(refused, late.getCause());

        final IllegalStateException other = new IllegalStateException("not retried");
        assertSame(other, assertThrows(IllegalStateException.class, () -> Await.retrying(() -> {
            throw other;
        }, IOException.class, Duration.ofSeconds(5), Duration.ofMillis(1), "a bound socket")));
    }
}
