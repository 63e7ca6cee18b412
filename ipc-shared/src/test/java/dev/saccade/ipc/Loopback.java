package dev.saccade.ipc;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Duration;
import org.newsclub.net.unix.AFUNIXSocketAddress;
import org.newsclub.net.unix.AFUNIXSocketChannel;

/** A real connection through a real endpoint: a blocking client and the accepted server side. */
final class Loopback implements AutoCloseable {
    final EndpointListener listener;
    final AFUNIXSocketChannel client;
    final AFUNIXSocketChannel server;

    private Loopback(final EndpointListener listener, final AFUNIXSocketChannel client, final AFUNIXSocketChannel server) {
        this.listener = listener;
        this.client = client;
        this.server = server;
    }

    static Loopback open(final Path dir) throws IOException {
        final EndpointListener listener = EndpointListener.bind(dir.resolve("agent.sock"), Duration.ZERO);
        final AFUNIXSocketChannel client = AFUNIXSocketChannel.open(AFUNIXSocketAddress.of(listener.path()));
        return new Loopback(listener, client, EndpointListenerTest.awaitAccept(listener));
    }

    /** Writes a length prefix then the payload, blocking. */
    void sendFrame(final byte[] payload) throws IOException {
        final ByteBuffer b = ByteBuffer.allocate(4 + payload.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(payload.length).put(payload).flip();
        writeFully(b);
    }

    void writeFully(final ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            client.write(b);
        }
    }

    /** Reads exactly {@code n} bytes, blocking. */
    ByteBuffer readExactly(final int n) throws IOException {
        final ByteBuffer b = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
        while (b.hasRemaining()) {
            if (client.read(b) < 0) {
                throw new EOFException("EOF after " + b.position() + " of " + n + " bytes");
            }
        }
        return b.flip();
    }

    @Override
    public void close() throws IOException {
        try {
            client.close();
            server.close();
        } finally {
            listener.close();
        }
    }
}
