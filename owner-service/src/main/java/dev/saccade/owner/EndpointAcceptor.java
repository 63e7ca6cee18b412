package dev.saccade.owner;

import dev.saccade.ipc.EndpointListener;
import dev.saccade.ipc.OneToOneRing;
import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.newsclub.net.unix.AFUNIXSocketChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Accepts clients on its own thread and hands each checked connection to the owner thread.
 * junixsocket's accept allocates several kilobytes per call, even when nothing is pending, so
 * the owner never calls it: this thread sleeps in a selector until a client is waiting, accepts
 * only while the owner has a free slot (otherwise clients wait in the listen backlog), runs the
 * peer check, and queues the channel.
 */
public final class EndpointAcceptor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EndpointAcceptor.class);
    public static final String THREAD_NAME = "saccade-acceptor";
    /**
     * How long a full acceptor parks before it looks again (the owner unparks it when a slot
     * frees). Its select has no timeout: {@link #close()} wakes it, so an idle owner's acceptor
     * never wakes.
     */
    private static final long FULL_PARK_MS = 200;

    /** Set before the thread starts (constructor or {@link #start(EndpointListener)}); read by it. */
    private EndpointListener listener;
    private final OneToOneRing<AFUNIXSocketChannel> accepted;
    /** Slots the owner can still fill: taken here when queueing, given back by the owner. */
    private final AtomicInteger freeSlots;
    private final int slots;
    private final Runnable wakeOwner;
    private final Thread thread;
    private Selector selector;
    private volatile boolean running = true;
    /** Every slot is taken and a client waits in the backlog (agent-abi §1.1's eviction). */
    private volatile boolean clientWaiting;

    public EndpointAcceptor(final EndpointListener listener, final int slots, final Runnable wakeOwner)
        throws IOException {
        this(slots, wakeOwner);
        this.selector = listener.serverChannel().provider().openSelector();
        this.listener = listener;
    }

    /**
     * An acceptor whose listener comes later ({@link #start(EndpointListener)}): a supervised
     * owner builds everything else before its supervisor hands it the listener, so the handoff
     * itself is only this thread's start.
     */
    public EndpointAcceptor(final int slots, final Runnable wakeOwner) {
        this.accepted = new OneToOneRing<>(slots);
        this.freeSlots = new AtomicInteger(slots);
        this.slots = slots;
        this.wakeOwner = wakeOwner;
        this.thread = new Thread(this::run, THREAD_NAME);
        thread.setDaemon(true);
    }

    public EndpointAcceptor start() {
        thread.start();
        return this;
    }

    /** Starts accepting on {@code endpoint}, for an acceptor built without one. */
    public EndpointAcceptor start(final EndpointListener endpoint) throws IOException {
        if (listener != null) {
            throw new IllegalStateException("this acceptor has a listener already");
        }
        selector = endpoint.serverChannel().provider().openSelector();
        listener = endpoint;
        return start();
    }

    /** Owner thread: the next accepted connection, or null. */
    public AFUNIXSocketChannel poll() {
        return accepted.poll();
    }

    /**
     * Any thread: no client is connected and none is queued for the owner (a queued channel
     * holds a slot until the owner serves it and gives the slot back).
     */
    public boolean allSlotsFree() {
        return freeSlots.get() == slots;
    }

    /**
     * Any thread: every slot is taken and a client is waiting in the listen backlog, as last seen
     * (at most {@value #FULL_PARK_MS} ms ago); the owner may then evict an idle connection.
     */
    public boolean clientWaiting() {
        return clientWaiting;
    }

    /** Owner thread: a slot became free. */
    public void slotFreed() {
        freeSlots.incrementAndGet();
        LockSupport.unpark(thread);
    }

    private void run() {
        final Selector selector = this.selector;
        try (selector) {
            final SelectionKey key = listener.serverChannel().register(selector, SelectionKey.OP_ACCEPT);
            while (running) {
                if (freeSlots.get() == 0) {
                    LockSupport.parkNanos(this, FULL_PARK_MS * 1_000_000L);
                    // full: look (without accepting) whether someone waits for a slot
                    clientWaiting = freeSlots.get() == 0 && selector.selectNow() > 0;
                    selector.selectedKeys().clear();
                    continue;
                }
                if (selector.select() == 0) {
                    continue;
                }
                selector.selectedKeys().clear();
                if (!key.isValid()) {
                    break;
                }
                acceptPending();
            }
        } catch (final IOException e) {
            if (running) {
                LOG.error("event=acceptor_failed endpoint={}", listener.path(), e);
            }
        }
    }

    private void acceptPending() {
        long refusedBefore = listener.refusedPeers();
        while (running && freeSlots.get() > 0) {
            final AFUNIXSocketChannel channel;
            try {
                channel = listener.acceptNonBlocking();
            } catch (final IOException e) {
                LOG.warn("event=accept_failed endpoint={} error={}", listener.path(), e.toString());
                return;
            }
            if (channel == null) {
                if (listener.refusedPeers() == refusedBefore) {
                    return; // nothing pending
                }
                refusedBefore = listener.refusedPeers(); // a foreign peer; another may be behind it
                continue;
            }
            clientWaiting = false;
            freeSlots.decrementAndGet();
            accepted.offer(channel); // room: one ring slot per owner slot
            wakeOwner.run();
        }
    }

    /** Stops accepting; connections already queued stay queued for the owner to close. */
    @Override
    public void close() {
        if (!running && !thread.isAlive()) {
            return; // closed already (a drained owner closes again at exit): its selector is gone
        }
        running = false;
        LockSupport.unpark(thread);
        if (selector != null) {
            selector.wakeup();
        }
        if (thread.isAlive()) {
            try {
                thread.join(2_000);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt(); // the caller's to see: close() does not throw it
            }
        }
    }
}
