package dev.saccade.owner;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link LoopAgent} (the {@link OwnerAgent}) on its own thread, named for its role, until
 * stopped; then closes it on that same thread, so the agent's single-writer rule holds to the end.
 * An exception thrown by a step is counted and logged by kind ({@link LoopErrors}) and the loop
 * goes on, as one bad request must not take the desktop from every agent; an {@link Error} is
 * fatal and ends it.
 */
public final class OwnerRunner implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OwnerRunner.class);
    public static final String THREAD_NAME = "saccade-owner";

    private final LoopAgent agent;
    private final OwnerIdleStrategy idle;
    private final Thread thread;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean running = true;
    private volatile Throwable failure;
    private final LoopErrors errors;

    public OwnerRunner(final LoopAgent agent, final OwnerIdleStrategy idle) {
        this.agent = agent;
        this.idle = idle;
        this.thread = new Thread(this::run, THREAD_NAME);
        this.errors = new LoopErrors(LOG, THREAD_NAME);
    }

    public OwnerRunner start() {
        thread.start();
        return this;
    }

    public Thread thread() {
        return thread;
    }

    /** Why the loop died (a fatal error), or null. */
    public Throwable failure() {
        return failure;
    }

    /** Exceptions the loop survived so far; readable from any thread. */
    public long errorCount() {
        return errors.total();
    }

    private void run() {
        idle.bindOwner();
        try {
            while (running) {
                final long nowNs = System.nanoTime();
                int work = 0;
                try {
                    work = agent.doWork(nowNs);
                } catch (final Throwable t) {
                    if (LoopErrors.fatal(t)) {
                        throw t;
                    }
                    errors.record(t);
                }
                idle.idle(work, nowNs, work == 0 && agent.quiescent(), agent);
            }
        } catch (final Throwable t) {
            failure = t;
            LOG.error("event=owner_loop_died errors={}", errors.total(), t);
        } finally {
            agent.close();
            stopped.countDown();
        }
    }

    /** Stops the loop and waits for it to close the agent. */
    @Override
    public void close() {
        running = false;
        idle.wake();
        try {
            if (!stopped.await(5, TimeUnit.SECONDS)) {
                LOG.error("event=owner_stop_timeout thread={}", thread.getName());
            } else if (Thread.currentThread() != thread) {
                thread.join(1_000); // the loop has closed its agent; closed means its thread is gone too
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt(); // the caller's to see: close() does not throw it
        }
    }
}
