package dev.saccade.owner.x11;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits for a condition to a deadline, re-checking every few milliseconds. */
final class Await {
    private static final long CHECK_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(20);

    private Await() {
    }

    static void until(final BooleanSupplier condition, final Duration timeout, final String message) {
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadlineNs > 0) {
                throw new AssertionError(message + " (within " + timeout.toMillis() + " ms)");
            }
            LockSupport.parkNanos(CHECK_INTERVAL_NS);
        }
    }

    /**
     * Waits until {@code check} returns null; it returns a description of what is still wrong,
     * and the last one is the failure message.
     */
    static void untilNoMismatch(final Supplier<String> check, final Duration timeout) {
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        String mismatch;
        while ((mismatch = check.get()) != null) {
            if (System.nanoTime() - deadlineNs > 0) {
                throw new AssertionError(mismatch + " (still after " + timeout.toMillis() + " ms)");
            }
            LockSupport.parkNanos(CHECK_INTERVAL_NS);
        }
    }
}
