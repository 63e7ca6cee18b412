package dev.saccade.owner;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a calm owner sleeps (D69): one {@code poll(2)} on the owner thread over its clients'
 * sockets and an eventfd that {@link #wake()} writes, so a request, a client's close and any
 * hand-off from another thread (a scene, a connection) each end the sleep at once. The owner
 * thread arms the sockets itself and reads and closes them itself, so no other thread ever holds
 * one of them.
 *
 * <p>The poll set is a fixed native array: entry 0 is the eventfd, entry {@code 1 + slot} a
 * client slot's socket ({@code fd} -1 while disarmed, which poll skips). Each entry is
 * {@code struct pollfd}:
 * <pre>
 *   0               4       6       8
 *   +---------------+-------+-------+
 *   |      fd       |events |revents|
 *   +---------------+-------+-------+
 * </pre>
 *
 * <p>{@link #wake()} from any thread; everything else on the owner thread.
 */
public final class ClientReadiness implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClientReadiness.class);
    static final int POLLIN = 0x1;
    static final int POLLRDHUP = 0x2000;
    private static final int FD_OFFSET = 0;
    private static final int EVENTS_OFFSET = FD_OFFSET + Integer.BYTES;
    private static final int REVENTS_OFFSET = EVENTS_OFFSET + Short.BYTES;
    private static final int POLLFD_LENGTH = REVENTS_OFFSET + Short.BYTES;
    private static final int EFD_NONBLOCK = 04000;
    private static final int EFD_CLOEXEC = 02000000;
    private static final long COUNTER_BYTES = Long.BYTES;
    private static final boolean LINKED = link();

    private final int slots;
    private final Memory pollFds;
    /** The 8-byte increment {@link #wake()} writes; never changed after construction. */
    private final Memory one = new Memory(COUNTER_BYTES);
    /** Where the owner drains the eventfd's counter. Owner thread. */
    private final Memory drained = new Memory(COUNTER_BYTES);
    private final int eventFd;
    /** The owner is in, or about to enter, {@link #await}. Written by the owner thread. */
    private volatile boolean polling;
    /** Work was handed over since the owner last looked. Written by any thread, cleared by the owner. */
    private volatile boolean pending;
    /** The last {@link #await} ended with a socket ready; cleared by {@link #takeSocketsReady()}. Owner thread. */
    private boolean socketsReady;
    /** Sleeps that ended with a client's socket ready. Written by the owner thread; for tests. */
    private volatile long socketWakes;
    /** Guarded by this: the eventfd is closed. */
    private boolean closed;

    private ClientReadiness(final int slots, final int eventFd) {
        this.slots = slots;
        this.eventFd = eventFd;
        pollFds = new Memory((long) POLLFD_LENGTH * (slots + 1));
        pollFds.clear();
        one.setLong(0, 1);
        pollFds.setInt(FD_OFFSET, eventFd);
        pollFds.setShort(EVENTS_OFFSET, (short) POLLIN);
        for (int slot = 0; slot < slots; slot++) {
            disarm(slot);
        }
    }

    /**
     * A readiness for {@code slots} client slots, or null where the system offers no eventfd
     * (the owner then polls its sockets within its park cap, as before D69).
     */
    public static ClientReadiness open(final int slots) {
        if (!LINKED) {
            return null;
        }
        final int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        if (fd < 0) {
            LOG.warn("event=eventfd_failed errno={} effect=owner_polls_each_ms", Native.getLastError());
            return null;
        }
        return new ClientReadiness(slots, fd);
    }

    private static boolean link() {
        try {
            Native.register(ClientReadiness.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
            return true;
        } catch (final UnsatisfiedLinkError e) {
            LOG.warn("event=libc_unavailable error={} effect=owner_polls_each_ms", e.toString());
            return false;
        }
    }

    private static native int eventfd(int initval, int flags);

    private static native int poll(Pointer fds, long count, int timeoutMs);

    private static native long read(int fd, Pointer buffer, long count);

    private static native long write(int fd, Pointer buffer, long count);

    private static native int close(int fd);

    /**
     * Wakes the owner on a request or a close of {@code fd} ({@code readable}) or on its close
     * alone (a connection whose request is held while it waits: its next bytes are not read yet).
     */
    public void arm(final int slot, final int fd, final boolean readable) {
        final long at = entry(slot);
        pollFds.setInt(at + FD_OFFSET, fd);
        pollFds.setShort(at + EVENTS_OFFSET, (short) (readable ? POLLIN | POLLRDHUP : POLLRDHUP));
        pollFds.setShort(at + REVENTS_OFFSET, (short) 0);
    }

    public void disarm(final int slot) {
        final long at = entry(slot);
        pollFds.setInt(at + FD_OFFSET, -1);
        pollFds.setShort(at + REVENTS_OFFSET, (short) 0);
    }

    /** Whether the last {@link #await} found {@code slot}'s socket ready. */
    public boolean ready(final int slot) {
        return pollFds.getShort(entry(slot) + REVENTS_OFFSET) != 0;
    }

    /** Once after an {@link #await} that ended with a socket ready: true. */
    public boolean takeSocketsReady() {
        final boolean ready = socketsReady;
        socketsReady = false;
        return ready;
    }

    /** From any thread: the owner has work; ends its {@link #await} now, or keeps it from starting. */
    public void wake() {
        pending = true;
        if (polling) {
            synchronized (this) { // never on the owner thread's way; keeps a write off a closed descriptor
                if (!closed) {
                    write(eventFd, one, COUNTER_BYTES);
                }
            }
        }
    }

    /**
     * Sleeps until an armed socket is ready, {@link #wake()} is called, or {@code timeoutNs}
     * passes (rounded up to a millisecond). Returns at once if a wake came since the last await.
     */
    public void await(final long timeoutNs) {
        polling = true;
        if (pending) { // a hand-off raced the owner's last look: take it now (wake saw polling false, or will write)
            polling = false;
            pending = false;
            return;
        }
        final long ms = (timeoutNs + 999_999) / 1_000_000;
        final int ready = poll(pollFds, slots + 1L, (int) Math.min(Integer.MAX_VALUE, Math.max(0, ms)));
        polling = false;
        pending = false;
        if (ready > 0) {
            if (pollFds.getShort(REVENTS_OFFSET) != 0) {
                read(eventFd, drained, COUNTER_BYTES); // non-blocking; resets the counter
                pollFds.setShort(REVENTS_OFFSET, (short) 0);
            }
            socketsReady = anySlotReady();
            if (socketsReady) {
                socketWakes++; // single writer: the owner thread
            }
        }
    }

    /** The owner sleeps on its sockets now; for tests. */
    boolean sleeping() {
        return polling && !pending;
    }

    /** Sleeps ended by a client's socket so far; for tests. */
    long socketWakes() {
        return socketWakes;
    }

    private boolean anySlotReady() {
        for (int slot = 0; slot < slots; slot++) {
            if (ready(slot)) {
                return true;
            }
        }
        return false;
    }

    private static long entry(final int slot) {
        return (long) POLLFD_LENGTH * (slot + 1);
    }

    /** Owner thread, once it no longer awaits. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            close(eventFd);
        }
    }
}
