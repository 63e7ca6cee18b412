package dev.saccade.cli;

import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.HelloCompletionFlyweight;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesStore;
import org.newsclub.net.unix.AFUNIXServerSocket;
import org.newsclub.net.unix.AFUNIXSocket;
import org.newsclub.net.unix.AFUNIXSocketAddress;

/**
 * A stand-in for the service that breaks the contract on purpose, to see how the CLI reports
 * what a real service never does (refused Hello aside): it accepts one client, answers its Hello
 * with a chosen result, then answers the first request with the given bytes (or with nothing,
 * closing the connection when {@code reply} is null). The real service is used everywhere else.
 */
final class ScriptedEndpoint {
    private final AFUNIXServerSocket server;
    private final CompletableFuture<Void> done;

    private ScriptedEndpoint(final AFUNIXServerSocket server, final CompletableFuture<Void> done) {
        this.server = server;
        this.done = done;
    }

    static ScriptedEndpoint start(final Path path, final int helloResult, final byte[] reply) throws IOException {
        final AFUNIXServerSocket server = AFUNIXServerSocket.newInstance();
        server.bind(AFUNIXSocketAddress.of(path));
        final CompletableFuture<Void> done = CompletableFuture.runAsync(() -> {
            try (AFUNIXSocket client = server.accept()) {
                final InputStream in = client.getInputStream();
                final OutputStream out = client.getOutputStream();
                final long helloRequestId = ByteBuffer.wrap(readFrame(in), 16, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
                out.write(frame(helloCompletion(helloRequestId, helloResult)));
                if (helloResult != 0) {
                    return;
                }
                readFrame(in);
                if (reply != null) {
                    out.write(frame(reply));
                }
            } catch (final IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        return new ScriptedEndpoint(server, done);
    }

    private static byte[] readFrame(final InputStream in) throws IOException {
        final DataInputStream data = new DataInputStream(in);
        final byte[] prefix = new byte[4];
        data.readFully(prefix);
        final byte[] body = new byte[ByteBuffer.wrap(prefix).order(ByteOrder.LITTLE_ENDIAN).getInt()];
        data.readFully(body);
        return body;
    }

    private static byte[] frame(final byte[] body) {
        return ByteBuffer.allocate(4 + body.length).order(ByteOrder.LITTLE_ENDIAN).putInt(body.length).put(body).array();
    }

    private static byte[] helloCompletion(final long requestId, final int result) {
        final byte[] bytes = new byte[HelloCompletionFlyweight.LENGTH];
        final HelloCompletionFlyweight c = new HelloCompletionFlyweight().wrap(BytesStore.wrap(bytes), 0);
        c.header().set(HelloCompletionFlyweight.LENGTH, AgentAbi.HELLO_COMPLETION, 0);
        c.requestId(requestId).result(result).platformError(result == 0 ? 0 : -13)
            .grantedCapabilityBits(result == 0 ? 1 : 0);
        return bytes;
    }

    /** Waits for the script to finish (it fails if the script did), then closes the socket. */
    void stop() throws Exception {
        try {
            done.get(10, TimeUnit.SECONDS);
        } finally {
            server.close();
        }
    }
}
