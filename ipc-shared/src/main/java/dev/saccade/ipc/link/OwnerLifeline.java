package dev.saccade.ipc.link;

import dev.saccade.ipc.EndpointListener;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.newsclub.net.unix.AFUNIXSocketChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The owner's end of the lifeline: a Unix socket in {@code $RUN} (0600, bound by
 * {@link EndpointListener}'s rules: stale path unlinked, checked unlink at close, peer uid checked
 * on accept) that the input helper connects to. Its only message is the handshake
 * ({@link LifelineHandshake}); afterwards its end-of-file is the signal: when this process dies
 * or {@link #close()}s, the helper's {@link LifelineWatcher} fires and the helper releases every
 * held key and button.
 *
 * <p>The owner accepts a helper only if its peer uid is ours (the listener refuses others
 * unanswered), its peer pid is the helper it launched (when that pid is known) and it proves the
 * session nonce. Once accepted, a {@link LifelineWatcher} thread watches the helper's end: the
 * owner learns that the helper died from the listener it passed to {@link #awaitHelper} and from
 * {@link #pollHelperGone()} (one volatile read: no system call, no allocation, any thread).
 * (Polling the socket itself from the owner thread was measured to allocate 16 bytes per
 * non-blocking read in junixsocket, hence the thread.)
 *
 * <p>Threads: {@link #awaitHelper} blocks (up to its timeout) and belongs to the thread that
 * launches the helper, never the owner thread.
 */
public final class OwnerLifeline implements AutoCloseable {
    /** How long one connected peer may take over its handshake before the next is served. */
    static final long PEER_HANDSHAKE_NS = TimeUnit.SECONDS.toNanos(2);

    private static final Logger LOG = LoggerFactory.getLogger(OwnerLifeline.class);
    private static final long ACCEPT_POLL_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final EndpointListener listener;
    private final byte[] nonce;
    private final long ownerPid = ProcessHandle.current().pid();
    /** Written by the thread that calls {@link #awaitHelper}. */
    private volatile long helperPid;
    private volatile LifelineWatcher watcher;
    private volatile long refusedHandshakes;
    private boolean closed;

    private OwnerLifeline(final EndpointListener listener, final byte[] nonce) {
        this.listener = listener;
        this.nonce = nonce;
    }

    /**
     * Binds the lifeline socket at {@code path} (its directory must be the private runtime
     * directory). A stale socket of a dead owner is replaced; a live one makes this fail with
     * {@link dev.saccade.ipc.EndpointBusyException}.
     */
    public static OwnerLifeline bind(final Path path, final byte[] nonce) throws IOException {
        SessionNonce.checkLength(nonce);
        return new OwnerLifeline(EndpointListener.bind(path, Duration.ZERO), nonce);
    }

    /** {@link #awaitHelper(long, Duration, LifelineListener)} with no listener: poll instead. */
    public long awaitHelper(final long expectedHelperPid, final Duration timeout) throws IOException {
        return awaitHelper(expectedHelperPid, timeout, (reason, atNs) -> { });
    }

    /**
     * Waits for the helper to connect and prove itself; peers that fail a check are closed
     * without an answer and the wait goes on. The accepted connection is then watched:
     * {@code onHelperLost} runs once, on the watcher thread, when the helper's end closes (it
     * died or shut down).
     *
     * @param expectedHelperPid the pid of the helper this owner launched, or 0 to accept any
     *     helper of our uid that knows the nonce.
     * @return the helper's pid (from its peer credentials).
     * @throws SocketTimeoutException if no acceptable helper arrived in time.
     */
    public long awaitHelper(final long expectedHelperPid, final Duration timeout, final LifelineListener onHelperLost)
        throws IOException {
        if (watcher != null) {
            throw new IllegalStateException("a helper is already attached: pid " + helperPid);
        }
        final long deadlineNs = System.nanoTime() + timeout.toNanos();
        while (true) {
            final AFUNIXSocketChannel channel = listener.acceptNonBlocking();
            if (channel == null) {
                if (System.nanoTime() - deadlineNs >= 0) {
                    throw new SocketTimeoutException("no input helper attached to the lifeline " + listener.path()
                        + " within " + timeout.toMillis() + " ms (refused: " + refusedPeers() + ")");
                }
                LockSupport.parkNanos(ACCEPT_POLL_NS);
                continue;
            }
            final long peerPid = listener.lastPeerPid();
            String refusal = null;
            if (expectedHelperPid > 0 && peerPid != expectedHelperPid) {
                refusal = "peer pid " + peerPid + " is not the launched helper " + expectedHelperPid;
            }
            try {
                if (refusal == null) {
                    final long peerDeadlineNs = Math.min(deadlineNs, System.nanoTime() + PEER_HANDSHAKE_NS);
                    refusal = LifelineHandshake.check(LifelineHandshake.readMessage(channel, peerDeadlineNs),
                        LifelineHandshake.HELLO, peerPid, nonce);
                    if (refusal == null) {
                        LifelineHandshake.writeFully(channel,
                            LifelineHandshake.encode(LifelineHandshake.WELCOME, ownerPid, nonce), peerDeadlineNs);
                    }
                }
            } catch (final IOException e) {
                refusal = e.getMessage();
            }
            if (refusal == null) {
                helperPid = peerPid;
                watcher = LifelineWatcher.start(channel, onHelperLost, "saccade-lifeline-helper-" + peerPid);
                LOG.info("event=lifeline-accept path={} helperPid={}", listener.path(), peerPid);
                return peerPid;
            }
            refusedHandshakes++;
            LOG.warn("event=lifeline-refuse path={} peerPid={} reason=\"{}\"", listener.path(), peerPid, refusal);
            try {
                channel.close();
            } catch (final IOException ignore) {
                // A refused peer: nothing was promised to it, and the refusal is logged above.
            }
        }
    }

    /**
     * Whether the attached helper's end of the lifeline closed (it died or shut down, or broke
     * the protocol by writing). One volatile read; false before a helper attached.
     */
    public boolean pollHelperGone() {
        final LifelineWatcher w = watcher;
        return w != null && w.fired();
    }

    /**
     * Rings the attached helper's doorbell (it is in a long park and a plan is waiting): one
     * byte on the lifeline. Owner thread; false before a helper attached or once it is gone.
     */
    public boolean ringHelper() {
        final LifelineWatcher w = watcher;
        return w != null && !w.fired() && w.ring();
    }

    /** The attached helper's pid, 0 before one attached. */
    public long helperPid() {
        return helperPid;
    }

    /** Peers refused so far: foreign uid (by the listener), wrong pid, bad handshake. */
    public long refusedPeers() {
        return listener.refusedPeers() + refusedHandshakes;
    }

    public Path path() {
        return listener.path();
    }

    /**
     * Closes the connection to the helper (it sees end-of-file and releases everything), then
     * the listener, with its checked unlink. Continues past failures and reports the first.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        IOException failure = null;
        try {
            final LifelineWatcher w = watcher;
            if (w != null) {
                w.close();
            }
        } catch (final IOException e) {
            failure = e;
        }
        try {
            listener.close();
        } catch (final IOException e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
