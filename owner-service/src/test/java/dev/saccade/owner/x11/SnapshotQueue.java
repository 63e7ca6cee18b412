package dev.saccade.owner.x11;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

/** A reader listener that queues what it is given, and the test side that waits for a snapshot. */
final class SnapshotQueue implements Consumer<DesktopSnapshot> {
    private final BlockingQueue<DesktopSnapshot> queue = new ArrayBlockingQueue<>(4096);
    private volatile long overflowCount;
    private volatile DesktopSnapshot last;

    @Override
    public void accept(final DesktopSnapshot snapshot) {
        last = snapshot;
        if (!queue.offer(snapshot)) {
            overflowCount++; // single writer: the reader thread
        }
    }

    /** The newest snapshot delivered, queued or not. */
    DesktopSnapshot last() {
        return last;
    }

    /** Forgets what was delivered so far: the next {@link #await} looks only at later snapshots. */
    void clear() {
        queue.clear();
    }

    /**
     * Takes snapshots in delivery order until one matches.
     *
     * @throws AssertionError if none matches before the timeout; the message shows the last one
     */
    DesktopSnapshot await(final Predicate<DesktopSnapshot> condition, final Duration timeout, final String what)
        throws InterruptedException {
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        DesktopSnapshot seen = null;
        while (true) {
            final long leftNs = deadlineNs - System.nanoTime();
            final DesktopSnapshot s = leftNs > 0 ? queue.poll(leftNs, TimeUnit.NANOSECONDS) : null;
            if (s == null) {
                throw new AssertionError("no snapshot with " + what + " within " + timeout.toMillis()
                    + " ms; last taken: " + seen + " (overflow " + overflowCount + ")");
            }
            seen = s;
            if (condition.test(s)) {
                return s;
            }
        }
    }
}
