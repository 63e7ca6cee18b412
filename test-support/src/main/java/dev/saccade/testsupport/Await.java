package dev.saccade.testsupport;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Polls a real condition until it holds or a deadline passes: never a blind sleep. A condition
 * that costs little is checked every millisecond (or at a poll interval the caller names); one
 * checked by asking the X server through a command-line tool, given with a plain message, every
 * 20 ms so that the polling does not load the server it observes.
 */
public final class Await {
    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long QUERY_POLL_NS = TimeUnit.MILLISECONDS.toNanos(20);

    private Await() {
    }

    /**
     * Checks {@code condition} every millisecond until it holds.
     *
     * @throws AssertionError "timed out after N ms waiting for: {@code what}" when it does not in time
     */
    public static void until(final BooleanSupplier condition, final Duration timeout, final Supplier<String> what) {
        until(condition, timeout, POLL_NS, what);
    }

    /** As {@link #until(BooleanSupplier, Duration, Supplier)}, checking every {@code poll}. */
    public static void until(final BooleanSupplier condition, final Duration timeout, final Duration poll,
        final Supplier<String> what) {
        until(condition, timeout, poll.toNanos(), what);
    }

    /**
     * Checks a costly {@code condition} (an X11 query) every 20 ms until it holds.
     *
     * @throws AssertionError "{@code message} (within N ms)" when it does not in time
     */
    public static void until(final BooleanSupplier condition, final Duration timeout, final String message) {
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadlineNs > 0) {
                throw new AssertionError(message + " (within " + timeout.toMillis() + " ms)");
            }
            LockSupport.parkNanos(QUERY_POLL_NS);
        }
    }

    /**
     * Waits, checking every 20 ms, until {@code check} returns null; it returns a description of
     * what is still wrong, and the last one is the failure message.
     */
    public static void untilNoMismatch(final Supplier<String> check, final Duration timeout) {
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        String mismatch;
        while ((mismatch = check.get()) != null) {
            if (System.nanoTime() - deadlineNs > 0) {
                throw new AssertionError(mismatch + " (still after " + timeout.toMillis() + " ms)");
            }
            LockSupport.parkNanos(QUERY_POLL_NS);
        }
    }

    /** Deadline check for spin loops that must not allocate (no lambda, no message until failure). */
    public static void check(final long deadlineNs, final String what) {
        if (System.nanoTime() - deadlineNs > 0) {
            fail("timed out waiting for: " + what);
        }
    }

    private static void until(final BooleanSupplier condition, final Duration timeout, final long pollNs,
        final Supplier<String> what) {
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadlineNs > 0) {
                fail("timed out after " + timeout.toMillis() + " ms waiting for: " + what.get());
            }
            LockSupport.parkNanos(pollNs);
        }
    }
}
