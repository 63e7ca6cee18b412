package dev.saccade.ipc;

import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.RequestValidator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.SelectableChannel;
import net.openhft.chronicle.bytes.BytesStore;
import org.newsclub.net.unix.AFUNIXSocketChannel;

/**
 * Non-blocking 4-byte length framing for one connection at a time (agent-abi.md §1.2), over two
 * fixed off-heap buffers that protocol flyweights read and write in place.
 *
 * <pre>
 * request buffer   0        4                         4 + frameLength      4 + maxRequestBytes
 *                  | N (LE) | request, read in place   |                  |
 * response buffer  0        4                         4 + n                4 + maxResponseBytes
 *                  | n (LE) | reply, written in place  |                  |
 * </pre>
 *
 * <p>Cycle: {@link #readStep()} until {@link #FRAME_READY}; read {@link #requestStore()} at
 * {@link #requestOffset()} for {@link #frameLength()} bytes; write the reply into
 * {@link #responseStore()} at {@link #responseOffset()}; {@link #beginReply(int)};
 * {@link #writeStep()} until {@link #IDLE}. A reply may also be sent from two buffers
 * ({@link #beginReply(int, ByteBuffer, int)}): its header from the response buffer and the rest
 * from a buffer the owner shares between connections (a body built once per scene generation),
 * in one gathering write where the channel offers it, so the body is never copied per reply. Strictly request/response: the next frame is not
 * read, not even its length, until the reply is fully written, so a client that pipelines only
 * fills its own socket buffer. Partial reads and writes resume on the next step.
 *
 * <p>Framing errors close the connection without writing a byte: an inbound length below 16,
 * above 1,048,576 or above the request capacity, EOF, or any I/O error. {@link #closeReason()}
 * tells which, for counting.
 *
 * <p>The buffers outlive connections: {@link #attach} a new connection after the previous one
 * closed, so an owner with a fixed set of channels reserves its memory once (bounded by channel
 * count, never by connection count). Nothing allocates after construction except
 * {@code attach} (the channel adapter) and failures (the JDK's exceptions);
 * {@code readStep}, {@code beginReply} and {@code writeStep} allocate nothing.
 *
 * <p>Threads: one owner thread calls everything after construction.
 */
public final class FrameChannel implements AutoCloseable {
    /** readStep: the frame is incomplete; call again when the socket is readable. */
    public static final int NEED_MORE = 0;
    /** readStep: a whole frame is in the request buffer. */
    public static final int FRAME_READY = 1;
    /** writeStep: the reply is partly written; call again when the socket is writable. */
    public static final int WRITING = 2;
    /** writeStep: the reply is fully written; the next readStep reads the next frame. */
    public static final int IDLE = 3;
    /** readStep, writeStep: the connection is closed (or was never attached). */
    public static final int CLOSED = -1;

    public static final int CLOSE_NONE = 0;
    /** The peer closed its end (read returned -1). */
    public static final int CLOSE_EOF = 1;
    /** read or write failed (reset, broken pipe, interrupted). */
    public static final int CLOSE_IO_ERROR = 2;
    /** Inbound length outside 16..min(1 MiB, request capacity): spec §1.2 disconnect. */
    public static final int CLOSE_BAD_FRAME_LENGTH = 3;
    /** Closed by the owner ({@link #disconnect()}, {@link #close()}). */
    public static final int CLOSE_LOCAL = 4;

    /** Bytes of the length prefix. */
    public static final int LENGTH_PREFIX_BYTES = AgentAbi.FRAME_LENGTH_BYTES;
    /** Default payload capacity of each buffer: the spec's maximum message. */
    public static final int DEFAULT_CAPACITY = AgentAbi.MAX_MESSAGE_BYTES;

    private static final int DETACHED = 0;
    private static final int READING_LENGTH = 1;
    private static final int READING_BODY = 2;
    private static final int FRAME_HELD = 3;
    private static final int REPLYING = 4;
    private static final int RELEASED = 5;

    private final int maxRequestBytes;
    private final int maxResponseBytes;
    private final ByteBuffer requestBuffer;
    private final ByteBuffer responseBuffer;
    private final BytesStore<?, ByteBuffer> requestStore;
    private final BytesStore<?, ByteBuffer> responseStore;

