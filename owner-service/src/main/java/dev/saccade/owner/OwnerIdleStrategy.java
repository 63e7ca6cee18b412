package dev.saccade.owner;

import java.util.concurrent.locks.LockSupport;

/**
 * What the owner thread does when a tick found no work: keep polling for a short while after
 * the last work (a client that just got a reply usually sends the next request within tens of
 * microseconds, and waking from a park costs more than that), then yield, then park for
 * growing intervals up to a cap. Anything that hands the owner work from another thread (a
 * scene publication) unparks it, so a parked owner answers waiting reads at once; socket
 * readiness is noticed within the park cap.
 *
 * <p>With no client connected there is no socket to poll: every piece of work then arrives with
 * an unpark (a connection from the acceptor, a scene from a source), so the owner parks for
 * {@link OwnerConfiguration#IDLE_QUIESCENT_PARK_NS_DEFAULT} at a time and wakes only to beat its
 * heartbeat on the input link: an idle login item costs next to nothing.
 *
 * <p>Owner thread only, apart from {@link #wake()}.
 */
public final class OwnerIdleStrategy {
    private static final long MIN_PARK_NS = 20_000;

    private final long spinNs;
    private final long yieldNs;
    private final long maxParkNs;
    private final long quiescentParkNs;
    private volatile Thread owner;
    private long idleSinceNs = -1;
    private long parkNs = MIN_PARK_NS;

    public OwnerIdleStrategy(final long spinNs, final long yieldNs, final long maxParkNs) {
        this(spinNs, yieldNs, maxParkNs, OwnerConfiguration.IDLE_QUIESCENT_PARK_NS_DEFAULT);
    }

    public OwnerIdleStrategy(final long spinNs, final long yieldNs, final long maxParkNs, final long quiescentParkNs) {
        this.spinNs = spinNs;
        this.yieldNs = yieldNs;
        this.maxParkNs = Math.max(MIN_PARK_NS, maxParkNs);
        this.quiescentParkNs = Math.max(this.maxParkNs, quiescentParkNs);
    }

    public static OwnerIdleStrategy fromSystemProperties() {
        return new OwnerIdleStrategy(
            OwnerConfiguration.idleSpinNs(),
            OwnerConfiguration.idleYieldNs(),
            OwnerConfiguration.idleMaxParkNs(),
            OwnerConfiguration.idleQuiescentParkNs());
    }

    /** Called once on the owner thread before its loop. */
    public void bindOwner() {
        owner = Thread.currentThread();
    }

    /** From any thread: the owner has new work. */
    public void wake() {
        final Thread t = owner;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** @param workCount what the tick did; @param nowNs the tick's clock reading. */
    public void idle(final int workCount, final long nowNs) {
        idle(workCount, nowNs, false);
    }

    /**
     * As {@link #idle(int, long)}; {@code quiescent}: no client is connected, so nothing but an
     * unpark can bring work, and the park may be long.
     */
    public void idle(final int workCount, final long nowNs, final boolean quiescent) {
        if (workCount > 0) {
            idleSinceNs = -1;
            parkNs = MIN_PARK_NS;
            return;
        }
        if (idleSinceNs == -1) {
            idleSinceNs = nowNs;
        }
        final long idleNs = nowNs - idleSinceNs;
        if (idleNs < spinNs) {
            Thread.onSpinWait();
        } else if (idleNs < spinNs + yieldNs) {
            Thread.yield();
        } else if (quiescent) {
            LockSupport.parkNanos(quiescentParkNs);
        } else {
            LockSupport.parkNanos(parkNs);
            parkNs = Math.min(maxParkNs, parkNs << 1);
        }
    }
}
