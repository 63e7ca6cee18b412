package dev.saccade.pcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.newsclub.net.unix.AFUNIXSocket;
import org.newsclub.net.unix.AFUNIXSocketAddress;

/**
 * A blocking newline-delimited JSON-RPC client of a PCP socket: what {@code saccade pcp} and
 * applications written in Java use. Lines are read up to a bound, with a read timeout.
 * Not thread-safe.
 */
public final class PcpClient implements AutoCloseable {
    private final AFUNIXSocket socket;
    private final InputStream in;
    private final OutputStream out;
    private final int maxLineBytes;
    /** Read-ahead: one read call per chunk, not per byte; what follows a newline waits here. */
    private final byte[] buffer = new byte[8192];
    private int position;
    private int limit;
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream(256);
    private long nextId = 1;

    private PcpClient(final AFUNIXSocket socket, final int maxLineBytes) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.maxLineBytes = maxLineBytes;
    }

    public static PcpClient connect(final Path path, final Duration readTimeout) throws IOException {
        final AFUNIXSocket socket = AFUNIXSocket.connectTo(AFUNIXSocketAddress.of(path));
        try {
            socket.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, readTimeout.toMillis())));
            return new PcpClient(socket, 64 << 20);
        } catch (final IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** Sends one line (a newline is added). */
    public void send(final String line) throws IOException {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    public void sendRaw(final byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** The next line; {@link EOFException} when the server closed, {@link SocketTimeoutException} after the timeout. */
    public String readLine() throws IOException {
        final ByteArrayOutputStream line = partial; // kept across a read timeout: nothing is lost
        while (true) {
            if (position == limit) {
                final int n = in.read(buffer);
                if (n < 0) {
                    throw new EOFException("the PCP service closed the connection");
                }
                position = 0;
                limit = n;
            }
            for (int i = position; i < limit; i++) {
                if (buffer[i] == '\n') {
                    line.write(buffer, position, i - position);
                    position = i + 1;
                    final String text = line.toString(StandardCharsets.UTF_8);
                    line.reset();
                    return text;
                }
            }
            if (line.size() + (limit - position) > maxLineBytes) {
                throw new IOException("reply line longer than " + maxLineBytes + " bytes");
            }
            line.write(buffer, position, limit - position);
            position = limit;
        }
    }

    /** The next line parsed as a JSON object. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> readMessage() throws IOException {
        final String line = readLine();
        try {
            final Object value = JsonTree.parse(line);
            if (value instanceof Map) {
                return (Map<String, Object>) value;
            }
        } catch (final JsonProcessingException e) {
            throw new IOException("not JSON from the PCP service: " + line, e);
        }
        throw new IOException("not a JSON object from the PCP service: " + line);
    }

    /**
     * Sends a request and returns its response, skipping notifications and requests that
     * arrive meanwhile ({@code other} sees them; may be {@code null}).
     */
    public Map<String, Object> call(final String method, final Map<String, Object> params,
        final java.util.function.Consumer<Map<String, Object>> other) throws IOException {
        final long id = nextId++;
        final Map<String, Object> request = JsonTree.object("jsonrpc", JsonRpc.VERSION, "id", id, "method", method);
        if (params != null) { // JSON-RPC: params, when present, must be a structured value
            request.put("params", params);
        }
        send(JsonTree.write(request));
        while (true) {
            final Map<String, Object> message = readMessage();
            if (!message.containsKey("method") && Long.valueOf(id).equals(message.get("id"))) {
                return message;
            }
            if (other != null) {
                other.accept(message);
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