    /** The next frame's first bytes, read early by {@link #checkPeerWhileHeld()}. */
    private final ByteBuffer lookahead = ByteBuffer.allocateDirect(LENGTH_PREFIX_BYTES);

    /** The reply's header and its tail, for the gathering write. */
    private final ByteBuffer[] gather = new ByteBuffer[2];
    /** The tail of the reply being written, or null: reply bytes [tailAt, tailEnd) at those offsets. */
    private ByteBuffer tail;
    private int tailAt;
    private int tailEnd;

    private ByteChannel channel;
    private int state = DETACHED;
    private int frameLength;
    private int closeReason = CLOSE_NONE;

    /** Buffers of {@link #DEFAULT_CAPACITY} + 4 bytes each. */
    public FrameChannel() {
        this(DEFAULT_CAPACITY, DEFAULT_CAPACITY);
    }

    /**
     * @param maxRequestBytes largest inbound frame accepted; frames above it (or above the
     *     spec's 1 MiB) close the connection.
     * @param maxResponseBytes largest reply {@link #beginReply(int)} accepts (R in spec §4).
     */
    public FrameChannel(final int maxRequestBytes, final int maxResponseBytes) {
        if (maxRequestBytes < AgentAbi.MIN_FRAME_BYTES || maxResponseBytes < AgentAbi.MIN_FRAME_BYTES
            || maxRequestBytes > Integer.MAX_VALUE - LENGTH_PREFIX_BYTES
            || maxResponseBytes > Integer.MAX_VALUE - LENGTH_PREFIX_BYTES) {
            throw new IllegalArgumentException("capacities must be at least " + AgentAbi.MIN_FRAME_BYTES
                + " bytes: request=" + maxRequestBytes + " response=" + maxResponseBytes);
        }
        this.maxRequestBytes = maxRequestBytes;
        this.maxResponseBytes = maxResponseBytes;
        this.requestBuffer = ByteBuffer.allocateDirect(LENGTH_PREFIX_BYTES + maxRequestBytes);
        this.responseBuffer = ByteBuffer.allocateDirect(LENGTH_PREFIX_BYTES + maxResponseBytes);
        // wrap, not follow: releasing the store frees the buffer's memory at close, not at GC.
        this.requestStore = BytesStore.wrap(requestBuffer);
        this.responseStore = BytesStore.wrap(responseBuffer);
    }

    /**
     * Starts serving an accepted connection; I/O goes through its descriptor without
     * allocation (see {@code SocketDescriptorChannel}). The channel is switched to non-blocking.
     */
    public FrameChannel attach(final AFUNIXSocketChannel socket) throws IOException {
        return attach(new SocketDescriptorChannel(socket));
    }

    /**
     * Starts serving any non-blocking byte channel (a read of nothing returns 0). The
     * FrameChannel closes it when the connection ends.
     *
     * @throws IllegalStateException if a connection is still attached, or after {@link #close()}.
     * @throws IllegalArgumentException if {@code channel} is a selectable channel in blocking mode.
     */
    public FrameChannel attach(final ByteChannel channel) {
        if (state != DETACHED) {
            throw new IllegalStateException(state == RELEASED ? "FrameChannel is closed" : "a connection is attached");
        }
        if (channel instanceof SelectableChannel && ((SelectableChannel) channel).isBlocking()) {
            throw new IllegalArgumentException("channel must be non-blocking: " + channel);
        }
        this.channel = channel;
        requestBuffer.clear().limit(LENGTH_PREFIX_BYTES);
        lookahead.clear();
        frameLength = 0;
        closeReason = CLOSE_NONE;
        state = READING_LENGTH;
        return this;
    }

