package dev.saccade.client;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Gives an adapter's idle connection back to the service (agent-abi §1.1): after {@link #used()}
 * marks the end of a use, {@code release} runs once nothing used the connection for the idle
 * time. One daemon thread, made on the first use, wakes once per idle period at most and never
 * while nothing is connected. The owner of the connection calls {@link #used()} holding
 * {@code lock}; the release runs holding it too, and not while {@code inUse} says a call is
 * under way.
 */
public final class IdleRelease implements AutoCloseable {
    private final String threadName;
    private final long idleNs;
    private final Object lock;
    private final BooleanSupplier connected;
    private final BooleanSupplier inUse;
    private final Runnable release;
    private ScheduledExecutorService timer;
    private boolean scheduled;
    private long idleSinceNs;

    public IdleRelease(final String threadName, final long idleNs, final Object lock, final BooleanSupplier connected,
        final BooleanSupplier inUse, final Runnable release) {
        this.threadName = threadName;
        this.idleNs = idleNs;
        this.lock = lock;
        this.connected = connected;
        this.inUse = inUse;
        this.release = release;
    }

    /** A use of the connection ended now. Call holding the lock. */
    public void used() {
        idleSinceNs = System.nanoTime();
        if (!scheduled && connected.getAsBoolean()) {
            schedule(idleNs);
        }
    }

    private void schedule(final long delayNs) {
        if (timer == null) {
            timer = Executors.newSingleThreadScheduledExecutor(r -> {
                final Thread t = new Thread(r, threadName);
                t.setDaemon(true);
                return t;
            });
        }
        scheduled = true;
        timer.schedule(this::check, delayNs, TimeUnit.NANOSECONDS);
    }

    private void check() {
        synchronized (lock) {
            scheduled = false;
            if (!connected.getAsBoolean() || inUse.getAsBoolean()) {
                return; // gone already, or in use: the use's end schedules again
            }
            final long idle = System.nanoTime() - idleSinceNs;
            if (idle >= idleNs) {
                release.run();
            } else {
                schedule(idleNs - idle);
            }
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            if (timer != null) {
                timer.shutdownNow();
            }
        }
    }
}
