package dev.saccade.bench;

import dev.saccade.protocol.AgentAbi;
import java.io.EOFException;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import net.openhft.chronicle.bytes.BytesStore;
import org.newsclub.net.unix.AFUNIXSocketAddress;
import org.newsclub.net.unix.AFUNIXSocketChannel;

/**
 * The one client code path of every series: a blocking junixsocket connection, one request out,
 * one length-prefixed reply in, into a preallocated direct buffer. I/O goes through JDK
 * {@link FileChannel}s on the socket's descriptor (bare blocking {@code read(2)}/{@code write(2)}
 * into direct memory, no copy through junixsocket's per-thread buffer and no allocation), so the
 * client costs as little as it can and exactly the same whichever server answers.
 *
 * <p>Reads ask for as much as the buffer holds: a small reply usually arrives with its length in
 * one {@code read(2)}. The server sends nothing unasked, so no read runs into the next reply.
 *
 * <p>The file streams are never closed (that would close junixsocket's descriptor behind its
 * back); closing the socket channel ends the connection.
 */
final class BenchClient implements AutoCloseable {
    static final int PREFIX = AgentAbi.FRAME_LENGTH_BYTES;
    static final int REPLY_CAPACITY = PREFIX + AgentAbi.MAX_MESSAGE_BYTES;

    private final AFUNIXSocketChannel socket;
    private final FileChannel in;
    private final FileChannel out;
    private final ByteBuffer reply = ByteBuffer.allocateDirect(REPLY_CAPACITY).order(ByteOrder.LITTLE_ENDIAN);
    private final BytesStore<?, ByteBuffer> replyStore = BytesStore.wrap(reply);
    /** {@code read(2)} calls so far: how finely the server's reply arrived. */
    private long reads;

    private BenchClient(final AFUNIXSocketChannel socket) throws IOException {
        this.socket = socket;
        this.in = new FileInputStream(socket.getFileDescriptor()).getChannel();
        this.out = new FileOutputStream(socket.getFileDescriptor()).getChannel();
    }

    /** Connects (blocking) to the Unix socket at {@code path}. */
    static BenchClient connect(final Path path) throws IOException {
        final AFUNIXSocketChannel socket = AFUNIXSocketChannel.open(AFUNIXSocketAddress.of(path));
        socket.configureBlocking(true);
        return new BenchClient(socket);
    }

    /**
     * Sends {@code request} (its whole capacity: prefix and frame) and waits for the whole reply.
     *
     * @return the reply's length (without its prefix); the reply is at {@link #PREFIX} in {@link #reply()}.
     */
    int exchange(final ByteBuffer request) throws IOException {
        request.clear();
        do {
            out.write(request);
        } while (request.hasRemaining());
        final ByteBuffer r = reply;
        r.clear();
        do {
            readSome(r);
        } while (r.position() < PREFIX);
        final int length = r.getInt(0);
        if (length < 0 || length > REPLY_CAPACITY - PREFIX) {
            throw new IOException("reply announces " + length + " bytes");
        }
        r.limit(PREFIX + length);
        while (r.hasRemaining()) {
            readSome(r);
        }
        return length;
    }

    private void readSome(final ByteBuffer r) throws IOException {
        reads++;
        if (in.read(r) < 0) {
            throw new EOFException("the server closed the connection");
        }
    }

    /** {@code read(2)} calls made so far. */
    long reads() {
        return reads;
    }

    /** The last reply, prefix included (the reply starts at {@link #PREFIX}). */
    ByteBuffer reply() {
        return reply;
    }

    /** The same bytes as {@link #reply()}, for flyweights and validators. */
    BytesStore<?, ByteBuffer> replyStore() {
        return replyStore;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
