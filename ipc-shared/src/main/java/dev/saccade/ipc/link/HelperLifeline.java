package dev.saccade.ipc.link;

import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.ipc.link.LinkRefusedException.Reason;
import java.io.IOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.newsclub.net.unix.AFUNIXSocketAddress;
import org.newsclub.net.unix.AFUNIXSocketChannel;
import org.newsclub.net.unix.AFUNIXSocketCredentials;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The input helper's end of the lifeline: it connects to the owner's socket, accepts the link
 * only after checking the owner's peer credentials (uid ours; pid the expected owner's, when
 * known) and receiving the owner's proof of the session nonce, then hands the connection to a
 * {@link LifelineWatcher} whose end-of-file means "the owner is gone: release everything now".
 */
public final class HelperLifeline implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HelperLifeline.class);
    private static final long CONNECT_RETRY_NS = TimeUnit.MILLISECONDS.toNanos(10);

    private final AFUNIXSocketChannel channel;
    private final long ownerPid;
    private LifelineWatcher watcher;
    private boolean closed;

    private HelperLifeline(final AFUNIXSocketChannel channel, final long ownerPid) {
        this.channel = channel;
        this.ownerPid = ownerPid;
    }

    /**
     * Connects (retrying while the socket is not there yet or refuses, until the timeout), checks
     * the owner and does the handshake.
     *
     * @param expectedOwnerPid the owner's pid (for instance {@link HelperSide#ownerPid()}), or 0
     *     to accept any owner of our uid that knows the nonce.
     * @throws LinkRefusedException {@code PEER_UID}, {@code PEER_PID} or {@code HANDSHAKE}
     *     (including the owner closing on us because it refused our HELLO).
     * @throws SocketTimeoutException if the owner did not answer in time.
     */
    public static HelperLifeline connect(final Path path, final byte[] nonce, final long expectedOwnerPid,
        final Duration timeout) throws IOException {
        SessionNonce.checkLength(nonce);
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        final AFUNIXSocketChannel channel = connectWithRetry(path, deadlineNs);
        try {
            final AFUNIXSocketCredentials credentials = channel.getPeerCredentials();
            final int uid = RuntimeDirectory.currentUid();
            if (credentials == null || credentials.getUid() != uid) {
                throw new LinkRefusedException(Reason.PEER_UID, "the lifeline " + path + " is held by uid "
                    + (credentials == null ? "unknown" : String.valueOf(credentials.getUid())) + ", not ours (" + uid + ")");
            }
            final long peerPid = credentials.getPid();
            if (expectedOwnerPid > 0 && peerPid != expectedOwnerPid) {
                throw new LinkRefusedException(Reason.PEER_PID, "the lifeline " + path + " is held by pid " + peerPid
                    + ", not by the owner " + expectedOwnerPid);
            }
            channel.configureBlocking(false);
            LifelineHandshake.writeFully(channel,
                LifelineHandshake.encode(LifelineHandshake.HELLO, ProcessHandle.current().pid(), nonce), deadlineNs);
            final String refusal = LifelineHandshake.check(LifelineHandshake.readMessage(channel, deadlineNs),
                LifelineHandshake.WELCOME, peerPid, nonce);
            if (refusal != null) {
                throw new LinkRefusedException(Reason.HANDSHAKE, "the owner's WELCOME: " + refusal);
            }
            LOG.info("event=lifeline-connect path={} ownerPid={}", path, peerPid);
            return new HelperLifeline(channel, peerPid);
        } catch (final IOException | RuntimeException e) {
            try {
                channel.close();
            } catch (final IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Starts the watcher thread: {@code listener} runs once, within milliseconds of the owner's
     * death or close.
     */
    public LifelineWatcher watch(final LifelineListener listener) throws IOException {
        return watch(listener, null);
    }

    /**
     * As {@link #watch(LifelineListener)}; {@code onDoorbell} runs on the watcher thread each time
     * the owner rings ({@link LifelineWatcher#DOORBELL}), for a helper in a long park.
     */
    public LifelineWatcher watch(final LifelineListener listener, final Runnable onDoorbell) throws IOException {
        if (watcher != null) {
            throw new IllegalStateException("already watched");
        }
        watcher = LifelineWatcher.start(channel, listener, onDoorbell, "saccade-lifeline-owner-" + ownerPid);
        return watcher;
    }

    /** The owner's pid, from its peer credentials. */
    public long ownerPid() {
        return ownerPid;
    }

    /** Closes the lifeline (the owner sees end-of-file); the watcher stops without calling back. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (watcher != null) {
            watcher.close();
        } else {
            channel.close();
        }
    }

    private static AFUNIXSocketChannel connectWithRetry(final Path path, final long deadlineNs) throws IOException {
        final AFUNIXSocketAddress address = AFUNIXSocketAddress.of(path);
        while (true) {
            final AFUNIXSocketChannel channel = AFUNIXSocketChannel.open();
            try {
                channel.connect(address);
                return channel;
            } catch (final SocketException e) {
                channel.close();
                if (System.nanoTime() - deadlineNs >= 0) {
                    final SocketTimeoutException timeout =
                        new SocketTimeoutException("cannot connect the lifeline " + path + ": " + e.getMessage());
                    timeout.initCause(e);
                    throw timeout;
                }
                LockSupport.parkNanos(CONNECT_RETRY_NS);
            }
        }
    }
}
