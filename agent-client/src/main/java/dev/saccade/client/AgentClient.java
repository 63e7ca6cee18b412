package dev.saccade.client;

import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.CompletionValidator;
import dev.saccade.protocol.HeaderFlyweight;
import dev.saccade.protocol.HelloCompletionFlyweight;
import dev.saccade.protocol.ResultCode;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * The blocking agent-endpoint client of the CLI, MCP, PCP and the benchmarks: connect, Hello, then one
 * request and one reply at a time (agent-abi.md §1.2). Replies land in a reusable buffer and are
 * checked with {@link CompletionValidator} before the caller sees them.
 *
 * <p>Failures are typed: nothing listening → {@link ServiceUnavailableException}; a refused
 * Hello → {@link HelloRefusedException} (the connection stays usable); no complete reply within
 * the read timeout → {@link SocketTimeoutException}; the service closed the connection (it does
 * that without a reply for a malformed request, spec §1.3) → {@link EOFException}; an
 * untrustworthy reply → {@link AgentProtocolException}. After a timeout, EOF, I/O error or
 * protocol error the client is closed: the request/reply pairing can no longer be trusted.
 *
 * <p>Not thread-safe: one caller thread at a time.
 */
public final class AgentClient implements AutoCloseable {
    /** Read timeout unless {@link #readTimeout(Duration)} says otherwise. */
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(30);
    /** Largest frame either way: the spec's maximum message. */
    public static final int MAX_FRAME_BYTES = AgentAbi.MAX_MESSAGE_BYTES;

    private static final int LENGTH_PREFIX_BYTES = AgentAbi.FRAME_LENGTH_BYTES;
    /** Pause between connects while the service's backlog is full (EAGAIN). */
    private static final long CONNECT_RETRY_NS = TimeUnit.MILLISECONDS.toNanos(5);
    /**
     * Bytes per channel read/write. The JDK copies a heap buffer through a per-thread direct
     * buffer it caches (up to jdk.nio.maxCachedBufferSize); chunks keep it small and reused.
     */
    private static final int IO_CHUNK_BYTES = 64 * 1024;

    private final Path path;
    /**
     * The JDK's own AF_UNIX channel (Java 16+), non-blocking, waited on with {@link #selector}:
     * a one-shot CLI command spent ~100 ms starting junixsocket (its native library and its
     * capability probes) for one connection that needs nothing the JDK lacks.
     */
    private final SocketChannel channel;
    private final Selector selector;
    private final SelectionKey key;
    private final ByteBuffer sendBuffer;
    private final ByteBuffer receiveBuffer;
    private final byte[] sendArray = new byte[LENGTH_PREFIX_BYTES + MAX_FRAME_BYTES];
    private final byte[] receiveArray = new byte[LENGTH_PREFIX_BYTES + MAX_FRAME_BYTES];
    private final BytesStore<?, byte[]> sendStore = BytesStore.wrap(sendArray);
    private final BytesStore<?, byte[]> receiveStore = BytesStore.wrap(receiveArray);
    private final CompletionValidator validator = new CompletionValidator();
    private final HelloRequestBuilder helloRequest = new HelloRequestBuilder();
    private final HelloCompletionFlyweight helloCompletion = new HelloCompletionFlyweight();
    private int acceptedHelloFlags;
    /** The API version this client names in every frame it sends (§1.4, D39). */
    private int apiVersion = AgentAbi.API_VERSION;
    private final Reply reply = new Reply();
    private final java.nio.ByteBuffer peek = java.nio.ByteBuffer.allocate(1);
    private long readTimeoutNs = DEFAULT_READ_TIMEOUT.toNanos();
    private boolean closed;

    private AgentClient(final Path path, final SocketChannel channel) throws IOException {
        this.path = path;
        this.channel = channel;
        this.selector = Selector.open();
        try {
            this.key = channel.register(selector, 0);
        } catch (final IOException | RuntimeException e) {
            selector.close();
            throw e;
        }
        this.sendBuffer = ByteBuffer.wrap(sendArray);
        this.receiveBuffer = ByteBuffer.wrap(receiveArray);
    }

