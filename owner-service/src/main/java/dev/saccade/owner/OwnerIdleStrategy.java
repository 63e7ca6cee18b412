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
 * heartbeat on the input link: an idle login item costs next to nothing. With clients connected
 * that all wait for their next request (the agent says it is calm), their sockets wake the owner
 * through {@link ClientReadiness} (D69), so it sleeps for up to
 * {@link OwnerConfiguration#IDLE_CALM_PARK_NS_DEFAULT} instead of looking every millisecond.
 *
 * <p>Owner thread only, apart from {@link #wake()}.
 */
public final class OwnerIdleStrategy {
    private static final long MIN_PARK_NS = 20_000;

    private final long spinNs;
    private final long yieldNs;
    private final long maxParkNs;
    private final long quiescentParkNs;
    private final long calmParkNs;
    /** Null: the owner looks at its sockets within the park cap. */
    private final ClientReadiness readiness;
    private volatile Thread owner;
    private long idleSinceNs = -1;
    private long parkNs = MIN_PARK_NS;

    public OwnerIdleStrategy(final long spinNs, final long yieldNs, final long maxParkNs) {
        this(spinNs, yieldNs, maxParkNs, OwnerConfiguration.IDLE_QUIESCENT_PARK_NS_DEFAULT);
    }

    public OwnerIdleStrategy(final long spinNs, final long yieldNs, final long maxParkNs, final long quiescentParkNs) {
        this(spinNs, yieldNs, maxParkNs, quiescentParkNs, 0, null);
    }

    /**
     * @param calmParkNs the longest sleep of a calm owner; 0, or a null {@code readiness}: an
     *     owner with clients always looks within {@code maxParkNs}.
     */
    public OwnerIdleStrategy(final long spinNs, final long yieldNs, final long maxParkNs, final long quiescentParkNs,
        final long calmParkNs, final ClientReadiness readiness) {
        this.spinNs = spinNs;
        this.yieldNs = yieldNs;
        this.maxParkNs = Math.max(MIN_PARK_NS, maxParkNs);
        this.quiescentParkNs = Math.max(this.maxParkNs, quiescentParkNs);
        this.calmParkNs = calmParkNs;
        if (calmParkNs > this.maxParkNs || readiness == null) {
            this.readiness = readiness;
        } else {
            readiness.close(); // calm sleeps are off: the owner looks within the park cap
            this.readiness = null;
        }
    }

    /** The strategy the system properties name, calm sleeps through {@code readiness} (may be null). */
    public static OwnerIdleStrategy fromSystemProperties(final ClientReadiness readiness) {
        return new OwnerIdleStrategy(
            OwnerConfiguration.idleSpinNs(),
            OwnerConfiguration.idleYieldNs(),
            OwnerConfiguration.idleMaxParkNs(),
            OwnerConfiguration.idleQuiescentParkNs(),
            OwnerConfiguration.idleCalmParkNs(),
            readiness);
    }

    /** What a calm owner sleeps on, or null when it always looks within the park cap. */
    public ClientReadiness readiness() {
        return readiness;
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
        if (readiness != null) {
            readiness.wake();
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
        idle(workCount, nowNs, quiescent, null);
    }

    /**
     * As {@link #idle(int, long, boolean)}; once parking, asks {@code agent} (may be null) whether
     * it is calm, and if so sleeps on its sockets up to the calm park or the agent's deadline.
     */
    public void idle(final int workCount, final long nowNs, final boolean quiescent, final LoopAgent agent) {
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
            final long calmNs = readiness == null || agent == null ? 0 : agent.calmNs(nowNs);
            if (calmNs > maxParkNs) {
                readiness.await(Math.min(calmParkNs, calmNs));
            } else {
                LockSupport.parkNanos(parkNs);
                parkNs = Math.min(maxParkNs, parkNs << 1);
            }
        }
    }
}
