package dev.saccade.supervisor;

import dev.saccade.ipc.EndpointListener;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Semaphore;
import java.util.function.Function;
import org.newsclub.net.unix.AFSocket;
import org.newsclub.net.unix.AFUNIXSocketAddress;
import org.newsclub.net.unix.AFUNIXSocketChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control socket's thread: accepts connections (peer uid checked by {@link EndpointListener})
 * and serves each on a thread of its own: one request line read, one JSON line from the handler
 * answered, closed. A request that is too long, malformed or not ASCII-clean JSON gets
 * {@code ok:false}; a client that sends nothing for {@value #READ_TIMEOUT_MS} ms is closed. A
 * status asked during an upgrade answers at once; commands themselves run one at a time on the
 * supervisor's own thread.
 */
final class ControlServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControlServer.class);
    static final int READ_TIMEOUT_MS = 5_000;
    private static final int DISCARD_LIMIT_BYTES = 1 << 20;
    /** Control requests served at once. */
    static final int MAX_IN_FLIGHT = 8;

    private final EndpointListener listener;
    private final Function<ControlRequest, String> handler;
    private final Thread thread;
    private final Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
    private volatile boolean running = true;
    /** Set once the thread opened it; {@link #close()} wakes a select with it (no timeout: no idle wake-ups). */
    private volatile Selector selector;

    ControlServer(final EndpointListener listener, final Function<ControlRequest, String> handler) {
        this.listener = listener;
        this.handler = handler;
        this.thread = new Thread(this::run, "saccade-supervisor-control");
        thread.setDaemon(true);
    }

    ControlServer start() {
        thread.start();
        return this;
    }

    private void run() {
        try (Selector selector = listener.serverChannel().provider().openSelector()) {
            this.selector = selector;
            final SelectionKey key = listener.serverChannel().register(selector, SelectionKey.OP_ACCEPT);
            while (running) {
                if (selector.select() == 0) {
                    continue;
                }
                selector.selectedKeys().clear();
                if (!key.isValid()) {
                    return;
                }
                for (AFUNIXSocketChannel channel = listener.acceptNonBlocking(); channel != null && running;
                    channel = listener.acceptNonBlocking()) {
                    dispatch(channel);
                }
            }
        } catch (final IOException e) {
            if (running) {
                LOG.error("event=control_failed socket={}", listener.path(), e);
            }
        }
    }

    /**
     * Each connection on a thread of its own, so {@code status} answers while an upgrade's reply is
     * pending and a client that never sends its line holds up no one; beyond
     * {@value #MAX_IN_FLIGHT} at once the answer is "busy".
     */
    private void dispatch(final AFUNIXSocketChannel channel) {
        if (!inFlight.tryAcquire()) {
            try (channel) {
                channel.configureBlocking(true);
                channel.socket().getOutputStream().write((ControlRequest.error("the supervisor is serving "
                    + MAX_IN_FLIGHT + " control requests; try again") + '\n').getBytes(StandardCharsets.UTF_8));
            } catch (final IOException e) {
                LOG.warn("event=control_io_failed error={}", e.toString());
            }
            return;
        }
        final Thread connection = new Thread(() -> {
            try {
                serve(channel);
            } finally {
                inFlight.release();
            }
        }, "saccade-supervisor-control-request");
        connection.setDaemon(true);
        connection.start();
    }

    private void serve(final AFUNIXSocketChannel channel) {
        try (channel) {
            channel.configureBlocking(true);
            final AFSocket<AFUNIXSocketAddress> socket = channel.socket();
            socket.setSoTimeout(READ_TIMEOUT_MS);
            final String line = readLine(socket.getInputStream());
            String reply;
            if (line == null) {
                reply = ControlRequest.error("a request is one JSON line of at most " + ControlRequest.MAX_LINE_BYTES
                    + " bytes ending in a newline");
            } else {
                try {
                    reply = handler.apply(ControlRequest.parse(line));
                } catch (final IllegalArgumentException e) {
                    reply = ControlRequest.error(e.getMessage());
                }
            }
            socket.getOutputStream().write((reply + '\n').getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
        } catch (final SocketTimeoutException e) {
            LOG.warn("event=control_timeout reason=no request line within {} ms", READ_TIMEOUT_MS);
        } catch (final IOException e) {
            LOG.warn("event=control_io_failed error={}", e.toString());
        }
    }

    /**
     * The request line, or null if it is too long or the stream ended before its newline. An
     * overlong line is read on to its end (up to {@value #DISCARD_LIMIT_BYTES} bytes) so the
     * error reply reaches the client: closing with unread input would reset the connection.
     */
    private static String readLine(final InputStream in) throws IOException {
        final ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                return null;
            }
            if (line.size() == ControlRequest.MAX_LINE_BYTES) {
                for (int skipped = 0; b >= 0 && b != '\n' && skipped < DISCARD_LIMIT_BYTES; skipped++) {
                    b = in.read();
                }
                return null;
            }
            line.write(b);
        }
        return line.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        running = false;
        final Selector s = selector;
        if (s != null) {
            s.wakeup(); // a wakeup before the select makes that select return at once
        }
        try {
            thread.join(2_000);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        listener.close();
    }
}
