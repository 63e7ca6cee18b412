package dev.saccade.pcp;

import dev.saccade.ipc.EndpointListener;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.newsclub.net.unix.AFUNIXSocketChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The external transport of one {@link PcpDispatcher}: newline-delimited JSON-RPC 2.0 on a Unix
 * socket (bound, permission-set and peer-uid-checked by {@link EndpointListener}) and, only when
 * given a port and a bearer token, on loopback TCP. A TCP client's first line must be
 * {@code Authorization: Bearer <token>}; anything else closes the connection unanswered.
 *
 * <p>One acceptor thread per listener; each connection runs its own threads
 * ({@link JsonRpcConnection}). At most {@code maxConnections} at once: when all are taken, an
 * idle connection of the process holding the most makes room for the new one (pcp §9); when none
 * can, the new one is closed at accept.
 */
public final class PcpServer implements AutoCloseable {
    public static final String AUTHORIZATION_PREFIX = "Authorization: Bearer ";
    private static final Logger LOG = LoggerFactory.getLogger(PcpServer.class);
    /** How long a TCP client has to present its token. */
    private static final int AUTH_TIMEOUT_MS = 5_000;
    /** TCP clients presenting their token at once, at most: each holds a thread for up to the auth timeout. */
    private static final int MAX_AUTHENTICATING = 16;
    private static final long ACCEPT_RETRY_NS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(50);

    private final PcpDispatcher dispatcher;
    private final int maxLineBytes;
    private final int maxConnections;
    private final int rateCapacity;
    private final int ratePerSecond;
    private final Set<JsonRpcConnection> connections = ConcurrentHashMap.newKeySet();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong evicted = new AtomicLong();
    /** A connection idle this long may be closed for a new one when all are taken (pcp §9). */
    static final long EVICT_IDLE_NS = 1_000_000_000L;
    private final java.util.concurrent.atomic.AtomicInteger authenticating = new java.util.concurrent.atomic.AtomicInteger();
    private EndpointListener unix;
    private Selector selector;
    private ServerSocket tcp;
    private byte[] bearerToken;
    private volatile boolean closed;

    private PcpServer(final PcpDispatcher dispatcher, final int maxLineBytes, final int maxConnections,
        final int rateCapacity, final int ratePerSecond) {
        this.dispatcher = dispatcher;
        this.maxLineBytes = maxLineBytes;
        this.maxConnections = maxConnections;
        this.rateCapacity = rateCapacity;
        this.ratePerSecond = ratePerSecond;
    }

