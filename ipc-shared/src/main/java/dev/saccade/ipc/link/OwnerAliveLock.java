package dev.saccade.ipc.link;

import com.sun.jna.Memory;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The owner's death notice that comes before its lifeline's end of file. A killed owner's
 * descriptors (the lifeline among them) close only after every one of its threads has exited and
 * its address space is torn down: on a loaded machine 30–45 ms after {@code kill -9} (OwnerKillIT
 * measured kill → lifeline EOF 42.6 ms, EOF → release 1.4 ms), over the 20 ms the release owes
 * (architecture.md §7, "lifeline end of file"). A robust mutex is released by the kernel as its
 * holder thread exits, before any of that: one owner thread holds the mutex in the link's control
 * block ({@link LinkFileDescriptor#ALIVE_LOCK_OFFSET}) for the link's life, and a helper thread
 * waits for it; the wait ends with EOWNERDEAD when the owner dies, however it dies, or with the
 * mutex itself when the owner closes its side.
 *
 * <p>Both threads sleep in the kernel: no poll while the owner lives, except the helper's wait,
 * which times out once a second to see whether it was closed; the helper's mapping stays until
 * that thread has let go of the mutex ({@link #closeThen}). Linux with glibc only
 * ({@link RobustMutex}); elsewhere, or for an owner without the lock, the lifeline alone tells.
 */
public final class OwnerAliveLock implements AutoCloseable {
    /** The owner's thread died (kill, crash): the kernel handed the mutex over as OWNER_DIED. */
    public static final int OWNER_DIED = 4;
    /** The owner unlocked the mutex: it closed its side of the link. */
    public static final int OWNER_CLOSED = 5;

    private static final Logger LOG = LoggerFactory.getLogger(OwnerAliveLock.class);
    private static final long WAIT_SLICE_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long JOIN_MS = TimeUnit.SECONDS.toMillis(3);

    private final long address;
    private Thread thread;
    /** Written by the closing thread. */
    private volatile boolean closing;
    private volatile int result = -1;
    private boolean closed;
    /** Helper side: whether the wait has ended, and what is to run once it has; guarded by this. */
    private boolean waitEnded;
    private Runnable afterWait;

    private OwnerAliveLock(final long address) {
        this.address = address;
    }

    private void start(final Runnable body, final String name) {
        thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Owner side, on a link it just created: initialises the mutex, has a new thread take it and
     * hold it until {@link #close()}, then marks the lock held. Null when this platform has no
     * robust mutex or the lock could not be taken (logged): the link works on its lifeline alone.
     */
    static OwnerAliveLock hold(final LinkMapping mapping) {
        if (!RobustMutex.available()) {
            return null;
        }
        final long address = mapping.address() + LinkFileDescriptor.ALIVE_LOCK_OFFSET;
        final int init = RobustMutex.init(address);
        if (init != RobustMutex.OK) {
            LOG.warn("event=alive-lock-unavailable step=init rc={}", init);
            return null;
        }
        final CountDownLatch taken = new CountDownLatch(1);
        final OwnerAliveLock lock = new OwnerAliveLock(address);
        lock.start(() -> lock.holdUntilClosed(taken), "saccade-link-alive-lock");
        try {
            taken.await();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (lock.result != RobustMutex.OK) {
            LOG.warn("event=alive-lock-unavailable step=lock rc={}", lock.result);
            return null;
        }
        mapping.store().writeOrderedInt(LinkFileDescriptor.ALIVE_LOCK_HELD_OFFSET, 1);
        return lock;
    }

    /**
     * Helper side: a new thread waits for the owner's lock and calls {@code listener} once, with
     * {@link #OWNER_DIED} or {@link #OWNER_CLOSED} and the time it saw it, unless {@link #close()}
     * came first. Null when the owner holds no lock or this platform has none.
     */
    static OwnerAliveLock watch(final LinkMapping mapping, final LifelineListener listener) {
        if (!RobustMutex.available() || mapping.store().readVolatileInt(LinkFileDescriptor.ALIVE_LOCK_HELD_OFFSET) != 1) {
            return null;
        }
        final OwnerAliveLock lock = new OwnerAliveLock(mapping.address() + LinkFileDescriptor.ALIVE_LOCK_OFFSET);
        lock.start(() -> lock.waitForOwner(listener), "saccade-link-alive-watch");
        return lock;
    }

    private void holdUntilClosed(final CountDownLatch taken) {
        result = RobustMutex.lock(address);
        taken.countDown();
        if (result != RobustMutex.OK) {
            return;
        }
        while (!closing) {
            LockSupport.park(this);
        }
        RobustMutex.unlock(address);
    }

    private void waitForOwner(final LifelineListener listener) {
        try {
            waitAndTell(listener);
        } finally {
            final Runnable then;
            synchronized (this) {
                waitEnded = true;
                then = afterWait;
                afterWait = null;
            }
            if (then != null) {
                then.run();
            }
        }
    }

    private void waitAndTell(final LifelineListener listener) {
        final Memory timespec = new Memory(2 * Long.BYTES);
        int rc;
        do {
            rc = RobustMutex.lockUntil(address, System.nanoTime() + WAIT_SLICE_NS, timespec);
        } while (rc == RobustMutex.ETIMEDOUT && !closing);
        final long nowNs = System.nanoTime();
        if (rc == RobustMutex.EOWNERDEAD) {
            RobustMutex.consistent(address);
        }
        if (rc == RobustMutex.OK || rc == RobustMutex.EOWNERDEAD) {
            RobustMutex.unlock(address); // never leave this thread's robust list pointing into the mapping
        }
        result = rc;
        if (closing || (rc != RobustMutex.OK && rc != RobustMutex.EOWNERDEAD)) {
            if (!closing) {
                LOG.warn("event=alive-lock-wait-failed rc={}", rc);
            }
            return;
        }
        final int reason = rc == RobustMutex.EOWNERDEAD ? OWNER_DIED : OWNER_CLOSED;
        try {
            listener.onLifelineLost(reason, nowNs);
        } catch (final RuntimeException | Error e) {
            LOG.error("event=alive-lock-listener-failed", e);
        }
        LOG.info("event=alive-lock-lost reason={}", reason == OWNER_DIED ? "OWNER_DIED" : "OWNER_CLOSED");
    }

    /**
     * Helper side: ends the wait without calling the listener, and runs {@code then} (the unmap)
     * once the waiting thread has let go of the mutex: now, if its wait has already ended, else on
     * that thread within a second. So closing never waits: a supervisor's helper that closed its
     * lifeline has 100 ms to exit before its owner kills it (InputHelperLauncher.reopenExternal).
     */
    void closeThen(final Runnable then) {
        closed = true;
        closing = true;
        final boolean now;
        synchronized (this) {
            now = waitEnded;
            if (!now) {
                afterWait = then;
            }
        }
        if (now) {
            then.run();
        }
    }

    /**
     * Owner side: unlocks (the helper sees {@link #OWNER_CLOSED}) and waits for the holding
     * thread, which is parked and leaves at once, so the mapping may be unmapped next.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        closing = true;
        LockSupport.unpark(thread);
        try {
            thread.join(JOIN_MS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.warn("event=alive-lock-thread-stuck thread={}", thread.getName());
        }
    }
}