    /**
     * Advances the read of the current frame.
     *
     * @return {@link #NEED_MORE}, {@link #FRAME_READY} (also when called again before the reply
     *     began) or {@link #CLOSED}.
     * @throws IllegalStateException while a reply is being written: call {@link #writeStep()}.
     */
    public int readStep() {
        final int s = state;
        if (s == FRAME_HELD) {
            return FRAME_READY;
        }
        if (s != READING_LENGTH && s != READING_BODY) {
            if (s == REPLYING) {
                throw new IllegalStateException("a reply is being written: call writeStep()");
            }
            return CLOSED;
        }
        try {
            while (true) {
                if (channel.read(requestBuffer) < 0) {
                    return closeFor(CLOSE_EOF);
                }
                if (requestBuffer.hasRemaining()) {
                    return NEED_MORE; // a short read drained the socket: no point asking again now
                }
                if (state == READING_BODY) {
                    state = FRAME_HELD;
                    return FRAME_READY;
                }
                final long length = requestStore.readUnsignedInt(0);
                if (!RequestValidator.isValidFrameLength(length) || length > maxRequestBytes) {
                    return closeFor(CLOSE_BAD_FRAME_LENGTH);
                }
                frameLength = (int) length;
                requestBuffer.limit(LENGTH_PREFIX_BYTES + frameLength);
                state = READING_BODY; // and read the body now: it usually came with the length
            }
        } catch (final IOException e) {
            return closeFor(CLOSE_IO_ERROR);
        }
    }

    /**
     * While a frame is held without a reply (its read waits on the service), finds out whether
     * the peer went away, so its slot need not wait for the read's deadline. Reads at most the
     * next frame's 4-byte length (kept, and consumed first once the reply is sent); a peer that
     * sends that much before closing is noticed when its reply is written instead.
     *
     * @return {@link #CLOSED} if the peer closed or failed, else {@link #FRAME_READY}.
     * @throws IllegalStateException unless a frame is held.
     */
    public int checkPeerWhileHeld() {
        if (state != FRAME_HELD) {
            throw new IllegalStateException("checkPeerWhileHeld needs a held frame");
        }
        if (!lookahead.hasRemaining()) {
            return FRAME_READY;
        }
        try {
            return channel.read(lookahead) < 0 ? closeFor(CLOSE_EOF) : FRAME_READY;
        } catch (final IOException e) {
            return closeFor(CLOSE_IO_ERROR);
        }
    }

    /** Bytes of the next frame read early by {@link #checkPeerWhileHeld()}; for tests. */
    int lookaheadBytes() {
        return lookahead.position();
    }

    /**
     * Starts sending the reply already written at {@link #responseOffset()}; this writes the
     * length prefix. Call {@link #writeStep()} next.
     *
     * @param length the reply's size in bytes (a completion's total_size), 16..capacity.
     * @throws IllegalStateException unless a frame is held (FRAME_READY and no reply yet).
     */
    public void beginReply(final int length) {
        if (state != FRAME_HELD) {
            throw new IllegalStateException("beginReply needs a received frame and no reply yet");
        }
        if (length < AgentAbi.MIN_FRAME_BYTES || length > maxResponseBytes) {
            throw new IllegalArgumentException("reply length " + length + " outside " + AgentAbi.MIN_FRAME_BYTES
                + ".." + maxResponseBytes);
        }
        responseStore.writeInt(0, length);
        responseBuffer.limit(LENGTH_PREFIX_BYTES + length).position(0);
        state = REPLYING;
    }

    /**
     * As {@link #beginReply(int)} for a reply whose first {@code headLength} bytes are at
     * {@link #responseOffset()} and the rest in {@code tail} at the reply's own offsets (tail
     * position {@code headLength} holds reply byte {@code headLength}). The tail buffer's position
     * and limit are set before each write and are not the caller's to keep; it must not change
     * until {@link #writeStep()} returned {@link #IDLE} or {@link #CLOSED}.
     */
    public void beginReply(final int length, final ByteBuffer tail, final int headLength) {
        if (headLength < AgentAbi.MIN_FRAME_BYTES || headLength > length || length > tail.capacity()) {
            throw new IllegalArgumentException("head " + headLength + " of reply " + length + ", tail capacity "
                + tail.capacity());
        }
        beginReply(length);
        responseBuffer.limit(LENGTH_PREFIX_BYTES + headLength);
        this.tail = tail;
        this.tailAt = headLength;
        this.tailEnd = length;
    }

