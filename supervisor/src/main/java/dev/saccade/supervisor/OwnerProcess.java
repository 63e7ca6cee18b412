package dev.saccade.supervisor;

import dev.saccade.ipc.EndpointListener;
import dev.saccade.ipc.ListenerHandoff;
import dev.saccade.ipc.link.SessionNonce;
import java.io.FileDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.ProcessBuilder.Redirect;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.newsclub.net.unix.AFSocket;
import org.newsclub.net.unix.AFUNIXSocketAddress;
import org.newsclub.net.unix.AFUNIXSocketChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One owner service process the supervisor started, and its end of the owner's link
 * ({@link ListenerHandoff}): spawn, wait for its hello (right pid, right nonce) and ready, give it
 * the listener, ping it, tell it to drain. The conductor thread drives it; one reader thread per
 * owner turns the owner's lines into {@link #lines} and pong times.
 */
final class OwnerProcess {
    private static final Logger LOG = LoggerFactory.getLogger(OwnerProcess.class);
    /** A connected owner says hello at once; this only bounds a peer that connects and stalls. */
    private static final int HELLO_TIMEOUT_MS = 5_000;

    private final Process process;
    private final Distribution distribution;
    private final String nonceHex;
    private final long startNs;
    private final BlockingQueue<String> lines = new ArrayBlockingQueue<>(16);
    private AFSocket<AFUNIXSocketAddress> link;
    /** The link's channel: junixsocket attaches outbound descriptors through it. */
    private AFUNIXSocketChannel linkChannel;
    private OutputStream out;
    /** Written by the reader thread. */
    private volatile long lastPongNs;
    /** Written by the conductor. */
    private volatile long generation;
    private volatile long servingSinceNs;
    /** The owner's last {@code input} line (reader thread): {@link #INPUT_UNKNOWN} until one came. */
    private volatile int input = INPUT_UNKNOWN;
    /** Told after each {@code input} line, on the reader thread. */
    private volatile Runnable onInput = () -> { };
    /** No {@code input} line yet: an owner without a helper, or one that predates the line. */
    static final int INPUT_UNKNOWN = -1;
    static final int INPUT_DOWN = 0;
    static final int INPUT_UP = 1;

    private OwnerProcess(final Process process, final Distribution distribution, final String nonceHex) {
        this.process = process;
        this.distribution = distribution;
        this.nonceHex = nonceHex;
        this.startNs = System.nanoTime();
        this.lastPongNs = startNs;
    }

    /** Starts {@code saccade owner run} of {@code distribution}, told to take its listener from our link. */
    static OwnerProcess spawn(final SupervisorContext context, final Distribution distribution, final String linkNonceHex)
        throws IOException {
        final List<String> command = new ArrayList<>();
        command.add(distribution.launcher().toString());
        command.add("owner");
        command.add("run");
        command.add("--display");
        command.add(context.display());
        command.add("--runtime-dir");
        command.add(context.runtimeDirectory().toString());
        command.add("--endpoint");
        command.add(context.endpoint().toString());
        command.add("--supervisor-link");
        command.add(context.linkSocket().toString());
        // `owner run --input-helper`: external attaches our helper, off runs without one,
        // launch (its default) has the owner start its own.
        if (context.inputHelperMode() != InputHelperMode.OWNER) {
            command.add("--input-helper");
            command.add(context.inputHelperMode() == InputHelperMode.SUPERVISED ? "external" : "off");
        }
        command.addAll(context.ownerArgs());
        final String nonceHex = SessionNonce.toHex(SessionNonce.generate());
        final ProcessBuilder builder = new ProcessBuilder(command).redirectInput(Redirect.PIPE);
        final Path log = PrivateLog.open(context.runtimeDirectory().resolve(SupervisorContext.OWNER_LOG_NAME));
        builder.redirectOutput(Redirect.appendTo(log.toFile())).redirectErrorStream(true);
        builder.environment().put(ListenerHandoff.NONCE_ENVIRONMENT_VARIABLE, nonceHex);
        builder.environment().put(SessionNonce.ENVIRONMENT_VARIABLE, linkNonceHex);
        builder.environment().put("SACCADE_JAVA_OPTS", context.ownerJavaOptions());
        builder.environment().put("DISPLAY", context.display());
        builder.environment().putAll(context.displayEnvironment());
        if (context.sessionBusAddress() != null) {
            builder.environment().put("DBUS_SESSION_BUS_ADDRESS", context.sessionBusAddress());
        }
        final Process process = builder.start();
        process.getOutputStream().close(); // the owner reads nothing from stdin
        return new OwnerProcess(process, distribution, nonceHex);
    }

