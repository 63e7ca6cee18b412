package dev.saccade.atspi;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Peer-to-peer D-Bus connections to applications' own servers: at-spi2-atk listens on a socket
 * of its own ({@code Application.GetApplicationBusAddress}) and answers the same calls there as on
 * the bus. The refresh of such an application goes over it: no bus daemon in between (it handled
 * each of the ~700 messages of a gtk3-demo refresh), and our own encoding (see {@link DBusWire}):
 * a batch leaves in one write.
 *
 * <p>One I/O thread ({@value #THREAD_NAME}, daemon) serves every connection with one selector:
 * connects, authenticates (SASL EXTERNAL), reads, decodes replies and completes their calls, and
 * writes what a sender could not write at once. Calls are built and sent by the source thread;
 * a call never blocks it (non-blocking writes, the rest is queued).
 *
 * <p>A connection that fails (the application exits, sends garbage) fails its pending calls with
 * {@code org.freedesktop.DBus.Error.Disconnected}; the source then uses the bus for that
 * application.
 */
final class PeerLink implements AutoCloseable {
    static final String THREAD_NAME = "saccade-atspi-io";
    static final String DISCONNECTED = "org.freedesktop.DBus.Error.Disconnected";
    private static final int IN_BUFFER_BYTES = 64 * 1024;
    private static final int OUT_BUFFER_BYTES = 64 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(PeerLink.class);

    private final Selector selector;
    private final Thread thread;
    private final byte[] authRequest;
    private final ConcurrentLinkedQueue<Connection> toRegister = new ConcurrentLinkedQueue<>();
    private final List<Connection> connections = new ArrayList<>();  // I/O thread only
    private volatile boolean running = true;

    PeerLink() throws IOException {
        final Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        final StringBuilder hex = new StringBuilder();
        for (final byte b : String.valueOf(uid).getBytes(StandardCharsets.US_ASCII)) {
            hex.append(String.format("%02x", b));
        }
        // The leading NUL byte is the SASL credentials byte the spec requires first.
        authRequest = ("\0AUTH EXTERNAL " + hex + "\r\n").getBytes(StandardCharsets.US_ASCII);
        selector = Selector.open();
        thread = new Thread(this::run, THREAD_NAME);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * The socket path of a {@code unix:path=...} address (the first such entry), or null for
     * anything else (abstract sockets, TCP): those applications stay on the bus.
     */
    static String socketPath(final String address) {
        if (address == null) {
            return null;
        }
        for (final String entry : address.split(";")) {
            if (!entry.startsWith("unix:")) {
                continue;
            }
            for (final String pair : entry.substring(5).split(",")) {
                if (pair.startsWith("path=") && pair.length() > 6 && pair.charAt(5) == '/') {
                    return pair.substring(5);
                }
            }
        }
        return null;
    }

    /** Starts connecting (on the I/O thread); the connection is usable once {@link Connection#isReady()}. */
    Connection open(final String socketPath) {
        final Connection c = new Connection(Path.of(socketPath));
        toRegister.add(c);
        selector.wakeup();
        return c;
    }

    @Override
    public void close() {
        running = false;
        selector.wakeup();
        try {
            thread.join(AtspiSource.CLOSE_TIMEOUT_MS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ================================================================ I/O thread

    private void run() {
        try {
            while (running) {
                selector.select(1_000);
                Connection c;
                while ((c = toRegister.poll()) != null) {
                    register(c);
                }
                final Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    final SelectionKey key = keys.next();
                    keys.remove();
                    final Connection conn = (Connection) key.attachment();
                    try {
                        if (!key.isValid()) {
                            continue;
                        }
                        if (key.isConnectable()) {
                            conn.finishConnect();
                        }
                        if (key.isValid() && key.isReadable()) {
                            conn.read();
                        }
                        if (key.isValid() && key.isWritable()) {
                            conn.flushFromIoThread();
                        }
                    } catch (final IOException | RuntimeException e) {
                        conn.close(e.toString());
                    }
                }
                connections.removeIf(Connection::isClosed);
            }
        } catch (final IOException | RuntimeException e) {
            LOG.warn("event=atspi-peer-io-failed error={}", e.toString(), e);
        } finally {
            for (final Connection c : connections) {
                c.close("closed");
            }
            Connection c;
            while ((c = toRegister.poll()) != null) {
                c.close("closed");
            }
            try {
                selector.close();
            } catch (final IOException ignore) {
                // reason: the thread ends here; an unclosable selector is reclaimed with the process
            }
        }
    }

    private void register(final Connection c) {
        try {
            final SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
            channel.configureBlocking(false);
            c.channel = channel;
            final boolean connected = channel.connect(UnixDomainSocketAddress.of(c.path));
            c.key = channel.register(selector, connected ? SelectionKey.OP_READ : SelectionKey.OP_CONNECT, c);
            connections.add(c);
            if (connected) {
                c.startAuth();
            }
        } catch (final IOException | RuntimeException e) {
            c.close(e.toString());
        }
    }

    /** One peer-to-peer connection. Sending: source thread; everything else: I/O thread. */
    final class Connection implements CallChannel {
        private static final int CONNECTING = 0;
        private static final int AUTHENTICATING = 1;
        private static final int READY = 2;
        private static final int CLOSED = 3;

        final Path path;
        private final Map<Integer, PeerCall> pending = new ConcurrentHashMap<>();
        private volatile int state = CONNECTING;
        private volatile String closeReason;
        /** I/O thread only (and the registering code on it). */
        private SocketChannel channel;
        private SelectionKey key;
        private ByteBuffer in = ByteBuffer.allocate(IN_BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        /** Source thread only: the batch being built. */
        private ByteBuffer staging = ByteBuffer.allocate(OUT_BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        private int nextSerial;
        /** Guarded by this: bytes not yet written, in write mode. */
        private ByteBuffer out = ByteBuffer.allocate(OUT_BUFFER_BYTES);

        Connection(final Path path) {
            this.path = path;
        }

        boolean isReady() {
            return state == READY;
        }

        boolean isClosed() {
            return state == CLOSED;
        }

        String closeReason() {
            return closeReason;
        }

        int pendingCalls() {
            return pending.size();
        }

        @Override
        public Reply call(
            final CallBatch batch, final String objectPath, final String iface, final String member,
            final String signature, final int kind, final int index, final Object... args) {
            final int serial = ++nextSerial == 0 ? ++nextSerial : nextSerial;  // 0 is not a valid serial
            final PeerCall call = new PeerCall(serial, kind, index, batch);
            staging = DBusWire.appendCall(staging, serial, null, objectPath, iface, member, signature, args);
            pending.put(serial, call);
            return batch.add(call);
        }

        @Override
        public void send(final CallBatch batch) {
            staging.flip();
            final boolean open;
            synchronized (this) {
                open = state == READY;
                if (open) {
                    if (out.remaining() < staging.remaining()) {
                        final ByteBuffer bigger = ByteBuffer.allocate(out.position() + staging.remaining() + OUT_BUFFER_BYTES);
                        out.flip();
                        bigger.put(out);
                        out = bigger;
                    }
                    out.put(staging);
                }
            }
            staging.clear();
            if (open) {
                try {
                    flush();
                } catch (final IOException e) {
                    close(e.toString());  // fails the calls just registered
                }
            } else {
                failPending(closeReason == null ? "not connected" : closeReason);
            }
            batch.seal();
        }

        /** Writes what it can; the I/O thread writes the rest when the socket takes more. */
        private void flush() throws IOException {
            synchronized (this) {
                out.flip();
                try {
                    channel.write(out);
                } finally {
                    out.compact();
                }
                if (out.position() > 0 && key.isValid()) {
                    key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                    selector.wakeup();
                }
            }
        }

        void flushFromIoThread() throws IOException {
            synchronized (this) {
                flush();
                if (out.position() == 0 && key.isValid()) {
                    key.interestOps(SelectionKey.OP_READ);
                }
            }
        }

        void finishConnect() throws IOException {
            if (channel.finishConnect()) {
                key.interestOps(SelectionKey.OP_READ);
                startAuth();
            }
        }

        void startAuth() throws IOException {
            state = AUTHENTICATING;
            final ByteBuffer request = ByteBuffer.wrap(authRequest);
            // A few dozen bytes into an empty socket buffer: one write takes them all.
            channel.write(request);
            if (request.hasRemaining()) {
                throw new IOException("could not send the SASL request");
            }
        }

        void read() throws IOException {
            final int n = channel.read(in);
            if (n < 0) {
                throw new ClosedChannelException();
            }
            in.flip();
            try {
                if (state == AUTHENTICATING) {
                    readAuthReply();
                }
                if (state == READY) {
                    readMessages();
                }
            } finally {
                in.compact();
            }
        }

        private void readAuthReply() throws IOException {
            for (int i = in.position(); i + 1 < in.limit(); i++) {
                if (in.get(i) == '\r' && in.get(i + 1) == '\n') {
                    final byte[] line = new byte[i - in.position()];
                    in.get(line);
                    in.position(i + 2);
                    final String reply = new String(line, StandardCharsets.US_ASCII);
                    if (!reply.startsWith("OK ")) {
                        throw new IOException("SASL EXTERNAL refused: " + reply);
                    }
                    final ByteBuffer begin = ByteBuffer.wrap("BEGIN\r\n".getBytes(StandardCharsets.US_ASCII));
                    channel.write(begin);
                    if (begin.hasRemaining()) {
                        throw new IOException("could not send BEGIN");
                    }
                    state = READY;
                    return;
                }
            }
            if (in.limit() > 512) {
                throw new IOException("no SASL reply line");
            }
        }

        private void readMessages() {
            while (true) {
                final int length = DBusWire.messageLength(in);
                if (length < 0) {
                    return;
                }
                if (length > in.remaining()) {
                    if (length > in.capacity()) {
                        final ByteBuffer bigger = ByteBuffer.allocate(length + IN_BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
                        bigger.put(in);
                        bigger.flip();
                        in = bigger;
                    }
                    return;
                }
                final int start = in.position();
                final DBusWire.Message m = DBusWire.decode(in, length);
                in.position(start + length);
                if (m.type == DBusWire.METHOD_RETURN || m.type == DBusWire.ERROR) {
                    final PeerCall call = pending.remove(m.replySerial);
                    if (call != null) {
                        if (m.type == DBusWire.ERROR) {
                            final Object first = m.body != null && m.body.length > 0 ? m.body[0] : null;
                            call.complete(null, m.errorName, first == null ? m.errorName : m.errorName + ": " + first);
                        } else {
                            call.complete(m.body, null, null);
                        }
                    }
                }
                // Signals: at-spi2-atk copies its events to every peer; the bus delivers them to us already.
            }
        }

        /** Closes the socket and fails every pending call. Any thread; idempotent. */
        void close(final String reason) {
            synchronized (this) {
                if (state == CLOSED) {
                    return;
                }
                closeReason = reason;
                state = CLOSED;
            }
            try {
                if (channel != null) {
                    channel.close();
                }
            } catch (final IOException ignore) {
                // reason: a socket that fails to close is dropped all the same
            }
            failPending(reason);
        }

        private void failPending(final String reason) {
            for (final Iterator<PeerCall> it = pending.values().iterator(); it.hasNext(); ) {
                final PeerCall call = it.next();
                it.remove();
                call.complete(null, DISCONNECTED, DISCONNECTED + ": " + reason);
            }
        }
    }
}
