package dev.saccade.pcp;

import dev.saccade.jsonrpc.JsonLineParser;
import dev.saccade.jsonrpc.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One newline-delimited JSON-RPC 2.0 connection (Unix socket or loopback TCP), seen by PCP Core
 * as a {@link PcpPeer}.
 *
 * <p>Three threads: the reader splits lines (at most {@code maxLineBytes}; a longer line is
 * skipped to its newline and answered -32600, the connection stays), routes Response objects to
 * our outstanding requests at once and queues requests for the worker; the worker runs them in
 * order (so a request that waits on an application never stalls the routing of that
 * application's answers); the writer drains a bounded queue of outgoing lines. Notifications
 * are dropped (and counted) when that queue is full rather than blocking the event source on a
 * slow subscriber; replies wait for room.
 */
final class JsonRpcConnection implements PcpPeer, JsonRpc.Handler, Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(JsonRpcConnection.class);
    static final int OUTBOUND_CAPACITY = 1024;
    /**
     * Characters of outgoing lines queued at most (pcp §2.2): a peer that does not read holds
     * this much of the owner's heap, never more; a reply that finds no room within
     * {@link #SLOW_READER_MS} closes the connection.
     */
    static final long OUTBOUND_MAX_CHARS = 4L << 20;
    /** How long a reply waits for room in the outgoing queue before the connection is closed. */
    static final long SLOW_READER_MS = 5_000;
    static final int PENDING_REQUESTS = 64;

    private final String name;
    /** The peer's process (SO_PEERCRED at accept), -1 when unknown (TCP). */
    private final long pid;
    private final Closeable socket;
    private final InputStream in;
    private final OutputStream out;
    private final PcpDispatcher dispatcher;
    private final int maxLineBytes;
    private final TokenBucket bucket;
    /** Used by the reader thread only. */
    private final JsonLineParser parser = JsonRpc.parser();
    private final Runnable onClose;
    private final BlockingQueue<String> outbound = new ArrayBlockingQueue<>(OUTBOUND_CAPACITY);
    /** Characters in {@link #outbound} and the line being written; guarded by {@link #room}. */
    private long outboundChars;
    /** Waited on by a reply that finds the outgoing queue full; notified by the writer. */
    private final Object room = new Object();
    private final ThreadPoolExecutor worker;
    private final Map<Long, CompletableFuture<Object>> outstanding = new ConcurrentHashMap<>();
    private final AtomicLong nextRequestId = new AtomicLong(1);
    private final AtomicLong droppedNotifications = new AtomicLong();
    /** How long requests still running at EOF may take before the connection is closed anyway. */
    static final long DRAIN_MS = 60_000;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile boolean open = true;
    /** Set by the reader after EOF once the worker is done: the writer closes when its queue is empty. */
    private volatile boolean readerDone;
    private Thread writerThread;
    /** When a line last came in or a reply went out (System.nanoTime): how long the connection is idle. */
    private volatile long activeNs = System.nanoTime();
    /** It registered an application or subscribed to events: the connection itself is state, never evicted. */
    private volatile boolean holdsState;

    JsonRpcConnection(final String name, final long pid, final Closeable socket, final InputStream in,
        final OutputStream out, final PcpDispatcher dispatcher, final int maxLineBytes, final TokenBucket bucket,
        final Runnable onClose) {
        this.name = name;
        this.pid = pid;
        this.socket = socket;
        this.in = in;
        this.out = out;
        this.dispatcher = dispatcher;
        this.maxLineBytes = maxLineBytes;
        this.bucket = bucket;
        this.onClose = onClose;
        this.worker = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(PENDING_REQUESTS),
            r -> daemon(r, "saccade-pcp-worker-" + name));
    }

    private static Thread daemon(final Runnable r, final String threadName) {
        final Thread t = new Thread(r, threadName);
        t.setDaemon(true);
        return t;
    }

    /** Starts the reader and writer; the reader thread ends the connection on EOF or error. */
    void start() {
        dispatcher.connected(this);
        writerThread = daemon(this::writeLoop, "saccade-pcp-writer-" + name);
        writerThread.start();
        daemon(this::readLoop, "saccade-pcp-reader-" + name).start();
    }

    private void readLoop() {
        final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
        final byte[] chunk = new byte[8192];
        boolean skipping = false;
        try {
            for (int n = in.read(chunk); n >= 0; n = in.read(chunk)) {
                int start = 0;
                for (int i = 0; i < n; i++) {
                    if (chunk[i] != '\n') {
                        continue;
                    }
                    if (!skipping) {
                        line.write(chunk, start, i - start);
                        if (line.size() > maxLineBytes) {
                            tooLong();
                        } else {
                            accept(line.toByteArray());
                        }
                    }
                    line.reset();
                    skipping = false;
                    start = i + 1;
                }
                if (!skipping) {
                    line.write(chunk, start, n - start);
                    if (line.size() > maxLineBytes) {
                        // Keep nothing of an oversized line: memory stays bounded by the limit.
                        skipping = true;
                        line.reset();
                        tooLong();
                    }
                }
            }
            if (!skipping && line.size() > 0) {
                accept(line.toByteArray()); // a last line without its newline is still a request (as MCP's)
            }
        } catch (final IOException e) {
            // The peer reset or we closed: the connection ends the same way as on EOF.
        }
        // EOF may be a half-close after the last request: finish what was asked, send it, then close.
        worker.shutdown();
        try {
            if (!worker.awaitTermination(DRAIN_MS, TimeUnit.MILLISECONDS)) {
                close();
            }
        } catch (final InterruptedException e) {
            close();
        }
        readerDone = true;
    }

    private void tooLong() {
        enqueueReply(JsonRpc.errorLine(null, new PcpError(PcpError.INVALID_REQUEST,
            "Invalid Request: line longer than " + maxLineBytes + " bytes",
            JsonTree.object("max_line_bytes", (long) maxLineBytes))));
    }

    /** One line off the socket, parsed here on the reader (the codec is strict UTF-8 and bounded). */
    private void accept(final byte[] line) {
        activeNs = System.nanoTime();
        if (blank(line)) {
            return; // a stray empty line is not a message
        }
        final JsonNode message = parser.parse(line, line.length);
        if (message == null && parser.overBound()) {
            enqueueReply(JsonRpc.tooManyTokens()); // nothing of it runs: no tree was kept
            return;
        }
        // Responses to our own requests are routed here on the reader, never behind a waiting worker.
        if (JsonRpc.isResponse(message)) {
            JsonRpc.handle(message, this);
            return;
        }
        try {
            worker.execute(() -> {
                final String reply = JsonRpc.handle(message, this);
                if (reply != null) {
                    enqueueReply(reply);
                }
            });
        } catch (final RejectedExecutionException e) {
            final String refusal = JsonRpc.refusal(message, new PcpError(PcpError.RATE_LIMITED,
                "Rate limited: " + PENDING_REQUESTS + " requests already queued on this connection",
                JsonTree.object("retry_after_ms", 100L)));
            if (open && refusal != null) {
                enqueueReply(refusal);
            }
        }
    }

    private static boolean blank(final byte[] line) {
        for (final byte b : line) {
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    @Override
    public PcpError admit() {
        final long retryAfterMs = bucket.tryTake(System.nanoTime());
        return retryAfterMs > 0
            ? new PcpError(PcpError.RATE_LIMITED, "Rate limited", JsonTree.object("retry_after_ms", retryAfterMs)) : null;
    }

    @Override
    public Object call(final String method, final Map<String, Object> params) throws PcpError {
        try {
            final Object result = dispatcher.dispatch(this, method, params);
            if (method.startsWith("register.") || method.startsWith("subscribe.")) {
                holdsState = true;
            }
            return result;
        } catch (final PcpError e) {
            throw e;
        } catch (final RuntimeException e) {
            LOG.warn("event=pcp_internal_error peer={} method={} error={}", name, method, e.toString());
            throw new PcpError(PcpError.INTERNAL_ERROR, "Internal error", JsonTree.object("method", method));
        }
    }

    @Override
    public void response(final Object id, final Object result, final Map<?, ?> error) {
        if (!(id instanceof Long)) {
            return; // not an id of ours: nothing waits for it
        }
        final CompletableFuture<Object> waiting = outstanding.remove(id);
        if (waiting == null) {
            return; // late answer after our timeout: dropped
        }
        if (error != null) {
            final Object code = error.get("code");
            final Object message = error.get("message");
            final Object data = error.get("data");
            @SuppressWarnings("unchecked")
            final Map<String, Object> dataMap = data instanceof Map ? (Map<String, Object>) data : null;
            waiting.completeExceptionally(new PcpError(code instanceof Long ? ((Long) code).intValue() : PcpError.INTERNAL_ERROR,
                message instanceof String ? (String) message : "Application error", dataMap));
        } else {
            waiting.complete(result);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public long pid() {
        return pid;
    }

    /** Whether it registered an application or subscribed to events (pcp §9). */
    boolean holdsState() {
        return holdsState;
    }

    @Override
    public boolean notify(final String method, final Map<String, Object> params) {
        if (!open) {
            return false;
        }
        if (!offer(JsonRpc.notification(method, params))) {
            droppedNotifications.incrementAndGet();
            return false;
        }
        return true;
    }

    @Override
    public CompletableFuture<Object> request(final String method, final Map<String, Object> params) {
        final CompletableFuture<Object> answer = new CompletableFuture<>();
        if (!open) {
            answer.completeExceptionally(new IOException("connection " + name + " closed"));
            return answer;
        }
        final long id = nextRequestId.getAndIncrement();
        outstanding.put(id, answer);
        answer.whenComplete((r, t) -> outstanding.remove(id)); // timeouts cancel: no leak
        if (!offer(JsonRpc.request(id, method, params))) {
            answer.completeExceptionally(new IOException("connection " + name + " is not reading"));
        }
        if (!open) {
            answer.completeExceptionally(new IOException("connection " + name + " closed"));
        }
        return answer;
    }

    /**
     * Queues {@code line} when it fits the line and character bounds; an empty queue takes any
     * one line, so a reply larger than the bound still goes out.
     */
    private boolean offer(final String line) {
        synchronized (room) {
            if (outboundChars > 0 && outboundChars + line.length() > OUTBOUND_MAX_CHARS) {
                return false;
            }
            if (!outbound.offer(line)) {
                return false;
            }
            outboundChars += line.length();
            return true;
        }
    }

    private void sent(final String line) {
        synchronized (room) {
            outboundChars -= line.length();
            room.notifyAll();
        }
    }

    /** A reply waits for room while the peer reads; a peer that does not read within {@link #SLOW_READER_MS} is closed. */
    private void enqueueReply(final String reply) {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SLOW_READER_MS);
        boolean queued = false;
        try {
            synchronized (room) {
                while (open && !(queued = offer(reply))) {
                    final long leftNs = deadline - System.nanoTime();
                    if (leftNs <= 0) {
                        break;
                    }
                    TimeUnit.NANOSECONDS.timedWait(room, leftNs);
                }
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (!queued && open) {
            LOG.info("event=pcp_slow_reader_closed peer={} waited_ms={}", name, SLOW_READER_MS);
            close(); // the peer holds our replies unread: disconnected, not buffered
        }
    }

    private void writeLoop() {
        try {
            while (open) {
                final String line = outbound.poll(100, TimeUnit.MILLISECONDS);
                if (line == null && readerDone) {
                    break;
                }
                if (line != null) {
                    activeNs = System.nanoTime();
                    try {
                        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                        if (outbound.isEmpty()) {
                            out.flush();
                        }
                    } finally {
                        sent(line);
                    }
                }
            }
        } catch (final IOException | InterruptedException e) {
            // Peer gone or shutting down: the reader sees it too and closes.
        } finally {
            close();
        }
    }

    /**
     * How long this connection has been idle, or -1 when it may not be evicted for a new one
     * (pcp §9): it waits on an application, or has work queued or replies unsent. Whether it
     * holds state is the server's to weigh ({@link #holdsState()}).
     */
    long idleNs(final long nowNs) {
        if (!outstanding.isEmpty() || worker.getActiveCount() != 0 || !worker.getQueue().isEmpty()
            || !outbound.isEmpty()) {
            return -1;
        }
        return nowNs - activeNs;
    }

    /** When a line last came in or went out (System.nanoTime). */
    long lastActiveNs() {
        return activeNs;
    }

    long droppedNotifications() {
        return droppedNotifications.get();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        open = false;
        synchronized (room) {
            room.notifyAll(); // a reply waiting for room gives up now, not at its deadline
        }
        worker.shutdownNow();
        for (final CompletableFuture<Object> waiting : outstanding.values()) {
            waiting.completeExceptionally(new IOException("connection " + name + " closed"));
        }
        try {
            socket.close();
        } catch (final IOException ignore) {
            // Closing a socket the peer already reset: nothing left to release.
        }
        dispatcher.disconnected(this);
        onClose.run();
    }
}
