package dev.saccade.ipc;

import java.io.FileDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.newsclub.net.unix.AFUNIXSocket;
import org.newsclub.net.unix.AFUNIXSocketAddress;
import org.newsclub.net.unix.AFUNIXSocketCredentials;

/**
 * The owner's end of its link to the supervisor that started it: how a supervised owner gets
 * the agent endpoint's listening descriptor (SCM_RIGHTS) instead of binding the path, and how it
 * is told to stop accepting and hand over. One connection per owner, kept for the owner's life,
 * on {@code $RUN/}{@value #LINK_SOCKET_NAME} (0600, both sides check the peer's uid; the
 * supervisor also checks the peer's pid is the child it started and the nonce it put in
 * {@value #NONCE_ENVIRONMENT_VARIABLE}).
 *
 * <p>Lines, ASCII, at most {@value #MAX_LINE_BYTES} bytes, each ending in {@code '\n'}:
 * <pre>
 *   owner -> supervisor   hello &lt;nonce-hex&gt; &lt;pid&gt;     connected
 *   owner -> supervisor   ready &lt;generation&gt;          sources up, not yet serving
 *   supervisor -> owner   listen  + SCM_RIGHTS fd     the listening socket: serve it
 *   owner -> supervisor   serving
 *   supervisor -> owner   ping                        liveness; owner answers pong
 *   supervisor -> owner   drain                       stop accepting, finish requests in hand
 *   owner -> supervisor   drained &lt;generation&gt;        done; the owner exits without unlinking
 * </pre>
 * The listener travels from the supervisor, which keeps its own copy for ever, to each new
 * owner; the old owner only drops its copy. The kernel sees one listening socket throughout, so
 * a connect is never refused and never lost: it waits in the backlog until an owner accepts it.
 *
 * <p>Threads: {@link #ready}, {@link #awaitListener} and {@link #serving} run on the starting
 * thread; after that one link thread reads ({@link #readLine}) and writes the answers.
 */
public final class ListenerHandoff implements AutoCloseable {
    /** The link socket in the runtime directory. */
    public static final String LINK_SOCKET_NAME = "saccade-supervisor-link-v1.sock";
    /** Environment variable carrying the supervisor's per-child nonce, hex (never a command line). */
    public static final String NONCE_ENVIRONMENT_VARIABLE = "SACCADE_SUPERVISOR_NONCE";
    public static final int MAX_LINE_BYTES = 256;
    public static final String HELLO = "hello";
    public static final String READY = "ready";
    public static final String LISTEN = "listen";
    public static final String SERVING = "serving";
    public static final String PING = "ping";
    public static final String PONG = "pong";
    public static final String DRAIN = "drain";
    public static final String DRAINED = "drained";
    /**
     * Owner to supervisor, any time from the hello on: {@code input up} when an input helper is
     * attached, {@code input down} when none is. An owner that never says it runs without one
     * (or predates the line); the supervisor is ready only while it is up (docs/architecture.md §4).
     */
    public static final String INPUT = "input";
    public static final String INPUT_UP = "up";
    public static final String INPUT_DOWN = "down";

    private final AFUNIXSocket socket;
    private final InputStream in;
    private final OutputStream out;

    private ListenerHandoff(final AFUNIXSocket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /**
     * Connects to the supervisor's link, checks it runs as our uid, and says hello.
     *
     * @throws IOException if the link cannot be reached or its peer is another user.
     */
    public static ListenerHandoff connect(final Path linkPath, final String nonceHex) throws IOException {
        final AFUNIXSocket socket = AFUNIXSocket.connectTo(AFUNIXSocketAddress.of(linkPath));
        try {
            final AFUNIXSocketCredentials peer = socket.getPeerCredentials();
            if (peer == null || peer.getUid() != RuntimeDirectory.currentUid()) {
                throw new IOException("the supervisor link " + linkPath + " is served by another user; refusing it");
            }
            socket.ensureAncillaryReceiveBufferSize(256);
            final ListenerHandoff link = new ListenerHandoff(socket);
            link.send(HELLO + ' ' + nonceHex + ' ' + ProcessHandle.current().pid());
            return link;
        } catch (final IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** Our sources are up and {@code generation} is the newest we published; we wait to serve. */
    public void ready(final long generation) throws IOException {
        send(READY + ' ' + generation);
    }

    /**
     * Waits for {@code listen} and adopts the descriptor that came with it as the listener of
     * {@code endpoint}.
     *
     * @throws IOException if the link ends or says anything else first, or no descriptor came.
     */
    public EndpointListener awaitListener(final Path endpoint) throws IOException {
        final String line = readLine(in);
        if (!LISTEN.equals(line)) {
            throw new IOException("supervisor link: expected '" + LISTEN + "', got " + (line == null ? "end of stream" : "'" + line + "'"));
        }
        final FileDescriptor[] received = socket.getReceivedFileDescriptors();
        if (received == null || received.length != 1) {
            throw new IOException("supervisor link: '" + LISTEN + "' came without exactly one descriptor");
        }
        return EndpointListener.adopt(endpoint, received[0]);
    }

    public void serving() throws IOException {
        send(SERVING);
    }

    /** The next line from the supervisor, or null at end of stream (link thread). */
    public String nextCommand() throws IOException {
        return readLine(in);
    }

    /** Whether an input helper is attached now (any thread). */
    public void input(final boolean attached) throws IOException {
        send(INPUT + ' ' + (attached ? INPUT_UP : INPUT_DOWN));
    }

    public void pong() throws IOException {
        send(PONG);
    }

    /** We accept no more and answered everything in hand; {@code generation} is our newest. */
    public void drained(final long generation) throws IOException {
        send(DRAINED + ' ' + generation);
    }

    private synchronized void send(final String line) throws IOException {
        writeLine(out, line);
    }

    /**
     * Writes {@code line} and '\n' in one write, so a descriptor attached to the socket before
     * it travels with this line's first byte.
     */
    public static void writeLine(final OutputStream out, final String line) throws IOException {
        final byte[] bytes = (line + '\n').getBytes(StandardCharsets.US_ASCII);
        if (bytes.length > MAX_LINE_BYTES) {
            throw new IllegalArgumentException("link line of " + bytes.length + " bytes exceeds " + MAX_LINE_BYTES);
        }
        out.write(bytes);
        out.flush();
    }

    /**
     * Reads one line a byte at a time (lines are rare and short; a byte read never swallows the
     * next line's descriptor). Returns null at end of stream.
     *
     * @throws IOException if the line is longer than {@value #MAX_LINE_BYTES} bytes or is not ASCII.
     */
    public static String readLine(final InputStream in) throws IOException {
        final byte[] line = new byte[MAX_LINE_BYTES];
        int length = 0;
        while (true) {
            final int b = in.read();
            if (b < 0) {
                return null;
            }
            if (b == '\n') {
                return new String(line, 0, length, StandardCharsets.US_ASCII);
            }
            if (length == MAX_LINE_BYTES - 1 || b > 0x7e || b < 0x20) {
                throw new IOException("malformed link line (too long or not printable ASCII)");
            }
            line[length++] = (byte) b;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
