package dev.saccade.supervisor;

import dev.saccade.ipc.RuntimeDirectory;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.newsclub.net.unix.AFUNIXSocket;
import org.newsclub.net.unix.AFUNIXSocketAddress;
import org.newsclub.net.unix.AFUNIXSocketCredentials;
import org.newsclub.net.unix.ConnectionRefusedSocketException;

/**
 * The client end of the control socket: one request line, one reply line, closed. Used by
 * {@code saccade supervisor status|restart|upgrade|stop} and {@code saccade upgrade}. Each way it
 * can fail has its own exception, so a command can tell "no supervisor runs" from a broken one.
 */
public final class SupervisorClient {
    /** Replies are small; this bounds a misbehaving server. */
    public static final int MAX_REPLY_BYTES = 64 * 1024;

    /** No supervisor runs: no socket file, or a stale one nothing listens on. */
    public static final class NotRunningException extends IOException {
        private static final long serialVersionUID = 1L;
        private final String why;

        NotRunningException(final Path socket, final String why, final Throwable cause) {
            super("no supervisor runs at " + socket + ": " + why, cause);
            this.why = why;
        }

        /** Why we know: "no socket file there", or a refused connect on a left-over file. */
        public String why() {
            return why;
        }
    }

    /** The process on the socket runs as another user: we do not talk to it. */
    public static final class ForeignPeerException extends IOException {
        private static final long serialVersionUID = 1L;

        ForeignPeerException(final String message) {
            super(message);
        }
    }

    /** The reply breaks the contract before it is even parsed (too long). */
    public static final class BadReplyException extends IOException {
        private static final long serialVersionUID = 1L;

        BadReplyException(final String message) {
            super(message);
        }
    }

    private SupervisorClient() {
    }

    /**
     * Sends {@code requestLine} (from {@link ControlRequest}; a trailing newline is added when
     * missing) and returns the reply line without its newline.
     *
     * @param timeoutMs how long the whole reply may take (an upgrade waits for the new owner).
     * @throws NotRunningException no supervisor runs there.
     * @throws ForeignPeerException the socket is served by another user.
     * @throws SocketTimeoutException no whole reply within {@code timeoutMs}.
     * @throws EOFException the supervisor closed the connection before a whole reply.
     * @throws BadReplyException the reply exceeds {@link #MAX_REPLY_BYTES}.
     */
    public static String request(final Path controlSocket, final String requestLine, final int timeoutMs)
        throws IOException {
        final String line = requestLine.endsWith("\n") ? requestLine : requestLine + '\n';
        try (AFUNIXSocket socket = connect(controlSocket)) {
            final AFUNIXSocketCredentials peer = socket.getPeerCredentials();
            final int uid = RuntimeDirectory.currentUid();
            if (peer == null || peer.getUid() != uid) {
                throw new ForeignPeerException("the process on " + controlSocket + " runs as uid "
                    + (peer == null ? "unknown" : Long.toString(peer.getUid())) + ", not ours (" + uid
                    + "); not talking to it");
            }
            final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
            socket.getOutputStream().write(line.getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            return readLine(socket, controlSocket, deadlineNs, timeoutMs);
        }
    }

    private static AFUNIXSocket connect(final Path socket) throws IOException {
        final AFUNIXSocket s = AFUNIXSocket.newInstance();
        try {
            s.connect(AFUNIXSocketAddress.of(socket));
            return s;
        } catch (final ConnectionRefusedSocketException e) {
            s.close();
            throw new NotRunningException(socket, "connection refused: a socket file left over", e);
        } catch (final SocketException e) {
            s.close();
            if (!Files.exists(socket, LinkOption.NOFOLLOW_LINKS)) {
                throw new NotRunningException(socket, "no socket file there", e);
            }
            throw e;
        }
    }

    private static String readLine(final AFUNIXSocket s, final Path socket, final long deadlineNs, final int timeoutMs)
        throws IOException {
        final InputStream in = s.getInputStream();
        final ByteArrayOutputStream reply = new ByteArrayOutputStream();
        final byte[] chunk = new byte[4096];
        while (true) {
            final long remainingNs = deadlineNs - System.nanoTime();
            if (remainingNs <= 0) {
                throw new SocketTimeoutException("no reply from the supervisor at " + socket + " within "
                    + timeoutMs + " ms");
            }
            // SO_TIMEOUT bounds one read; re-armed with what is left, it bounds the whole reply.
            s.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(remainingNs) + 1)));
            final int n;
            try {
                n = in.read(chunk);
            } catch (final SocketTimeoutException e) {
                continue; // the loop head turns it into the whole request's timeout
            }
            if (n < 0) {
                throw new EOFException("the supervisor at " + socket + " closed the connection "
                    + (reply.size() == 0 ? "without a reply" : "in the middle of its reply"));
            }
            for (int i = 0; i < n; i++) {
                if (chunk[i] == '\n') {
                    reply.write(chunk, 0, i);
                    return reply.toString(StandardCharsets.UTF_8);
                }
            }
            reply.write(chunk, 0, n);
            if (reply.size() > MAX_REPLY_BYTES) {
                throw new BadReplyException("the supervisor's reply exceeds " + MAX_REPLY_BYTES + " bytes");
            }
        }
    }
}