    /**
     * Serves {@code dispatcher} on the Unix socket {@code path} (its directory must exist, 0700).
     *
     * @param rateCapacity burst of requests per connection; {@code ratePerSecond} its refill.
     * @param busyWait how long to wait for a live listener on {@code path} to go away (an
     *     owner being replaced still holds it).
     */
    public static PcpServer serve(final Path path, final PcpDispatcher dispatcher, final int maxLineBytes,
        final int maxConnections, final int rateCapacity, final int ratePerSecond, final Duration busyWait)
        throws IOException {
        final PcpServer server = new PcpServer(dispatcher, maxLineBytes, maxConnections, rateCapacity, ratePerSecond);
        try {
            server.unix = EndpointListener.bind(path, busyWait);
            server.selector = server.unix.serverChannel().provider().openSelector();
            server.unix.serverChannel().register(server.selector, SelectionKey.OP_ACCEPT);
            final Thread acceptor = new Thread(server::acceptUnix, "saccade-pcp-accept-" + path.getFileName());
            acceptor.setDaemon(true);
            acceptor.start();
            LOG.info("event=pcp_bind endpoint={}", path);
            return server;
        } catch (final IOException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /** Also serves on loopback TCP {@code port} (0: any free port), for clients that present {@code token}. */
    public PcpServer serveTcp(final int port, final String token) throws IOException {
        if (token == null || token.length() < 16) {
            throw new IllegalArgumentException("the TCP transport needs a bearer token of at least 16 characters");
        }
        bearerToken = token.getBytes(StandardCharsets.UTF_8);
        tcp = new ServerSocket();
        tcp.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
        final Thread acceptor = new Thread(this::acceptTcp, "saccade-pcp-accept-tcp");
        acceptor.setDaemon(true);
        acceptor.start();
        LOG.info("event=pcp_bind tcp={}", tcp.getLocalSocketAddress());
        return this;
    }

    public int tcpPort() {
        return tcp == null ? -1 : tcp.getLocalPort();
    }

    public Path path() {
        return unix.path();
    }

    public int connections() {
        return connections.size();
    }

    /** Connections closed at accept: over the limit, wrong uid, or a TCP client without the token. */
    public long refusedConnections() {
        return refused.get() + (unix == null ? 0 : unix.refusedPeers());
    }

    private void acceptUnix() {
        while (!closed) {
            try {
                selector.select();
                selector.selectedKeys().clear();
                for (AFUNIXSocketChannel channel = unix.acceptNonBlocking(); channel != null; channel = unix.acceptNonBlocking()) {
                    try {
                        channel.configureBlocking(true);
                        start("unix:" + unix.lastPeerPid(), unix.lastPeerPid(), channel, channel.socket().getInputStream(),
                            channel.socket().getOutputStream());
                    } catch (final IOException e) {
                        refused.incrementAndGet(); // that peer went away at once: the next one is served
                        channel.close();
                    }
                }
            } catch (final java.nio.channels.ClosedSelectorException e) {
                return; // closed
            } catch (final IOException | RuntimeException e) {
                if (closed) {
                    return;
                }
                LOG.warn("event=pcp_accept_failed endpoint={} error={}", unix.path(), e.toString());
                LockSupport.parkNanos(ACCEPT_RETRY_NS); // a lasting failure must not spin a core
            }
        }
    }

    private void acceptTcp() {
        while (!closed) {
            final Socket socket;
            try {
                socket = tcp.accept();
            } catch (final IOException e) {
                if (closed) {
                    return;
                }
                LOG.warn("event=pcp_accept_failed tcp={} error={}", tcp.getLocalSocketAddress(), e.toString());
                LockSupport.parkNanos(ACCEPT_RETRY_NS);
                continue;
            }
            if (authenticating.incrementAndGet() > MAX_AUTHENTICATING) {
                authenticating.decrementAndGet();
                refused.incrementAndGet(); // a connect flood: threads stay bounded
                closeQuietly(socket);
                continue;
            }
            // Authentication reads from the client: off the acceptor, so a silent client blocks nobody else.
            final Thread auth = new Thread(() -> {
                try {
                    authenticate(socket);
                } finally {
                    authenticating.decrementAndGet();
                }
            }, "saccade-pcp-auth");
            auth.setDaemon(true);
            auth.start();
        }
    }

    private void authenticate(final Socket socket) {
        try {
            socket.setSoTimeout(AUTH_TIMEOUT_MS);
            final InputStream in = socket.getInputStream();
            final byte[] line = new byte[AUTHORIZATION_PREFIX.length() + 512];
            int length = 0;
            for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
                if (length == line.length) {
                    throw new IOException("authorization line too long");
                }
                line[length++] = (byte) b;
            }
            final byte[] expected = (AUTHORIZATION_PREFIX + new String(bearerToken, StandardCharsets.UTF_8))
                .getBytes(StandardCharsets.UTF_8);
            final byte[] given = java.util.Arrays.copyOf(line, length);
            if (!MessageDigest.isEqual(expected, given)) { // constant time: no token oracle
                throw new IOException("wrong bearer token");
            }
            socket.setSoTimeout(0);
            start("tcp:" + socket.getPort(), -1, socket, in, socket.getOutputStream());
        } catch (final IOException e) {
            refused.incrementAndGet();
            closeQuietly(socket);
        }
    }

    private static void closeQuietly(final Socket socket) {
        try {
            socket.close();
        } catch (final IOException ignore) {
            // Refusing anyway; the peer learns it from the close.
        }
    }

    private void start(final String name, final long pid, final java.io.Closeable socket, final InputStream in,
        final java.io.OutputStream out) throws IOException {
        if (closed || (connections.size() >= maxConnections && !evictFairly(pid))) {
            refused.incrementAndGet();
            socket.close();
            return;
        }
        final JsonRpcConnection[] self = new JsonRpcConnection[1];
        final JsonRpcConnection connection = new JsonRpcConnection(name, pid, socket, in, out, dispatcher, maxLineBytes,
            new TokenBucket(rateCapacity, ratePerSecond, System.nanoTime()), () -> connections.remove(self[0]));
        self[0] = connection;
        connections.add(connection);
        connection.start();
    }

    /**
     * pcp §9, D27: every connection is taken and one more comes. First choice: a connection holding no
     * registration or subscription, idle at least {@link #EVICT_IDLE_NS} with nothing in flight,
     * of the process holding the most connections, the longest idle. Else, when one process holds
     * more than its share ({@link #fairShare}) and the newcomer ({@code newPid}) is another
     * process, the greedy one's least recently active connection goes,
     * stateless ones first, whatever it holds or does: registering, subscribing or keeping busy
     * never lets one process keep every slot. @return whether one was closed.
     */
    private boolean evictFairly(final long newPid) {
        final long now = System.nanoTime();
        final Map<Long, Integer> perProcess = new HashMap<>();
        for (final JsonRpcConnection c : connections) {
            perProcess.merge(processKey(c), 1, Integer::sum);
        }
        long greedy = 0;
        int most = 0;
        for (final Map.Entry<Long, Integer> e : perProcess.entrySet()) {
            if (e.getValue() > most) {
                greedy = e.getKey();
                most = e.getValue();
            }
        }
        JsonRpcConnection victim = null;
        long victimRank = Long.MIN_VALUE;
        for (final JsonRpcConnection c : connections) {
            final long idle = c.idleNs(now);
            if (idle >= EVICT_IDLE_NS && !c.holdsState()) {
                final long rank = (long) perProcess.get(processKey(c)) << 40 | Math.min(idle >> 20, (1L << 40) - 1);
                if (rank > victimRank) {
                    victim = c;
                    victimRank = rank;
                }
            }
        }
        if (victim == null && most > fairShare() && (newPid <= 0 || newPid != greedy)) {
            for (final JsonRpcConnection c : connections) {
                if (processKey(c) != greedy) {
                    continue;
                }
                final long quiet = Math.min((now - c.lastActiveNs()) >> 20, (1L << 40) - 1);
                final long rank = (c.holdsState() ? 0 : 1L << 40) | Math.max(0, quiet);
                if (rank > victimRank) {
                    victim = c;
                    victimRank = rank;
                }
            }
        }
        if (victim == null) {
            return false;
        }
        evicted.incrementAndGet();
        LOG.info("event=pcp_evicted peer={} quiet_ms={} process_connections={} holds_state={}", victim.name(),
            (now - victim.lastActiveNs()) / 1_000_000, perProcess.get(processKey(victim)), victim.holdsState());
        victim.close(); // its onClose takes it out of the set
        return true;
    }

    /** Connections one process may hold before it gives one up for a newcomer: a quarter of all, at least one. */
    private int fairShare() {
        return Math.max(1, maxConnections / 4);
    }

    /** Connections of one process share a key; a peer of unknown process (TCP) is its own. */
    private static long processKey(final JsonRpcConnection c) {
        return c.pid() > 0 ? c.pid() : -1 - System.identityHashCode(c);
    }

    /** Idle connections closed to make room for a new one. */
    public long evictedConnections() {
        return evicted.get();
    }

    @Override
    public void close() throws IOException {
        closed = true;
        if (selector != null) {
            selector.wakeup();
        }
        for (final JsonRpcConnection c : connections) {
            c.close();
        }
        // Listeners first (no new connections), the selector last; every failure is kept.
        PcpEndpoint.closeAll(tcp, unix, selector);
    }
}