    /**
     * Advances the write of the reply.
     *
     * @return {@link #WRITING}, {@link #IDLE} (also when no reply is pending and the connection
     *     is reading) or {@link #CLOSED}.
     * @throws IllegalStateException if a frame is held but no reply was begun.
     */
    public int writeStep() {
        final int s = state;
        if (s != REPLYING) {
            if (s == READING_LENGTH || s == READING_BODY) {
                return IDLE;
            }
            if (s == FRAME_HELD) {
                throw new IllegalStateException("no reply begun: call beginReply(length)");
            }
            return CLOSED;
        }
        try {
            while (true) {
                final long written = tail == null ? channel.write(responseBuffer) : writeWithTail();
                if (!responseBuffer.hasRemaining() && (tail == null || tailAt == tailEnd)) {
                    tail = null;
                    gather[1] = null;
                    requestBuffer.clear().limit(LENGTH_PREFIX_BYTES);
                    if (lookahead.position() > 0) {
                        // the next frame's length arrived while the last one was held
                        lookahead.flip();
                        requestBuffer.put(lookahead);
                        lookahead.clear();
                    }
                    frameLength = 0;
                    state = READING_LENGTH;
                    return IDLE;
                }
                if (written == 0) {
                    return WRITING; // the peer's receive queue is full: back-pressure
                }
            }
        } catch (final IOException e) {
            return closeFor(CLOSE_IO_ERROR);
        }
    }

    /** Header and tail: one gathering write where the channel has it, else the two in turn. */
    private long writeWithTail() throws IOException {
        final ByteBuffer t = tail;
        t.limit(tailEnd).position(tailAt); // the limit first: it may lie below the last position
        final long written;
        if (channel instanceof GatheringByteChannel g) {
            gather[0] = responseBuffer;
            gather[1] = t;
            written = g.write(gather, 0, 2);
        } else if (responseBuffer.hasRemaining()) {
            written = channel.write(responseBuffer);
        } else {
            written = channel.write(t);
        }
        tailAt = t.position();
        return written;
    }

    /** The request buffer; the frame is at {@link #requestOffset()} once FRAME_READY. */
    public BytesStore<?, ByteBuffer> requestStore() {
        return requestStore;
    }

    /** Where the frame starts in {@link #requestStore()}: after the length prefix. */
    public long requestOffset() {
        return LENGTH_PREFIX_BYTES;
    }

    /** Length of the frame held (after FRAME_READY), else 0. */
    public int frameLength() {
        return frameLength;
    }

    /** The response buffer; write the reply at {@link #responseOffset()}. */
    public BytesStore<?, ByteBuffer> responseStore() {
        return responseStore;
    }

    /** Where the reply starts in {@link #responseStore()}: after the length prefix. */
    public long responseOffset() {
        return LENGTH_PREFIX_BYTES;
    }

    public int maxRequestBytes() {
        return maxRequestBytes;
    }

    /** R: the largest reply, bytes. */
    public int maxResponseBytes() {
        return maxResponseBytes;
    }

    /** Part of a request has arrived, or a request is held or being answered: the connection is not idle. */
    public boolean midFrame() {
        return state == READING_BODY || state == FRAME_HELD || state == REPLYING
            || (state == READING_LENGTH && requestBuffer.position() > 0);
    }

    /** A connection is attached and not yet closed. */
    public boolean isAttached() {
        return state >= READING_LENGTH && state <= REPLYING;
    }

    /** A reply is partly written: wait for writability and call {@link #writeStep()}. */
    public boolean isWriting() {
        return state == REPLYING;
    }

    /** Why the last connection closed: one of the {@code CLOSE_*} constants. */
    public int closeReason() {
        return closeReason;
    }

    /**
     * Closes the connection without writing anything further (an untyped reject, or shutdown);
     * the buffers stay for the next {@link #attach}.
     */
    public void disconnect() {
        if (isAttached()) {
            closeFor(CLOSE_LOCAL);
        }
    }

    /** Disconnects and frees both buffers; the FrameChannel cannot be used again. */
    @Override
    public void close() {
        if (state == RELEASED) {
            return;
        }
        disconnect();
        state = RELEASED;
        requestStore.releaseLast();
        responseStore.releaseLast();
    }

    private int closeFor(final int reason) {
        closeReason = reason;
        tail = null;
        gather[1] = null;
        state = DETACHED;
        frameLength = 0;
        final ByteChannel c = channel;
        channel = null;
        try {
            c.close();
        } catch (final IOException ignore) {
            // The connection is gone either way; the reason above is what the owner counts.
        }
        return CLOSED;
    }
}
