package dev.saccade.helper;

import dev.saccade.ipc.link.HelperSide;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The timed operation the helper runs now and the hold lease that ends by itself (agent-abi
 * §5.15): the helper's own storage for input that outlives a single burst of events, so the
 * owner only hands over a plan and polls its completion. A glide (a MOVE with a duration) or a
 * spread SCROLL is paced here, {@link #TICK_NS} between steps on a schedule counted from its
 * start, so a late step never makes the operation longer; every wait looks, each
 * {@link #SLICE_NS}, for what ends the operation early: the owner's cancel word (ABORT, the
 * agent's disconnect, any release the owner asks for), the user's own input, the owner gone or
 * silent, the helper stopping ({@code interrupted}). One thread: the helper's main thread.
 */
final class TimedOperation {
    /** Between two steps of a glide: one frame at 60 Hz, as a hand's motion events come. */
    static final long TICK_NS = 16_000_000L;
    /** The longest park between two looks at what cancels an operation. */
    static final long SLICE_NS = 1_000_000L;
    /** What a wait answers: it ran to its end, the deadline came first, or the operation was cancelled. */
    static final int WAITED = 0;
    static final int DEADLINE = 1;
    static final int CANCELLED = 2;

    private final HelperSide side;
    private final BooleanSupplier interrupted;
    /** The cancel word when the current timed plan began. */
    private long cancelMark;
    /** Whether the plan in hand has a duration anywhere: only then does anything cancel its waits. */
    private boolean timed;
    /** When the timed hold lease ends by itself; 0 when none runs. */
    private long leaseEndNs;

    TimedOperation(final HelperSide side, final BooleanSupplier interrupted) {
        this.side = side;
        this.interrupted = interrupted;
    }

    /** A plan begins; {@code timed} when one of its commands carries a duration. */
    void begin(final boolean timed) {
        this.timed = timed;
        cancelMark = side.cancelSequence();
    }

    boolean timed() {
        return timed;
    }

    /**
     * Whether something ended the timed plan in hand (never for an untimed plan: §5.15, D1): the
     * owner's cancel word, {@code interrupted}, or the end of the hold lease it runs under.
     */
    boolean cancelled() {
        return timed && (side.cancelSequence() != cancelMark || interrupted.getAsBoolean() || leaseEnded(System.nanoTime()));
    }

    /**
     * Waits until {@code untilNs}, beating the heartbeat (a 60 s operation is not a hung helper)
     * and looking for a cancel each slice. DEADLINE, without waiting, when {@code untilNs} is past
     * {@code deadlineNs}.
     */
    int waitUntil(final long untilNs, final long deadlineNs) {
        if (untilNs - deadlineNs >= 0) {
            return DEADLINE;
        }
        long left;
        while ((left = untilNs - System.nanoTime()) > 0) {
            if (cancelled()) {
                return CANCELLED;
            }
            side.beat(System.nanoTime());
            LockSupport.parkNanos(Math.min(left, timed ? SLICE_NS : left));
        }
        return cancelled() ? CANCELLED : WAITED;
    }

    /** Where a glide from {@code from} to {@code to} of {@code durationNs} is {@code elapsedNs} after its start. */
    static int at(final int from, final int to, final long elapsedNs, final long durationNs) {
        if (elapsedNs >= durationNs) {
            return to;
        }
        return from + (int) ((to - from) * (double) elapsedNs / durationNs);
    }

    /** A hold lease of {@code leaseNs} starts at {@code nowNs}. */
    void leaseFrom(final long nowNs, final long leaseNs) {
        leaseEndNs = nowNs + leaseNs;
        if (leaseEndNs == 0) {
            leaseEndNs = 1;
        }
    }

    /** Nothing is held any more: no lease runs. */
    void leaseOver() {
        leaseEndNs = 0;
    }

    /** Whether a timed lease runs and has reached its end at {@code nowNs}. */
    boolean leaseEnded(final long nowNs) {
        return leaseEndNs != 0 && nowNs - leaseEndNs >= 0;
    }

    /** When the running timed lease ends, 0 when none runs. */
    long leaseEndNs() {
        return leaseEndNs;
    }
}
