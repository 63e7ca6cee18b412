package dev.saccade.owner;

import dev.saccade.ipc.FrameChannel;
import dev.saccade.owner.scene.SceneStore;
import dev.saccade.protocol.CompletionFlyweight;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.newsclub.net.unix.AFUNIXSocketChannel;
import org.newsclub.net.unix.AFUNIXSocketCredentials;
import org.newsclub.net.unix.FileDescriptorCast;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The owner thread's work: adopt the newest scene, accept a waiting client into a free slot,
 * then advance every connection by one small non-blocking step (read more of a frame, serve a
 * complete one, re-examine a parked read, write more of a reply). {@link #doWork(long)} never
 * blocks and, in steady state, allocates nothing: each slot owns a fixed request and response
 * buffer for as long as the agent lives.
 *
 * <p>Beyond the configured number of clients, new connections wait in the listen backlog until
 * a slot frees up (spec §1.1). Slots are given back by idle connections: one that has not
 * completed Hello within the Hello timeout is closed (§1.3), and while every slot is taken and a
 * client waits, the connection idle longest (at least {@link #EVICT_IDLE_NS}, between requests,
 * holding no input lease) is closed to make room. A slot's 2 MiB of buffers are allocated when
 * a connection first uses it and kept.
 *
 * <p>Once every connection waits for its next request (or holds one parked for a newer
 * generation), holding no input, the agent is calm: it arms each socket in its
 * {@link ClientReadiness} and the owner sleeps on them instead of looking every millisecond (D69).
 *
 * <p>Owner thread only.
 */
public final class OwnerAgent implements LoopAgent {
    private static final Logger LOG = LoggerFactory.getLogger(OwnerAgent.class);
    private static final int FREE = 0;
    private static final int READING = 1;
    private static final int WRITING = 2;
    private static final int PARKED = 3;
    private static final long PEER_CHECK_INTERVAL_NS = 20_000_000;
    /** A connection idle this long may be evicted for a waiting client (§1.1). */
    static final long EVICT_IDLE_NS = 1_000_000_000L;

    private final EndpointAcceptor acceptor;
    private final SceneStore scenes;
    private final AgentService service;
    private final FrameChannel[] channels;
    private final AgentSession[] sessions;
    private final int[] states;
    /** When each parked slot next looks for its peer having gone (a syscall, so not every tick). */
    private final long[] nextPeerCheckNs;
    /** When each slot's connection was attached, and last completed a request or reply. */
    private final long[] attachedNs;
    private final long[] activeNs;
    /** Each slot's socket descriptor for {@link #readiness}; -1 while free or unknown. */
    private final int[] fds;
    /** A parked slot whose socket woke a calm owner and is still parked: it keeps the owner looking. */
    private final boolean[] restless;
    /** Null: the owner is never calm and looks at its sockets within its park cap. */
    private ClientReadiness readiness;
    private long helloTimeoutNs = TimeUnit.MILLISECONDS.toNanos(
        OwnerConfiguration.helloTimeoutMs());
    private long helloTimeouts;
    private long evictions;
    private long acceptFailures;
    /** Lease ids handed to connections: unique for this owner, never 0. */
    private long leases;
    /** Written by the owner thread on connect and disconnect only. */
    private volatile int connected;
    private long serviceFailures;
    private boolean closed;

    /**
     * @param acceptor started with {@code maxClients} slots; it hands over checked connections.
     */
    public OwnerAgent(final EndpointAcceptor acceptor, final SceneStore scenes, final int maxClients) {
        this(acceptor, new AgentService(scenes), scenes, maxClients);
    }

    public OwnerAgent(final EndpointAcceptor acceptor, final AgentService service, final SceneStore scenes,
        final int maxClients) {
        if (maxClients < 1) {
            throw new IllegalArgumentException("maxClients must be at least 1, got " + maxClients);
        }
        this.acceptor = acceptor;
        this.scenes = scenes;
        // Replies are written by FrameChannel here: the whole-desktop observe's body goes out
        // from the service's shared buffer, not copied per reply.
        this.service = service.gatherReplies();
        channels = new FrameChannel[maxClients];
        sessions = new AgentSession[maxClients];
        states = new int[maxClients];
        nextPeerCheckNs = new long[maxClients];
        attachedNs = new long[maxClients];
        activeNs = new long[maxClients];
        fds = new int[maxClients];
        restless = new boolean[maxClients];
        for (int i = 0; i < maxClients; i++) {
            sessions[i] = new AgentSession(); // the channel comes with the slot's first connection
        }
    }

    /**
     * Lets the owner sleep on its clients' sockets through {@code readiness} (D69), which this
     * agent closes with itself. Before the first tick.
     */
    public OwnerAgent wakeBy(final ClientReadiness readiness) {
        this.readiness = readiness;
        return this;
    }

    /** What a calm owner sleeps on, or null; for tests. */
    ClientReadiness readiness() {
        return readiness;
    }

    /** How long a new connection may take to complete Hello (§1.3). Before the first tick. */
    public OwnerAgent helloTimeout(final Duration timeout) {
        helloTimeoutNs = timeout.toNanos();
        return this;
    }

    /** Connections closed for not completing Hello in time. Owner thread. */
    public long helloTimeouts() {
        return helloTimeouts;
    }

    /** Idle connections closed to make room for a waiting client. Owner thread. */
    public long evictions() {
        return evictions;
    }

    public AgentService service() {
        return service;
    }

    /** Clients connected now. Owner thread. */
    public int connectedClients() {
        int n = 0;
        for (final int state : states) {
            if (state != FREE) {
                n++;
            }
        }
        return n;
    }

    /**
     * No client connected: no socket to poll, so every new piece of work arrives with an unpark
     * (the acceptor's, a scene publication's). Owner thread.
     */
    @Override
    public boolean quiescent() {
        return connected == 0;
    }

    /** Clients connected, as last counted by the owner thread; readable from any thread. */
    public int connectedClientsSeen() {
        return connected;
    }

    public long serviceFailures() {
        return serviceFailures;
    }

    /** One tick. @return the number of things done; 0 lets the idle strategy back off. */
    @Override
    public int doWork(final long nowNs) {
        if (readiness != null && readiness.takeSocketsReady()) {
            noticeParkedPeers(nowNs);
        }
        service.tick(nowNs);
        int work = scenes.adoptPending();
        work += acceptOne(nowNs);
        for (int i = 0; i < states.length; i++) {
            switch (states[i]) {
                case READING:
                    if (!sessions[i].authenticated() && nowNs - attachedNs[i] > helloTimeoutNs) {
                        helloTimeouts++;
                        disconnect(i); // §1.3: no Hello in time; unauthenticated, nothing to neutralize
                        work++;
                        break;
                    }
                    work += read(i, nowNs);
                    break;
                case PARKED:
                    work += parked(i, nowNs);
                    break;
                case WRITING:
                    work += write(i);
                    break;
                default:
                    break;
            }
        }
        if (connected == states.length && acceptor.clientWaiting()) {
            work += evictLongestIdle(nowNs);
        }
        return work;
    }

    /**
     * D69: every connection waits for its next request (authenticated, nothing of one read yet)
     * or holds a read parked for a newer generation, no input is held, and a slot is free for a
     * newcomer. Then each socket is armed (a parked one for its close only: its next bytes wait
     * for the reply) and the owner may sleep until the earliest parked read's deadline.
     */
    @Override
    public long calmNs(final long nowNs) {
        if (readiness == null || connected == 0 || connected == states.length) {
            return 0;
        }
        long until = Long.MAX_VALUE;
        for (int i = 0; i < states.length; i++) {
            final AgentSession s = sessions[i];
            if (states[i] == FREE) {
                readiness.disarm(i);
                continue;
            }
            final boolean between = states[i] == READING && !channels[i].midFrame();
            final boolean parkedRead = states[i] == PARKED && s.parked && !s.batch.active() && !restless[i];
            if (!between && !parkedRead || fds[i] < 0 || !s.authenticated() || service.holdsInput(s)) {
                return 0;
            }
            readiness.arm(i, fds[i], between);
            if (parkedRead && s.parkDeadlineNs < until) {
                until = s.parkDeadlineNs;
            }
        }
        return until == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(0, until - nowNs);
    }

    /** A parked connection's socket woke the owner: it may have closed, so look now (D69). */
    private void noticeParkedPeers(final long nowNs) {
        for (int i = 0; i < states.length; i++) {
            if (states[i] == PARKED && readiness.ready(i)) {
                nextPeerCheckNs[i] = nowNs;
                restless[i] = true; // if it did not close, its readiness stays: poll it each ms till it is answered
            }
        }
    }

    /**
     * §1.1's fair policy when every slot is taken and a client waits: the connection idle longest,
     * at least {@link #EVICT_IDLE_NS}, between requests and holding no input lease, is closed
     * (neutralized like any disconnect); its client reconnects when it next needs the service.
     */
    private int evictLongestIdle(final long nowNs) {
        int oldest = -1;
        for (int i = 0; i < states.length; i++) {
            if (states[i] == READING && !channels[i].midFrame() && nowNs - activeNs[i] >= EVICT_IDLE_NS
                && (oldest < 0 || activeNs[i] - activeNs[oldest] < 0) && !service.holdsInput(sessions[i])) {
                oldest = i;
            }
        }
        if (oldest < 0) {
            return 0;
        }
        evictions++;
        LOG.info("event=idle_evicted pid={} idle_ms={}", sessions[oldest].peerPid(), (nowNs - activeNs[oldest]) / 1_000_000);
        disconnect(oldest);
        return 1;
    }

    /** Takes at most one connection the acceptor queued; it reserved a free slot for it. */
    private int acceptOne(final long nowNs) {
        final AFUNIXSocketChannel socket = acceptor.poll();
        if (socket == null) {
            return 0;
        }
        int slot = 0;
        while (states[slot] != FREE) {
            slot++;
        }
        try {
            if (channels[slot] == null) {
                channels[slot] = new FrameChannel();
            }
            channels[slot].attach(socket);
            fds[slot] = descriptor(socket);
            restless[slot] = false;
            attachedNs[slot] = nowNs;
            activeNs[slot] = nowNs;
            final AFUNIXSocketCredentials peer = socket.getPeerCredentials();
            sessions[slot].reset(peer == null ? -1 : peer.getPid(), ++leases);
            states[slot] = READING;
            connected++;
        } catch (final IOException e) {
            if (acceptFailures++ == 0) {
                LOG.warn("event=attach_failed error={}", e.toString());
            }
            closeQuietly(socket);
            acceptor.slotFreed();
        }
        return 1;
    }

    /** The socket's descriptor for {@link ClientReadiness}, or -1 (that connection keeps the owner looking). */
    private int descriptor(final AFUNIXSocketChannel socket) {
        if (readiness == null) {
            return -1;
        }
        try {
            return FileDescriptorCast.using(socket.getFileDescriptor()).as(Integer.class);
        } catch (final IOException | RuntimeException e) {
            LOG.warn("event=descriptor_unknown error={} effect=owner_polls_each_ms", e.toString());
            return -1;
        }
    }

    private static void closeQuietly(final AFUNIXSocketChannel socket) {
        try {
            socket.close();
        } catch (final IOException ignore) {
            // the connection is being dropped anyway; nothing was written to it
        }
    }

    private int read(final int i, final long nowNs) {
        final FrameChannel ch = channels[i];
        final int r = ch.readStep();
        if (r == FrameChannel.NEED_MORE) {
            return 0;
        }
        if (r == FrameChannel.CLOSED) {
            disconnect(i);
            return 1;
        }
        activeNs[i] = nowNs;
        final int reply;
        try {
            reply = service.onFrame(sessions[i], ch.requestStore(), ch.requestOffset(), ch.frameLength(),
                ch.responseStore(), ch.responseOffset(), ch.maxResponseBytes(), nowNs);
        } catch (final RuntimeException e) {
            failed(i, e);
            return 1;
        }
        return afterService(i, reply);
    }

    private int parked(final int i, final long nowNs) {
        final FrameChannel ch = channels[i];
        if (nowNs - nextPeerCheckNs[i] >= 0) {
            nextPeerCheckNs[i] = nowNs + PEER_CHECK_INTERVAL_NS;
            if (ch.checkPeerWhileHeld() == FrameChannel.CLOSED) {
                disconnect(i); // a client that left while waiting frees its slot now, not at the deadline
                return 1;
            }
        }
        final int reply;
        try {
            reply = service.onParkedTick(sessions[i], ch.requestStore(), ch.requestOffset(),
                ch.responseStore(), ch.responseOffset(), ch.maxResponseBytes(), nowNs);
        } catch (final RuntimeException e) {
            failed(i, e);
            return 1;
        }
        return reply == AgentService.PARKED ? 0 : afterService(i, reply);
    }

    private int afterService(final int i, final int reply) {
        restless[i] = false;
        if (reply == AgentService.CLOSE) {
            disconnect(i);
        } else if (reply == AgentService.PARKED) {
            states[i] = PARKED;
            nextPeerCheckNs[i] = System.nanoTime() + PEER_CHECK_INTERVAL_NS;
        } else {
            final ByteBuffer tail = service.takeReplyTail();
            if (tail == null) {
                channels[i].beginReply(reply);
            } else {
                channels[i].beginReply(reply, tail, CompletionFlyweight.LENGTH);
            }
            states[i] = WRITING;
            write(i); // most replies fit the socket buffer: finish now, not next tick
        }
        return 1;
    }

    private int write(final int i) {
        final int r = channels[i].writeStep();
        if (r == FrameChannel.IDLE) {
            service.replySent(sessions[i]);
            states[i] = READING;
            activeNs[i] = System.nanoTime(); // idle time counts from the reply, not the request
            return 1;
        }
        if (r == FrameChannel.CLOSED) {
            disconnect(i);
            return 1;
        }
        return 0;
    }

    /** A bug, not bad input: answered by dropping that client, counted, and logged once. */
    private void failed(final int i, final RuntimeException e) {
        if (serviceFailures++ == 0) {
            LOG.error("event=service_failure pid={}", sessions[i].peerPid(), e);
        }
        disconnect(i);
    }

    private void disconnect(final int i) {
        service.onDisconnect(sessions[i]);
        fds[i] = -1;
        restless[i] = false;
        channels[i].disconnect();
        states[i] = FREE;
        connected--;
        acceptor.slotFreed();
    }

    /** Disconnects every client (neutralizing each), then frees the buffers. Owner thread. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int i = 0; i < states.length; i++) {
            if (states[i] != FREE) {
                disconnect(i);
            }
            if (channels[i] != null) {
                channels[i].close();
            }
        }
        for (AFUNIXSocketChannel queued = acceptor.poll(); queued != null; queued = acceptor.poll()) {
            closeQuietly(queued); // accepted but never served: unauthenticated, nothing to neutralize
        }
        service.close();
        if (readiness != null) {
            readiness.close();
        }
    }
}