    /**
     * Waits for this owner's link connection on {@code linkListener} and checks its hello. Any
     * other connection (another pid, a wrong nonce) is closed; a foreign uid never gets here.
     *
     * @return false if the owner exited or the deadline passed first.
     */
    boolean awaitLink(final EndpointListener linkListener, final Selector selector, final long deadlineNs)
        throws IOException {
        final SelectionKey key = linkListener.serverChannel().keyFor(selector) != null
            ? linkListener.serverChannel().keyFor(selector)
            : linkListener.serverChannel().register(selector, SelectionKey.OP_ACCEPT);
        while (process.isAlive()) {
            final long remainingMs = TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime());
            if (remainingMs <= 0) {
                return false;
            }
            // Bounded so an owner that died before connecting is noticed within 50 ms.
            selector.select(Math.min(remainingMs, 50));
            selector.selectedKeys().clear();
            if (!key.isValid()) {
                throw new IOException("link listener closed");
            }
            for (AFUNIXSocketChannel channel = linkListener.acceptNonBlocking(); channel != null;
                channel = linkListener.acceptNonBlocking()) {
                if (linkListener.lastPeerPid() == process.pid() && hello(channel)) {
                    return true;
                }
                LOG.warn("event=link_refused peer_pid={} expected_pid={}", linkListener.lastPeerPid(), process.pid());
                channel.close();
            }
        }
        return false;
    }

    private boolean hello(final AFUNIXSocketChannel channel) throws IOException {
        channel.configureBlocking(true);
        final AFSocket<AFUNIXSocketAddress> socket = channel.socket();
        socket.setSoTimeout(HELLO_TIMEOUT_MS);
        final String line;
        try {
            line = ListenerHandoff.readLine(socket.getInputStream());
        } catch (final IOException e) {
            return false;
        }
        final String expected = ListenerHandoff.HELLO + ' ' + nonceHex + ' ' + process.pid();
        // Constant time: the nonce is the secret that tells our child from any other local process of ours.
        if (line == null || !MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
            line.getBytes(StandardCharsets.US_ASCII))) {
            return false;
        }
        socket.setSoTimeout(0);
        link = socket;
        linkChannel = channel;
        out = socket.getOutputStream();
        final Thread reader = new Thread(this::readLines, "saccade-supervisor-link-" + process.pid());
        reader.setDaemon(true);
        reader.start();
        return true;
    }

    /** Reader thread: pongs update the liveness clock, everything else goes to the conductor. */
    private void readLines() {
        try {
            final InputStream in = link.getInputStream();
            for (String line = ListenerHandoff.readLine(in); line != null; line = ListenerHandoff.readLine(in)) {
                if (ListenerHandoff.PONG.equals(line)) {
                    lastPongNs = System.nanoTime();
                } else if (line.startsWith(ListenerHandoff.INPUT + ' ')) {
                    input = line.endsWith(' ' + ListenerHandoff.INPUT_UP) ? INPUT_UP : INPUT_DOWN;
                    onInput.run();
                } else if (!lines.offer(line)) {
                    LOG.warn("event=link_overflow pid={}", process.pid());
                    return;
                }
            }
        } catch (final IOException ignore) {
            // The owner went away; its process exit is the event the conductor acts on.
        }
    }

    /**
     * The argument of the next line that starts with {@code keyword}, or null if the owner
     * exited, the link ended, or the deadline passed.
     */
    String awaitLine(final String keyword, final long deadlineNs) throws InterruptedException {
        while (true) {
            final long remainingNs = deadlineNs - System.nanoTime();
            if (remainingNs <= 0) {
                return null;
            }
            // Bounded so an owner that died is noticed within 50 ms.
            final String line = lines.poll(Math.min(remainingNs, 50_000_000L), TimeUnit.NANOSECONDS);
            if (line == null) {
                if (!process.isAlive()) {
                    return null;
                }
                continue;
            }
            if (line.equals(keyword)) {
                return "";
            }
            if (line.startsWith(keyword + ' ')) {
                return line.substring(keyword.length() + 1);
            }
            LOG.warn("event=link_unexpected pid={} expected={} line={}", process.pid(), keyword, line);
        }
    }

    /** Sends {@code listen} with the listening descriptor attached (SCM_RIGHTS). */
    void giveListener(final FileDescriptor listening) throws IOException {
        linkChannel.setOutboundFileDescriptors(listening);
        ListenerHandoff.writeLine(out, ListenerHandoff.LISTEN);
    }

    void send(final String line) throws IOException {
        ListenerHandoff.writeLine(out, line);
    }

    boolean linked() {
        return link != null;
    }

    long lastPongNs() {
        return lastPongNs;
    }

    /** {@link #INPUT_UP}, {@link #INPUT_DOWN} or {@link #INPUT_UNKNOWN}: the owner's word on its helper. */
    int input() {
        return input;
    }

    /** What to do after each {@code input} line; set before the link is read. */
    void onInput(final Runnable action) {
        onInput = action;
    }

    void serving(final long nowNs) {
        servingSinceNs = nowNs;
        lastPongNs = nowNs;
    }

    long servingSinceNs() {
        return servingSinceNs;
    }

    long generation() {
        return generation;
    }

    void generation(final long value) {
        generation = value;
    }

    Process process() {
        return process;
    }

    long pid() {
        return process.pid();
    }

    long startNs() {
        return startNs;
    }

    Distribution distribution() {
        return distribution;
    }

    /** SIGKILL and wait for the exit (an owner that does not answer, or failed to start). */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
        closeLink();
    }

    /** SIGTERM (the owner neutralizes its clients and closes), SIGKILL after {@code graceMs}. */
    void terminate(final long graceMs) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(graceMs, TimeUnit.MILLISECONDS)) {
            kill();
        }
        closeLink();
    }

    void closeLink() {
        if (link != null) {
            try {
                link.close();
            } catch (final IOException ignore) {
                // The owner is gone or going; nothing is left to tell it.
            }
        }
    }
}
