package dev.saccade.cli;

import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.HelloCompletionFlyweight;
import dev.saccade.protocol.HelloRequestFlyweight;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesStore;
import org.newsclub.net.unix.AFUNIXServerSocket;
import org.newsclub.net.unix.AFUNIXSocket;
import org.newsclub.net.unix.AFUNIXSocketAddress;

/**
 * A stand-in for the service that plays a script, for what a real one does only by timing (a
 * batch left <em>pending</em> by VERIFY_NEXT_GENERATION, a verification observe that times out,
 * a connection lost mid-verification): it accepts one client, grants its Hello (requested ∩
 * policy), then answers each request frame with what {@link Script} returns for it, or closes
 * the connection when that is null. Every frame received is kept, Hello first, so a test can
 * check what the client sent and that a batch was sent only once.
 */
final class ScriptedService {
    /** The reply to request {@code index} (0 = the first after Hello), or null to close. */
    interface Script {
        byte[] reply(int index, byte[] request);
    }

    /** {@link Script} for a service that accepts several connections one after another. */
    interface ConnectionScript {
        /** The reply to request {@code index} of connection {@code connection} (0 = the first), or null to close. */
        byte[] reply(int connection, int index, byte[] request);
    }

    private final AFUNIXServerSocket server;
    private final CompletableFuture<Void> done;
    private final List<byte[]> received;

    private ScriptedService(final AFUNIXServerSocket server, final CompletableFuture<Void> done,
        final List<byte[]> received) {
        this.server = server;
        this.done = done;
        this.received = received;
    }

    static ScriptedService start(final Path path, final Script script) throws IOException {
        return start(path, 1, (connection, index, request) -> script.reply(index, request));
    }

    /** Accepts {@code connections} clients one after another, each played by {@code script}. */
    static ScriptedService start(final Path path, final int connections, final ConnectionScript script)
        throws IOException {
        final AFUNIXServerSocket server = AFUNIXServerSocket.newInstance();
        server.bind(AFUNIXSocketAddress.of(path));
        final List<byte[]> received = new ArrayList<>();
        final CompletableFuture<Void> done = CompletableFuture.runAsync(() -> {
            for (int connection = 0; connection < connections; connection++) {
                serve(server, connection, script, received);
            }
        });
        return new ScriptedService(server, done, received);
    }

    private static void serve(final AFUNIXServerSocket server, final int connection, final ConnectionScript script,
        final List<byte[]> received) {
        try (AFUNIXSocket client = server.accept()) {
            final InputStream in = client.getInputStream();
            final OutputStream out = client.getOutputStream();
            final byte[] hello = readFrame(in);
            keep(received, hello);
            out.write(frame(helloCompletion(hello)));
            for (int index = 0; ; index++) {
                final byte[] request;
                try {
                    request = readFrame(in);
                } catch (final EOFException clientClosed) {
                    return;
                }
                keep(received, request);
                final byte[] reply = script.reply(connection, index, request);
                if (reply == null) {
                    return;
                }
                out.write(frame(reply));
            }
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void keep(final List<byte[]> received, final byte[] frame) {
        synchronized (received) {
            received.add(frame);
        }
    }

    /** Frames received so far, the Hello first. */
    List<byte[]> received() {
        synchronized (received) {
            return new ArrayList<>(received);
        }
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

    private static byte[] helloCompletion(final byte[] hello) {
        final HelloRequestFlyweight request = new HelloRequestFlyweight().wrap(BytesStore.wrap(hello), 0);
        final byte[] bytes = new byte[HelloCompletionFlyweight.LENGTH];
        final HelloCompletionFlyweight c = new HelloCompletionFlyweight().wrap(BytesStore.wrap(bytes), 0);
        c.header().set(HelloCompletionFlyweight.LENGTH, AgentAbi.HELLO_COMPLETION, 0);
        c.requestId(request.requestId()).result(0).platformError(0)
            .grantedCapabilityBits(request.requestedCapabilityBits() & Capability.POLICY);
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
