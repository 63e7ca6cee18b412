package dev.saccade.demodesktop;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A point in {@link System#nanoTime()} time by which a step must be done.
 *
 * <p>X properties, the AT-SPI registry and foreign processes offer no notification we can block
 * on from here, so readiness is a condition polled to this deadline. The pause between two polls
 * is short (10 ms) because each poll is a cheap query; it is never a guess at how long a step
 * takes.
 */
final class Deadline {
    static final long POLL_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(10);

    private final long timeoutNs;
    private final long deadlineNs;

    private Deadline(final long timeoutNs) {
        this.timeoutNs = timeoutNs;
        this.deadlineNs = System.nanoTime() + timeoutNs;
    }

    static Deadline afterMs(final long timeoutMs) {
        return new Deadline(TimeUnit.MILLISECONDS.toNanos(timeoutMs));
    }

    long remainingNs() {
        return Math.max(0, deadlineNs - System.nanoTime());
    }

    boolean isExpired() {
        return deadlineNs - System.nanoTime() <= 0;
    }

    long timeoutMs() {
        return TimeUnit.NANOSECONDS.toMillis(timeoutNs);
    }

    /**
     * Pauses before the next poll of a condition. An interrupt (a JUnit timeout, Ctrl-C handling)
     * ends the wait with an exception instead of spinning until the deadline.
     */
    void pauseBeforeNextPoll(final String waitingFor) {
        if (Thread.currentThread().isInterrupted()) {
            throw new TestDesktopException("interrupted while waiting for " + waitingFor);
        }
        LockSupport.parkNanos(Math.min(POLL_INTERVAL_NS, remainingNs()));
    }
}
