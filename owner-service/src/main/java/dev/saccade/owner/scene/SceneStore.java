package dev.saccade.owner.scene;

import dev.saccade.ipc.OneToOneRing;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Immutable scene generations and their hand-off from the source thread to the owner thread.
 * <pre>
 *  source thread:  claim() -> build -> publish()  --pending (one slot)-->  owner: adoptPending()
 *        ^                                                                     |
 *        +------------------- free ring (owner -> source) <-- previous current-+
 * </pre>
 * A fixed pool of packets bounds memory. Publishing is one atomic store into the pending slot;
 * a scene the owner never adopted goes straight back to the source. The owner returns the
 * scene it stops reading through a single-producer single-consumer ring, so neither side locks
 * and the owner side allocates nothing.
 *
 * <p>Generation numbers only grow, across restarts too: the first one is above both the wall
 * clock in microseconds and the last number the previous owner published (the caller passes
 * it, from the runtime directory).
 *
 * <p>Threads: one producer at a time calls {@link #claim()} and {@link #publish}; only the owner
 * thread calls {@link #adoptPending()} and {@link #current()}.
 */
public final class SceneStore implements AutoCloseable {
    private final ScenePacket[] pool;
    private final AtomicReference<ScenePacket> pending = new AtomicReference<>();
    /** Owner (producer) to source (consumer); holds every packet at most once, so never full. */
    private final OneToOneRing<ScenePacket> freeRing;
    private final AtomicLong lastGeneration;
    /** Published by the owner thread; others may read it (e.g. to persist it). */
    private volatile long currentGeneration;
    private volatile Runnable publishListener = () -> { };
    /** Written and read by the owner thread only. */
    private ScenePacket current;
    /** Packets the source got back from the pending slot; source thread only. */
    private ScenePacket sourceSpare;

    /**
     * @param packets pool size, at least 3 (one read by the owner, one pending, one being built).
     * @param generationBefore the first scene published gets this + 1; production passes
     *     {@link #seedGeneration(long)}.
     */
    public SceneStore(final int packets, final int maxTargets, final int maxTextBytes,
        final long generationBefore) {
        if (packets < 3) {
            throw new IllegalArgumentException("a scene store needs at least 3 packets, got " + packets);
        }
        pool = new ScenePacket[packets];
        freeRing = new OneToOneRing<>(packets);
        for (int i = 0; i < packets; i++) {
            pool[i] = new ScenePacket(maxTargets, maxTextBytes);
            freeRing.offer(pool[i]);
        }
        lastGeneration = new AtomicLong(generationBefore);
    }

    /**
     * Where a new owner's numbering starts: above the wall clock in microseconds and above the
     * last generation an earlier owner published, so that a batch validated against an older
     * owner's generation is stale here, never matched by accident.
     */
    public static long seedGeneration(final long lastPublishedGeneration) {
        return Math.max(System.currentTimeMillis() * 1000L, lastPublishedGeneration);
    }

    /** Runs on the publishing thread after each publish, e.g. to wake an idle owner. */
    public void publishListener(final Runnable listener) {
        publishListener = listener;
    }

    // ---- source side ----

    /**
     * A reset packet to build the next scene in. Waits (on the source thread, never the owner)
     * while every packet is in use, which lasts at most until the owner's next tick.
     */
    public ScenePacket claim() {
        ScenePacket packet = sourceSpare;
        sourceSpare = null;
        while (packet == null) {
            packet = freeRing.poll();
            if (packet == null) {
                LockSupport.parkNanos(50_000);
            }
        }
        return packet.reset();
    }

    /** Gives back a claimed packet without publishing it. */
    public void abandon(final ScenePacket packet) {
        sourceSpare = packet;
    }

    /**
     * Seals the packet as the next generation and makes it the pending scene.
     *
     * @return its generation number.
     */
    public long publish(final ScenePacket packet) {
        final long generation = lastGeneration.incrementAndGet();
        packet.seal(generation);
        final ScenePacket replaced = pending.getAndSet(packet);
        if (replaced != null) {
            sourceSpare = replaced; // never adopted: nobody reads it
        }
        publishListener.run();
        return generation;
    }

    /** The highest generation handed out so far (any thread). */
    public long lastGeneration() {
        return lastGeneration.get();
    }

    // ---- owner side ----

    /** Makes the pending scene current. @return 1 if a new generation became current, else 0. */
    public int adoptPending() {
        final ScenePacket next = pending.getAndSet(null);
        if (next == null) {
            return 0;
        }
        final ScenePacket previous = current;
        current = next;
        currentGeneration = next.sceneEpoch();
        if (previous != null) {
            freeRing.offer(previous);
        }
        return 1;
    }

    /** The scene requests read now, or null before the first publication. Owner thread. */
    public ScenePacket current() {
        return current;
    }

    /** The current generation, readable from any thread; 0 before the first. */
    public long currentGeneration() {
        return currentGeneration;
    }

    @Override
    public void close() {
        for (final ScenePacket packet : pool) {
            packet.close();
        }
    }
}