    /**
     * Connects to the agent endpoint at {@code socket}.
     *
     * @param timeout how long to keep trying while the service's backlog is full.
     * @throws ServiceUnavailableException if no socket file is there, or nothing listens on it.
     * @throws SocketTimeoutException if the service never had room in its backlog in time.
     */
    public static AgentClient connect(final Path socket, final Duration timeout) throws IOException {
        final UnixDomainSocketAddress address = UnixDomainSocketAddress.of(socket);
        final long startNs = System.nanoTime();
        final long timeoutNs = timeout.toNanos();
        while (true) {
            final SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
            boolean connected = false;
            try {
                channel.configureBlocking(false);
                // Non-blocking on purpose: a blocking connect to a full backlog waits for room with
                // no bound; non-blocking it fails at once with EAGAIN, and this loop bounds the wait.
                if (channel.connect(address) || channel.finishConnect()) {
                    final AgentClient client = new AgentClient(socket, channel);
                    connected = true;
                    return client;
                }
            } catch (final ConnectException e) {
                if (!Files.exists(socket, LinkOption.NOFOLLOW_LINKS)) {
                    throw new ServiceUnavailableException(socket, "no socket file there", e);
                }
                throw new ServiceUnavailableException(socket,
                    "connection refused: nothing listens on that socket file; it is left over from a service that"
                        + " is gone", e);
            } catch (final SocketException e) {
                if (!Files.exists(socket, LinkOption.NOFOLLOW_LINKS)) {
                    throw new ServiceUnavailableException(socket, "no socket file there", e);
                }
                if (!backlogFull(e)) {
                    throw new IOException("cannot connect to " + socket + ": " + e.getMessage(), e);
                }
            } finally {
                if (!connected) {
                    channel.close();
                }
            }
            final long elapsedNs = System.nanoTime() - startNs;
            if (elapsedNs >= timeoutNs) {
                throw new SocketTimeoutException("the service at " + socket + " did not accept a connection within "
                    + timeout.toMillis() + " ms: its backlog stayed full");
            }
            LockSupport.parkNanos(Math.min(CONNECT_RETRY_NS, timeoutNs - elapsedNs));
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while connecting to " + socket);
            }
        }
    }

    /** How long {@link #receive()} waits for a whole reply; at least 1 ms. */
    public AgentClient readTimeout(final Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("read timeout must be positive: " + timeout);
        }
        this.readTimeoutNs = timeout.toNanos();
        return this;
    }

    public Duration readTimeout() {
        return Duration.ofNanos(readTimeoutNs);
    }

    /**
     * Sends Hello and waits for its completion (spec §1.4).
     *
     * @return the granted capability bits (requested ∩ the service's policy).
     * @throws HelloRefusedException for INVALID_MESSAGE or CAPABILITY_DENIED; still connected.
     */
    public int hello(final long requestId, final int capabilities) throws IOException {
        return hello(requestId, capabilities, 0);
    }

    /**
     * Hello asking also for {@link dev.saccade.protocol.HelloFlag} bits (§1.4): extended roles,
     * target states. {@link #acceptedHelloFlags()} then says which the service accepted.
     */
    public int hello(final long requestId, final int capabilities, final int helloFlags) throws IOException {
        send(helloRequest.requestId(requestId).capabilities(capabilities).flags(helloFlags)
            .writeTo(sendStore, LENGTH_PREFIX_BYTES));
        final Reply r = receive(AgentAbi.HELLO_COMPLETION);
        final HelloCompletionFlyweight completion = helloCompletion.wrap(r.bytes(), r.offset());
        if (completion.requestId() != requestId) {
            throw fail(new AgentProtocolException(AgentProtocolException.UNEXPECTED_REQUEST_ID,
                "Hello completion from " + path + " answers request_id " + completion.requestId() + ", not "
                    + requestId));
        }
        if (completion.result() != ResultCode.OK) {
            throw new HelloRefusedException(capabilities, completion.result(), completion.platformError());
        }
        // A service that knows no flags leaves the word 0; never trust more than was asked.
        acceptedHelloFlags = completion.acceptedFlags() & helloFlags;
        return completion.grantedCapabilityBits();
    }

    /**
     * Speak {@code version} (0x00010001 or 0x00010002) from the next Hello on: every frame this
     * client's encoders wrote for the base version goes out naming it instead (D39). Minor 2 adds
     * the WINDOW scope and the explicit-window action flags and changes nothing else.
     */
    public AgentClient apiVersion(final int version) {
        if (!AgentAbi.spoken(version)) {
            throw new IllegalArgumentException("not a version of this ABI: 0x" + Integer.toHexString(version));
        }
        apiVersion = version;
        return this;
    }

    public int apiVersion() {
        return apiVersion;
    }

    /** The {@link dev.saccade.protocol.HelloFlag} bits the last successful Hello had accepted. */
    public int acceptedHelloFlags() {
        return acceptedHelloFlags;
    }

    /**
     * Sends one frame: {@code length} bytes of {@code frame} from {@code at}, after the 4-byte
     * length. Blocks until the kernel took it all.
     */
    public void send(final BytesStore<?, ?> frame, final long at, final int length) throws IOException {
        checkLength(length);
        sendStore.write(LENGTH_PREFIX_BYTES, frame, at, length);
        send(length);
    }

    /** The send buffer: build a request in place at {@link #requestOffset()}, then {@link #send(int)}. */
    public BytesStore<?, byte[]> requestStore() {
        return sendStore;
    }

    public long requestOffset() {
        return LENGTH_PREFIX_BYTES;
    }

    /** Sends the {@code length}-byte request already written at {@link #requestOffset()}. */
    public void send(final int length) throws IOException {
        ensureOpen();
        checkLength(length);
        sendStore.writeInt(0, length);
        final long version = LENGTH_PREFIX_BYTES + HeaderFlyweight.API_VERSION_OFFSET;
        if (apiVersion != AgentAbi.API_VERSION && sendStore.readInt(version) == AgentAbi.API_VERSION) {
            sendStore.writeInt(version, apiVersion); // the encoders write the base version
        }
        final int total = LENGTH_PREFIX_BYTES + length;
        try {
            for (int done = 0; done < total; ) {
                sendBuffer.limit(Math.min(total, done + IO_CHUNK_BYTES)).position(done);
                final int count = channel.write(sendBuffer);
                if (count == 0) {
                    await(SelectionKey.OP_WRITE, 0); // the kernel's buffer is full: until it has room
                }
                done += count;
            }
        } catch (final IOException e) {
            throw fail(e);
        }
    }

    /** {@link #receive(int)} accepting any completion kind. */
    public Reply receive() throws IOException {
        return receive(0);
    }

    /**
     * Waits up to the read timeout for one whole reply and validates it.
     *
     * @param expectedKind the completion kind the request asks for, or 0 for any.
     * @return a view of the reply, valid until the next receive on this client.
     */
    public Reply receive(final int expectedKind) throws IOException {
        ensureOpen();
        final long deadlineNs = System.nanoTime() + readTimeoutNs;
        readFully(0, LENGTH_PREFIX_BYTES, deadlineNs);
        final long length = receiveStore.readUnsignedInt(0);
        if (length < AgentAbi.MIN_FRAME_BYTES || length > MAX_FRAME_BYTES) {
            throw fail(new AgentProtocolException(CompletionValidator.BAD_LENGTH,
                "reply from " + path + " announces " + length + " bytes, outside " + AgentAbi.MIN_FRAME_BYTES + ".."
                    + MAX_FRAME_BYTES));
        }
        readFully(LENGTH_PREFIX_BYTES, (int) length, deadlineNs);
        final int verdict = validator.validate(receiveStore, LENGTH_PREFIX_BYTES, length, expectedKind);
        if (verdict != CompletionValidator.VALID) {
            throw fail(new AgentProtocolException(verdict, "invalid reply from " + path + ": "
                + CompletionValidator.reason(verdict) + " (kind " + AgentAbi.kindName(
                receiveStore.readInt(LENGTH_PREFIX_BYTES + HeaderFlyweight.MESSAGE_KIND_OFFSET)) + ", "
                + length + " bytes)"));
        }
        return reply.set(receiveStore, LENGTH_PREFIX_BYTES, (int) length);
    }

    public Path path() {
        return path;
    }

    public boolean isOpen() {
        return !closed;
    }

    /**
     * Whether the service has closed this idle connection (an owner that stopped, or one that
     * gave the slot of a long-idle connection to a waiting client, agent-abi §1.1), found
     * without blocking before a request is written on it: a request on such a connection would
     * be lost unread. A byte the service sent unasked also counts: the pairing is broken.
     * Call only between exchanges.
     */
    public boolean peerClosed() {
        if (closed) {
            return true;
        }
        try {
            peek.clear();
            return channel.read(peek) != 0; // non-blocking: 0 while the service is there and silent
        } catch (final IOException e) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            channel.close();
        } finally {
            selector.close();
        }
    }

    private void readFully(final int offset, final int length, final long deadlineNs) throws IOException {
        int done = 0;
        while (done < length) {
            final long remainingNs = deadlineNs - System.nanoTime();
            if (remainingNs <= 0) {
                throw fail(timeout());
            }
            final int count;
            try {
                receiveBuffer.limit(offset + done + Math.min(IO_CHUNK_BYTES, length - done)).position(offset + done);
                count = channel.read(receiveBuffer);
                if (count == 0) {
                    // nothing yet: wait for bytes, for what is left of the whole reply's time
                    await(SelectionKey.OP_READ, Math.max(1, TimeUnit.NANOSECONDS.toMillis(remainingNs + 999_999)));
                    continue;
                }
            } catch (final IOException e) {
                throw fail(e);
            }
            if (count < 0) {
                throw fail(new EOFException("the service at " + path + " closed the connection"
                    + (offset == 0 && done == 0 ? " without a reply" : " in the middle of a reply")
                    + " (it does so for a malformed request, and when it stops)"));
            }
            done += count;
        }
    }

    /** Waits until the channel is ready for {@code op}, at most {@code timeoutMs} (0: no bound). */
    private void await(final int op, final long timeoutMs) throws IOException {
        key.interestOps(op);
        try {
            selector.select(timeoutMs);
        } finally {
            key.interestOps(0);
        }
        if (Thread.interrupted()) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting on " + path);
        }
    }

    /** EAGAIN from a non-blocking connect: the listener's backlog is full (the JDK has no type for it). */
    private static boolean backlogFull(final SocketException e) {
        final String message = e.getMessage();
        return message != null && (message.contains("temporarily unavailable") || message.contains("EAGAIN"));
    }

    private SocketTimeoutException timeout() {
        return new SocketTimeoutException("no complete reply from " + path + " within "
            + TimeUnit.NANOSECONDS.toMillis(readTimeoutNs) + " ms; connection closed");
    }

    private static void checkLength(final int length) {
        if (length < AgentAbi.MIN_FRAME_BYTES || length > MAX_FRAME_BYTES) {
            throw new IllegalArgumentException("frame length " + length + " outside " + AgentAbi.MIN_FRAME_BYTES
                + ".." + MAX_FRAME_BYTES);
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("AgentClient for " + path + " is closed");
        }
    }

    /** Closes the connection (its framing can no longer be trusted) and returns {@code e}. */
    private <E extends IOException> E fail(final E e) {
        try {
            close();
        } catch (final IOException suppressed) {
            e.addSuppressed(suppressed);
        }
        return e;
    }

    /** A received reply, viewed in the client's buffer; valid until the next receive. */
    public static final class Reply {
        private BytesStore<?, ?> bytes;
        private long offset;
        private int length;

        Reply() {
        }

        Reply set(final BytesStore<?, ?> bytes, final long offset, final int length) {
            this.bytes = bytes;
            this.offset = offset;
            this.length = length;
            return this;
        }

        public BytesStore<?, ?> bytes() {
            return bytes;
        }

        /** Where the completion starts in {@link #bytes()}. */
        public long offset() {
            return offset;
        }

        /** The completion's size: the frame length, equal to its total_size. */
        public int length() {
            return length;
        }

        /** The completion's message kind. */
        public int kind() {
            return bytes.readInt(offset + HeaderFlyweight.MESSAGE_KIND_OFFSET);
        }
    }
}
