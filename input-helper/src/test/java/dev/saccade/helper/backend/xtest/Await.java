package dev.saccade.helper.backend.xtest;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Polls a real condition until it holds or a deadline passes; never a blind sleep. */
final class Await {
    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private Await() {
    }

    static void until(final BooleanSupplier condition, final Duration timeout, final Supplier<String> what) {
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadlineNs > 0) {
                fail("timed out after " + timeout.toMillis() + " ms waiting for: " + what.get());
            }
            LockSupport.parkNanos(POLL_NS);
        }
    }
}
