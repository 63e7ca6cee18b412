package dev.saccade.bench;

import dev.saccade.protocol.AgentAbi;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.newsclub.net.unix.AFUNIXServerSocketChannel;
import org.newsclub.net.unix.AFUNIXSocketAddress;
import org.newsclub.net.unix.AFUNIXSocketChannel;

/**
 * A same-run baseline: the cheapest server the socket allows. One blocking junixsocket thread
 * accepts one client, then forever reads a 4-byte-prefixed frame and writes back a fixed reply
 * (prefix included) with blocking writes. With a 1 MiB reply it is the raw echo the owner's
 * 10,000-target observe is held against; with the 4-byte reply "length 0" and the 4-byte ping
 * of {@link BenchRequests#ping()} it is a 4-byte ping-pong.
 *
 * <p>It uses the same descriptor I/O as {@link BenchClient}. It stops when its client closes.
 *
 * <p>For diagnosis it can also serve the way the owner does, non-blocking and busy-polling
 * ({@code spin}: a read or write that moves nothing is retried at once), and with a larger
 * {@code SO_SNDBUF}, so the cost of the owner's write strategy can be told apart from the cost
 * of its serve step.
 */
final class BaselineServer implements AutoCloseable {
    private final Path path;
    private final AFUNIXServerSocketChannel server;
    private final ByteBuffer request =
        ByteBuffer.allocateDirect(BenchClient.REPLY_CAPACITY).order(ByteOrder.LITTLE_ENDIAN);
    private final ByteBuffer reply;
    private final Thread thread;
    private final boolean spin;
    private final int sendBufferBytes;
    private volatile AFUNIXSocketChannel connection;
    private volatile boolean closing;
    private volatile Throwable failure;

    private BaselineServer(final String name, final Path path, final ByteBuffer reply, final boolean spin,
        final int sendBufferBytes) throws IOException {
        this.path = path;
        this.reply = reply;
        this.spin = spin;
        this.sendBufferBytes = sendBufferBytes;
        this.server = AFUNIXServerSocketChannel.open();
        server.bind(AFUNIXSocketAddress.of(path));
        this.thread = new Thread(this::run, name);
        thread.setDaemon(true);
    }

    /**
     * Binds {@code path} and starts serving.
     *
     * @param reply what every request gets back, length prefix included; read from position 0 to
     *     its capacity each time.
     */
    static BaselineServer start(final String name, final Path path, final ByteBuffer reply) throws IOException {
        return start(name, path, reply, false, 0);
    }

    /**
     * @param spin serve non-blocking and busy-poll, as the owner does.
     * @param sendBufferBytes SO_SNDBUF to request on the connection, or 0 for the system default.
     */
    static BaselineServer start(final String name, final Path path, final ByteBuffer reply, final boolean spin,
        final int sendBufferBytes) throws IOException {
        final BaselineServer s = new BaselineServer(name, path, reply, spin, sendBufferBytes);
        s.thread.start();
        return s;
    }

    private void run() {
        try (AFUNIXSocketChannel c = server.accept()) {
            connection = c;
            if (sendBufferBytes > 0) {
                c.setOption(StandardSocketOptions.SO_SNDBUF, sendBufferBytes);
            }
            c.configureBlocking(!spin);
            final FileChannel in = new FileInputStream(c.getFileDescriptor()).getChannel();
            final FileChannel out = new FileOutputStream(c.getFileDescriptor()).getChannel();
            final ByteBuffer req = request;
            final ByteBuffer rep = reply;
            while (true) {
                req.clear();
                do {
                    if (in.read(req) < 0) {
                        return; // the client closed: done
                    }
                    if (closing) {
                        return;
                    }
                } while (req.position() < AgentAbi.FRAME_LENGTH_BYTES);
                final int length = req.getInt(0);
                if (length < 0 || length > req.capacity() - AgentAbi.FRAME_LENGTH_BYTES) {
                    throw new IOException("frame of " + length + " bytes");
                }
                req.limit(AgentAbi.FRAME_LENGTH_BYTES + length);
                while (req.hasRemaining()) {
                    if (in.read(req) < 0) {
                        return;
                    }
                }
                rep.clear();
                do {
                    out.write(rep);
                } while (rep.hasRemaining());
            }
        } catch (final IOException | RuntimeException e) {
            if (!closing) {
                failure = e;
            }
        }
    }

    /** Why the server thread stopped early, or null. */
    Throwable failure() {
        return failure;
    }

    @Override
    public void close() throws IOException {
        closing = true;
        try {
            thread.join(2_000);
            if (thread.isAlive()) {
                final AFUNIXSocketChannel c = connection;
                if (c != null) {
                    c.close();
                }
                server.close(); // unblocks an accept that never got its client
                thread.join(2_000);
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            server.close();
            Files.deleteIfExists(path);
        }
    }
}
