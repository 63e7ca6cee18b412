package dev.saccade.testsupport;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A listener that queues the snapshots a source or reader delivers on its own thread, and the
 * test side that waits for one that matches.
 *
 * @param <T> the snapshot type
 */
public final class SnapshotQueue<T> implements Consumer<T> {
    private final BlockingQueue<T> queue = new ArrayBlockingQueue<>(4096);
    private volatile T last;
    private volatile long overflowCount;

    @Override
    public void accept(final T snapshot) {
        last = snapshot;
        if (!queue.offer(snapshot)) {
            overflowCount++; // single writer: the delivering thread
        }
    }

    /** The newest snapshot delivered, queued or not. */
    public T last() {
        return last;
    }

    /** Forgets what was delivered so far: the next {@code await} looks only at later snapshots. */
    public void clear() {
        queue.clear();
    }

    /**
     * Takes snapshots in delivery order until one matches: each one a change delivered.
     *
     * @throws AssertionError if none matches before the timeout; the message shows the last one taken
     */
    public T await(final Predicate<? super T> condition, final Duration timeout, final String what)
        throws InterruptedException {
        return take(condition, timeout, what, null, "last taken: ");
    }

    /**
     * The newest snapshot delivered if it already matches, else as {@link #await}: for a state
     * that may have been reached before the call.
     *
     * @throws AssertionError if none matches before the timeout; the message shows the last one seen
     */
    public T awaitNewestFirst(final Predicate<? super T> condition, final Duration timeout, final String what)
        throws InterruptedException {
        final T newest = last;
        if (newest != null && condition.test(newest)) {
            return newest;
        }
        return take(condition, timeout, what, newest, "last seen: ");
    }

    private T take(final Predicate<? super T> condition, final Duration timeout, final String what, final T before,
        final String lastLabel) throws InterruptedException {
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        T seen = before;
        while (true) {
            final long leftNs = deadlineNs - System.nanoTime();
            final T s = leftNs > 0 ? queue.poll(leftNs, TimeUnit.NANOSECONDS) : null;
            if (s == null) {
                throw new AssertionError("no snapshot with " + what + " within " + timeout.toMillis()
                    + " ms; " + lastLabel + seen + " (overflow " + overflowCount + ")");
            }
            seen = s;
            if (condition.test(s)) {
                return s;
            }
        }
    }
}
