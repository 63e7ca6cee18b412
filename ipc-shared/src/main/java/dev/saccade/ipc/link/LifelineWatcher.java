package dev.saccade.ipc.link;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.newsclub.net.unix.AFUNIXSocketChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A thread blocked in {@code read(2)} on a lifeline. The kernel closes a process's sockets when
 * it dies, however it dies (kill -9 included), so the read returns end-of-file within
 * milliseconds of the peer's death (measured 0.06–2.2 ms; see the tests) and the listener runs
 * at once, instead of waiting for a heartbeat to lapse. Anything else the read returns (data,
 * which the lifeline never carries after its handshake, or an error such as ECONNRESET) counts
 * as lost too: the safe side is always to release.
 *
 * <p>The one exception is the doorbell: a watcher started with a doorbell action (the helper's,
 * see {@link HelperSide#beginLongPark}) runs it for each {@link #DOORBELL} byte the owner sends
 * ({@link #ring()}) and goes on watching; any other byte is still a loss.
 *
 * <p>The listener runs at most once. {@link #close()} stops the watcher without calling it.
 */
public final class LifelineWatcher implements AutoCloseable {
    /** The peer closed the lifeline or died. */
    public static final int EOF = 1;
    /** The peer wrote after the handshake, which it never does. */
    public static final int UNEXPECTED_DATA = 2;
    /** The read failed (connection reset, or the socket broke). */
    public static final int ERROR = 3;

    /** The one byte the owner may send after the handshake: "a plan is waiting, wake up". */
    public static final byte DOORBELL = 0x07;

    private static final Logger LOG = LoggerFactory.getLogger(LifelineWatcher.class);
    private static final long JOIN_MS = TimeUnit.SECONDS.toMillis(2);

    private final AFUNIXSocketChannel channel;
    private final LifelineListener listener;
    private final Runnable onDoorbell;
    private final Thread thread;
    /** One byte, {@link #DOORBELL}, sent by {@link #ring()}. */
    private final ByteBuffer bell = ByteBuffer.allocateDirect(1).put(0, DOORBELL);
    /** Written by the closing thread. */
    private volatile boolean closing;
    /** Written by the watcher thread before {@link #fired} is set. */
    private volatile int reason;
    private volatile long firedAtNs;
    private volatile boolean fired;

    private LifelineWatcher(final AFUNIXSocketChannel channel, final LifelineListener listener, final Runnable onDoorbell,
        final String name) {
        this.channel = channel;
        this.listener = listener;
        this.onDoorbell = onDoorbell;
        this.thread = new Thread(this::run, name);
        thread.setDaemon(true);
    }

    /**
     * Starts watching {@code channel}, which is switched to blocking mode and belongs to the
     * watcher from now on (nothing else may read it).
     */
    public static LifelineWatcher start(final AFUNIXSocketChannel channel, final LifelineListener listener,
        final String threadName) throws IOException {
        return start(channel, listener, null, threadName);
    }

    /** As {@link #start(AFUNIXSocketChannel, LifelineListener, String)}; {@code onDoorbell} runs per doorbell byte. */
    public static LifelineWatcher start(final AFUNIXSocketChannel channel, final LifelineListener listener,
        final Runnable onDoorbell, final String threadName) throws IOException {
        channel.configureBlocking(true);
        final LifelineWatcher watcher = new LifelineWatcher(channel, listener, onDoorbell, threadName);
        watcher.thread.start();
        return watcher;
    }

    /** Whether the lifeline was lost (the listener has been or is being called). */
    public boolean fired() {
        return fired;
    }

    /** Why it was lost, 0 before. */
    public int reason() {
        return reason;
    }

    /** CLOCK_MONOTONIC when the loss was detected, 0 before. */
    public long firedAtNs() {
        return firedAtNs;
    }

    public static String reasonName(final int reason) {
        switch (reason) {
            case EOF: return "EOF";
            case UNEXPECTED_DATA: return "UNEXPECTED_DATA";
            case ERROR: return "ERROR";
            default: return "NONE";
        }
    }

    /**
     * Sends the peer one {@link #DOORBELL} byte (the owner's thread, when the helper is in a long
     * park). One write(2) of a preallocated byte; a failure means the peer is going, which this
     * watcher reports by itself.
     *
     * @return whether the byte was written.
     */
    public boolean ring() {
        try {
            bell.clear();
            return channel.write(bell) == 1;
        } catch (final IOException e) {
            return false;
        }
    }

    /** Stops watching and closes the lifeline (the peer sees end-of-file); no callback. */
    @Override
    public void close() throws IOException {
        closing = true;
        try {
            channel.close();
        } finally {
            if (Thread.currentThread() != thread) {
                try {
                    thread.join(JOIN_MS);
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private static boolean onlyDoorbells(final ByteBuffer buffer) {
        for (int i = 0; i < buffer.position(); i++) {
            if (buffer.get(i) != DOORBELL) {
                return false;
            }
        }
        return buffer.position() > 0;
    }

    private void run() {
        final ByteBuffer buffer = ByteBuffer.allocateDirect(64);
        int why;
        try {
            while (true) {
                final int n = channel.read(buffer);
                if (n < 0) {
                    why = EOF;
                    break;
                }
                if (onDoorbell == null || !onlyDoorbells(buffer)) {
                    why = UNEXPECTED_DATA;
                    break;
                }
                buffer.clear();
                onDoorbell.run();
            }
        } catch (final IOException e) {
            why = ERROR;
        }
        final long nowNs = System.nanoTime();
        if (closing) {
            return;
        }
        reason = why;
        firedAtNs = nowNs;
        fired = true;
        try {
            listener.onLifelineLost(why, nowNs);
        } catch (final RuntimeException | Error e) {
            LOG.error("event=lifeline-listener-failed", e);
        }
        // Logged after the listener ran: the release must not wait for stderr.
        LOG.info("event=lifeline-lost reason={} thread={}", reasonName(why), Thread.currentThread().getName());
    }
}
