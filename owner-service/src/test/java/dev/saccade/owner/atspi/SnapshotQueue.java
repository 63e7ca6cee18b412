package dev.saccade.owner.atspi;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

/** A source listener that queues what it is given, and the test side that waits for a snapshot. */
final class SnapshotQueue implements Consumer<AccessibilitySnapshot> {
    private final BlockingQueue<AccessibilitySnapshot> queue = new ArrayBlockingQueue<>(4096);
    private volatile AccessibilitySnapshot last;
    private volatile long overflowCount;

    @Override
    public void accept(final AccessibilitySnapshot snapshot) {
        last = snapshot;
        if (!queue.offer(snapshot)) {
            overflowCount++; // single writer: the source thread
        }
    }

    AccessibilitySnapshot last() {
        return last;
    }

    /**
     * Takes snapshots in delivery order (the newest delivered one first if it already matches)
     * until one matches.
     *
     * @throws AssertionError if none matches before the timeout; the message shows the last one
     */
    AccessibilitySnapshot await(final Predicate<AccessibilitySnapshot> condition, final Duration timeout, final String what)
        throws InterruptedException {
        final AccessibilitySnapshot newest = last;
        if (newest != null && condition.test(newest)) {
            return newest;
        }
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        AccessibilitySnapshot seen = newest;
        while (true) {
            final long leftNs = deadlineNs - System.nanoTime();
            final AccessibilitySnapshot s = leftNs > 0 ? queue.poll(leftNs, TimeUnit.NANOSECONDS) : null;
            if (s == null) {
                throw new AssertionError("no snapshot with " + what + " within " + timeout.toMillis()
                    + " ms; last seen: " + seen + " (overflow " + overflowCount + ")");
            }
            seen = s;
            if (condition.test(s)) {
                return s;
            }
        }
    }
}
