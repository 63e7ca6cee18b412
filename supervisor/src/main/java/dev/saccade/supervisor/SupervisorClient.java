package dev.saccade.supervisor;

import dev.saccade.ipc.RuntimeDirectory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.newsclub.net.unix.AFUNIXSocket;
import org.newsclub.net.unix.AFUNIXSocketAddress;
import org.newsclub.net.unix.AFUNIXSocketCredentials;

/**
 * The client end of the control socket: one request line, one reply line, closed. Used by
 * {@code saccade supervisor status|restart|upgrade|stop} and {@code saccade upgrade}.
 */
public final class SupervisorClient {
    /** Replies are small; this bounds a misbehaving server. */
    public static final int MAX_REPLY_BYTES = 64 * 1024;

    private SupervisorClient() {
    }

    /**
     * Sends {@code requestLine} (from {@link ControlRequest}) and returns the reply line.
     *
     * @param timeoutMs how long to wait for the reply (an upgrade waits for the new owner).
     * @throws IOException if the supervisor is not running, runs as another user, or the reply is
     *     missing or oversized.
     */
    public static String request(final Path controlSocket, final String requestLine, final int timeoutMs)
        throws IOException {
        try (AFUNIXSocket socket = AFUNIXSocket.connectTo(AFUNIXSocketAddress.of(controlSocket))) {
            final AFUNIXSocketCredentials peer = socket.getPeerCredentials();
            if (peer == null || peer.getUid() != RuntimeDirectory.currentUid()) {
                throw new IOException(controlSocket + " is served by another user; refusing to talk to it");
            }
            socket.setSoTimeout(timeoutMs);
            socket.getOutputStream().write((requestLine + '\n').getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            final InputStream in = socket.getInputStream();
            final ByteArrayOutputStream reply = new ByteArrayOutputStream();
            for (int b = in.read(); b != '\n'; b = in.read()) {
                if (b < 0) {
                    throw new IOException("the supervisor closed the connection without a reply");
                }
                if (reply.size() == MAX_REPLY_BYTES) {
                    throw new IOException("the supervisor's reply exceeds " + MAX_REPLY_BYTES + " bytes");
                }
                reply.write(b);
            }
            return reply.toString(StandardCharsets.UTF_8);
        }
    }
}
