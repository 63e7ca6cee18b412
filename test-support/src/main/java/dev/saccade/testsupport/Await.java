package dev.saccade.testsupport;

import static org.junit.jupiter.api.Assertions.fail;

import dev.saccade.testsupport.Await;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Polls a real condition until it holds or a deadline passes: never a blind sleep. A condition
 * that costs little is checked every millisecond (or at a poll interval the caller names); one
 * checked by asking the X server through a command-line tool, given with a plain message, every
 * 20 ms so that the polling does not load the server it observes. {@link #value} returns what the
 * wait found; {@link #deadline} and {@link #before} serve loops that do more than poll. Every
 * deadline comparison is {@code deadline - now > 0}, which holds across a
 * {@link System#nanoTime()} overflow.
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
        final long deadlineNs = deadline(timeout);
        while (!condition.getAsBoolean()) {
            if (!before(deadlineNs)) {
                throw new AssertionError(message + " (within " + timeout.toMillis() + " ms)");
            }
            pause(QUERY_POLL_NS, deadlineNs);
        }
    }

    /**
     * Reads {@code probe} every {@code poll} until {@code done} accepts what it read, and returns
     * that value: a wait whose result the test goes on with.
     *
     * @throws AssertionError "timed out after N ms waiting for: {@code what(last value)}" when no
     *     value is accepted in time
     */
    public static <T> T value(final Supplier<T> probe, final Predicate<? super T> done, final Duration timeout,
        final Duration poll, final Function<? super T, String> what) {
        return probe(probe::get, done, timeout, poll, what);
    }

    /** As {@link #value(Supplier, Predicate, Duration, Duration, Function)}, reading every millisecond. */
    public static <T> T value(final Supplier<T> probe, final Predicate<? super T> done, final Duration timeout,
        final Function<? super T, String> what) {
        return value(probe, done, timeout, Duration.ofNanos(POLL_NS), what);
    }

    /** A read that may fail with a checked exception {@code E}: a socket round trip, a refresh, a child process. */
    @FunctionalInterface
    public interface Probe<T, E extends Exception> {
        T get() throws E;
    }

    /**
     * As {@link #value(Supplier, Predicate, Duration, Duration, Function)} for a {@link Probe}: each
     * read is a round trip, so the next follows at once unless {@code poll} asks for a pause. An
     * exception from a read ends the wait with it.
     *
     * @throws AssertionError "timed out after N ms waiting for: {@code what(last value)}"
     */
    public static <T, E extends Exception> T probe(final Probe<T, E> probe, final Predicate<? super T> done,
        final Duration timeout, final Duration poll, final Function<? super T, String> what) throws E {
        final long deadlineNs = deadline(timeout);
        T value = probe.get();
        while (!done.test(value)) {
            if (!before(deadlineNs)) {
                fail("timed out after " + timeout.toMillis() + " ms waiting for: " + what.apply(value));
            }
            pause(poll.toNanos(), deadlineNs);
            value = probe.get();
        }
        return value;
    }

    /** As {@link #probe(Probe, Predicate, Duration, Duration, Function)}, reading again at once. */
    public static <T, E extends Exception> T probe(final Probe<T, E> probe, final Predicate<? super T> done,
        final Duration timeout, final Function<? super T, String> what) throws E {
        return probe(probe, done, timeout, Duration.ZERO, what);
    }

    /**
     * Retries {@code attempt} every {@code poll} while it throws {@code retried} (a socket not bound
     * yet), and returns its first result.
     *
     * @throws AssertionError "timed out after N ms waiting for: {@code what}", caused by the last failure
     */
    public static <T, E extends Exception> T retrying(final Probe<T, E> attempt, final Class<? extends Exception> retried,
        final Duration timeout, final Duration poll, final String what) throws E {
        final long deadlineNs = deadline(timeout);
        while (true) {
            try {
                return attempt.get();
            } catch (final Exception e) {
                if (!retried.isInstance(e)) {
                    throw e;
                }
                if (!before(deadlineNs)) {
                    throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for: " + what
                        + "; last: " + e, e);
                }
                pause(poll.toNanos(), deadlineNs);
            }
        }
    }

    /**
     * Waits, checking every 20 ms, until {@code check} returns null; it returns a description of
     * what is still wrong, and the last one is the failure message.
     */
    public static void untilNoMismatch(final Supplier<String> check, final Duration timeout) {
        final long deadlineNs = deadline(timeout);
        String mismatch;
        while ((mismatch = check.get()) != null) {
            if (!before(deadlineNs)) {
                throw new AssertionError(mismatch + " (still after " + timeout.toMillis() + " ms)");
            }
            pause(QUERY_POLL_NS, deadlineNs);
        }
    }

    /** The {@link System#nanoTime()} deadline {@code timeout} from now, for {@link #before} and {@link #check}. */
    public static long deadline(final Duration timeout) {
        return System.nanoTime() + timeout.toNanos();
    }

    /**
     * Whether {@code deadlineNs} is still ahead: the difference, not the two clock values, is
     * compared, so it holds across a {@link System#nanoTime()} overflow.
     */
    public static boolean before(final long deadlineNs) {
        return deadlineNs - System.nanoTime() > 0;
    }

    /** Deadline check for spin loops that must not allocate (no lambda, no message until failure). */
    public static void check(final long deadlineNs, final String what) {
        if (!before(deadlineNs)) {
            fail("timed out waiting for: " + what);
        }
    }

    private static void until(final BooleanSupplier condition, final Duration timeout, final long pollNs,
        final Supplier<String> what) {
        final long deadlineNs = deadline(timeout);
        while (!condition.getAsBoolean()) {
            if (!before(deadlineNs)) {
                fail("timed out after " + timeout.toMillis() + " ms waiting for: " + what.get());
            }
            pause(pollNs, deadlineNs);
        }
    }

    /** Parks until the next poll, never past the deadline; an interrupt (a JUnit timeout) fails the wait. */
    private static void pause(final long pollNs, final long deadlineNs) {
        if (Thread.currentThread().isInterrupted()) {
            fail("interrupted while waiting");
        }
        LockSupport.parkNanos(Math.max(0, Math.min(pollNs, deadlineNs - System.nanoTime())));
    }
}
