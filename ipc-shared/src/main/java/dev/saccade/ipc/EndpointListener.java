package dev.saccade.ipc;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.newsclub.net.unix.AFServerSocket;
import org.newsclub.net.unix.AFUNIXServerSocket;
import org.newsclub.net.unix.AFUNIXServerSocketChannel;
import org.newsclub.net.unix.AFUNIXSocketAddress;
import org.newsclub.net.unix.AFUNIXSocketChannel;
import org.newsclub.net.unix.AFUNIXSocketCredentials;
import org.newsclub.net.unix.AddressAlreadyInUseSocketException;
import org.newsclub.net.unix.ConnectionRefusedSocketException;
import org.newsclub.net.unix.FileDescriptorCast;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A listening Unix-domain socket on a path, bound and released by the spec's fallback rule
 * (agent-abi.md §1.1; docs/architecture.md "Restart, upgrade and the endpoint", item 3).
 *
 * <p><b>Bind.</b> Under an advisory lock on the sibling {@code <name>.lock}, the path is probed:
 * missing → bind; a socket that accepts a connect → a live listener owns it, so release the lock
 * and retry every {@value #RETRY_INTERVAL_MS} ms until the wait runs out, then
 * {@link EndpointBusyException} (ALREADY_EXISTS); a socket that refuses → stale (its listener
 * died): unlink it and bind. Anything that is not a socket is never unlinked. The listener is
 * junixsocket's with {@code reuseAddress}, {@code deleteOnClose} and {@code shutdownOnClose} all
 * off: junixsocket's defaults would take over a live path, let an old listener delete a new
 * listener's file, and shut down a listener another process still holds a copy of. Backlog
 * {@value #BACKLOG}; the socket file is chmod 0600 and its device and inode recorded.
 *
 * <p><b>Close.</b> Under the same lock: close the listener, then unlink the path only if it is
 * still a socket with the recorded device and inode. Closing before the check while holding the
 * lock means no other binder can probe our (dead) listener, unlink it and bind a new file that
 * reuses our inode number in between: a cooperating binder either saw us alive (busy) or runs
 * after we are done. The lock file itself is never deleted: deleting it would let two processes
 * lock two different files of the same name.
 *
 * <p><b>Accept.</b> {@link #acceptNonBlocking()} checks the peer's uid (SO_PEERCRED) against
 * ours; a foreign peer is closed without a byte written and counted in {@link #refusedPeers()}.
 * The accepted peer's pid, uid and gid are kept in primitive fields until the next accept, so
 * reading them allocates nothing; accepting itself allocates (junixsocket's socket objects).
 *
 * <p>Threads: {@code bind} and {@code close} may run on any thread; {@code acceptNonBlocking}
 * and the {@code lastPeer*} accessors belong to one owner thread (the single writer of those
 * fields). The counters are volatile so a stats reader on another thread sees them.
 */
public final class EndpointListener implements AutoCloseable {
    /** Listen backlog (spec §1.1); connects beyond it wait in the kernel. */
    public static final int BACKLOG = 64;
    /** Retry interval against a live listener (spec §1.1, "Busy path"). */
    public static final long RETRY_INTERVAL_MS = 50;
    /** Suffix of the sibling lock file: {@code saccade-agent-v1.sock.lock}. */
    public static final String LOCK_SUFFIX = ".lock";

    private static final Logger LOG = LoggerFactory.getLogger(EndpointListener.class);
    private static final long RETRY_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(RETRY_INTERVAL_MS);
    /**
     * How long to poll for the advisory lock before giving up on this attempt. Its holders keep
     * it for microseconds; only a holder stopped inside its critical section (SIGSTOP, a
     * debugger) keeps it longer, and then bind counts the attempt as busy and close leaves the
     * path for the next binder's stale check, rather than either blocking forever.
     */
    private static final long LOCK_GRACE_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long LOCK_POLL_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final int FILE_TYPE_MASK = 0170000;
    private static final int FILE_TYPE_SOCKET = 0140000;
    private static final Set<PosixFilePermission> OWNER_READ_WRITE =
        EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    private static final Set<OpenOption> LOCK_FILE_OPTIONS =
        Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);

    /**
     * Serialises every locked section in this JVM. The advisory lock is a POSIX record lock,
     * which belongs to the process: two threads here would not exclude each other (the JDK
     * throws OverlappingFileLockException instead), and closing any channel on the lock file
     * drops the process's lock even if another channel took it. With this monitor at most one
     * channel on a lock file is open in the JVM at a time. Held for microseconds (probe, unlink,
     * bind); never while waiting out a live listener.
     */
    private static final Object LOCKED_SECTION = new Object();

    private static final int PROBE_ABSENT = 0;
    private static final int PROBE_LIVE = 1;
    private static final int PROBE_STALE = 2;

    private final Path path;
    private final Path lockPath;
    private final AFUNIXServerSocketChannel server;
    private final int uid;
    private final long device;
    private final long inode;
    /**
     * False for a listener adopted from another process ({@link #adopt}): the process that
     * bound the path (the supervisor) keeps a copy and decides when the path goes away, so
     * closing ours only drops our descriptor.
     */
    private final boolean unlinkOnClose;

    /** Written by the owner thread only. */
    private volatile long acceptedPeers;
    /** Written by the owner thread only. */
    private volatile long refusedPeers;
    /** Written by the owner thread only; -1 before the first accept. */
    private long lastPeerPid = -1;
    private long lastPeerUid = -1;
    private long lastPeerGid = -1;
    /** Set by close, on whichever thread calls it. */
    private volatile boolean closed;

    private EndpointListener(
        final Path path, final Path lockPath, final AFUNIXServerSocketChannel server, final int uid,
        final long device, final long inode, final boolean unlinkOnClose) {
        this.unlinkOnClose = unlinkOnClose;
        this.path = path;
        this.lockPath = lockPath;
        this.server = server;
        this.uid = uid;
        this.device = device;
        this.inode = inode;
    }

    /**
     * Binds {@code path}, waiting up to {@code busyWait} for a live listener there to go away
     * (retrying every {@value #RETRY_INTERVAL_MS} ms; {@link Duration#ZERO} probes once). The
     * directory must exist; see {@link RuntimeDirectory#ensure(Path)}. An attempt that finds
     * the lock held by another process for over a second counts as busy too, so the call can
     * overrun {@code busyWait} by that second.
     *
     * @throws EndpointBusyException if a live listener still holds the path after the wait.
     * @throws IOException if the path is something other than a socket, cannot be probed, or
     *     the bind fails otherwise.
     */
    public static EndpointListener bind(final Path path, final Duration busyWait) throws IOException {
        final long startNs = System.nanoTime();
        final long waitNs = busyWait.toNanos();
        final int uid = RuntimeDirectory.currentUid();
        final Path lockPath = lockPathOf(path);
        long nextAttemptNs = startNs;
        int busyAttempts = 0;
        while (true) {
            final EndpointListener listener = tryBind(path, lockPath, uid);
            final long nowNs = System.nanoTime();
            if (listener != null) {
                LOG.info("event=bind path={} dev={} ino={} busyAttempts={} waitedMs={}",
                    path, listener.device, listener.inode, busyAttempts,
                    TimeUnit.NANOSECONDS.toMillis(nowNs - startNs));
                return listener;
            }
            busyAttempts++;
            if (nowNs - startNs >= waitNs) {
                throw new EndpointBusyException(path, TimeUnit.NANOSECONDS.toMillis(nowNs - startNs));
            }
            nextAttemptNs += RETRY_INTERVAL_NS;
            // The last attempt falls exactly on the deadline, so a short wait still gets it.
            parkUntil(Math.min(nextAttemptNs, startNs + waitNs), path);
        }
    }

    /**
     * Wraps a listening descriptor another process bound on {@code path} and passed to us (see
     * {@link ListenerHandoff}). Same peer checks as a bound listener; {@link #close()} closes
     * our copy only: no lock, no unlink, and no shutdown, so the listener keeps queueing
     * connects for the other holders of the descriptor.
     *
     * @throws IOException if the descriptor is not a listening Unix socket.
     */
    public static EndpointListener adopt(final Path path, final FileDescriptor listening) throws IOException {
        final AFUNIXServerSocket socket = FileDescriptorCast.using(listening).as(AFUNIXServerSocket.class);
        socket.setReuseAddress(false);
        socket.setDeleteOnClose(false);
        socket.setShutdownOnClose(false);
        final AFUNIXServerSocketChannel server = socket.getChannel();
        try {
            server.configureBlocking(false);
            long device = -1;
            long inode = -1;
            try {
                final Map<String, Object> attributes = Files.readAttributes(path, "unix:dev,ino", LinkOption.NOFOLLOW_LINKS);
                device = (Long) attributes.get("dev");
                inode = (Long) attributes.get("ino");
            } catch (final NoSuchFileException ignore) {
                // Reported as -1: the path is the binder's business, we only serve the descriptor.
            }
            final EndpointListener listener = new EndpointListener(path, lockPathOf(path), server,
                RuntimeDirectory.currentUid(), device, inode, false);
            LOG.info("event=adopt path={} dev={} ino={}", path, device, inode);
            return listener;
        } catch (final IOException | RuntimeException e) {
            closeQuietly(server, e);
            throw e;
        }
    }

    /** Whether this listener was bound here (true) or adopted from another process (false). */
    public boolean bound() {
        return unlinkOnClose;
    }

    /** The sibling lock file of an endpoint path: {@code <name>.lock}. */
    public static Path lockPathOf(final Path path) {
        return path.resolveSibling(path.getFileName().toString() + LOCK_SUFFIX);
    }

    /**
     * Accepts one pending connection, if any, and checks its peer.
     *
     * @return a connected channel in non-blocking mode whose peer runs as our uid; {@code null}
     *     when nothing is pending or when the pending peer was refused (a different uid, or
     *     credentials unavailable): that connection is closed without a byte written and counted
     *     in {@link #refusedPeers()}. Call again to take the next one.
     */
    public AFUNIXSocketChannel acceptNonBlocking() throws IOException {
        final AFUNIXSocketChannel channel = server.accept();
        if (channel == null) {
            return null;
        }
        final AFUNIXSocketCredentials credentials;
        try {
            credentials = channel.getPeerCredentials();
        } catch (final IOException e) {
            refuse(channel);
            return null;
        }
        if (credentials == null || credentials.getUid() != uid) {
            refuse(channel);
            return null;
        }
        try {
            channel.configureBlocking(false);
        } catch (final IOException e) {
            closeQuietly(channel, e);
            throw e;
        }
        lastPeerPid = credentials.getPid();
        lastPeerUid = credentials.getUid();
        lastPeerGid = credentials.getGid();
        acceptedPeers++;
        return channel;
    }

    /** Pid of the peer of the last accepted connection (SO_PEERCRED), -1 before any. */
    public long lastPeerPid() {
        return lastPeerPid;
    }

    public long lastPeerUid() {
        return lastPeerUid;
    }

    public long lastPeerGid() {
        return lastPeerGid;
    }

    /** Connections accepted with a matching uid. */
    public long acceptedPeers() {
        return acceptedPeers;
    }

    /** Connections closed unanswered because the peer's uid is not ours. */
    public long refusedPeers() {
        return refusedPeers;
    }

    public Path path() {
        return path;
    }

    public Path lockPath() {
        return lockPath;
    }

    /** Device of the socket file this listener created (the {@code unix:dev} attribute). */
    public long device() {
        return device;
    }

    /** Inode of the socket file this listener created (the {@code unix:ino} attribute). */
    public long inode() {
        return inode;
    }

    /** Our uid, which every accepted peer has. */
    public int uid() {
        return uid;
    }

    /**
     * The listening channel (non-blocking), for a selector or a descriptor handoff. Do not
     * close it directly: {@link #close()} does the checked unlink.
     */
    public AFUNIXServerSocketChannel serverChannel() {
        return server;
    }

    public boolean isOpen() {
        return !closed;
    }

    /**
     * Closes the listener, then unlinks the path if it is still our socket file (same device
     * and inode), under the lock. Connections already accepted stay open: their owner closes
     * them. If the lock cannot be had (the lock file cannot be opened, or another process holds
     * the lock for over a second), the path is left in place for the next binder's stale check:
     * never unlinked unchecked.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (!unlinkOnClose) {
            // Not server.close(): junixsocket shuts a listening socket down on close even with
            // shutdownOnClose off (measured: the binder's copy then refuses connects), and a
            // shutdown stops the socket for every process holding it. Closing the descriptor
            // alone drops our reference only; it also invalidates the FileDescriptor object
            // junixsocket shares, so its cleaner never closes a reused descriptor number.
            new FileInputStream(server.getFileDescriptor()).close();
            LOG.info("event=close-adopted path={} acceptedPeers={} refusedPeers={}", path, acceptedPeers, refusedPeers);
            return;
        }
        IOException failure = null;
        boolean unlinked = false;
        boolean lockAcquired = false;
        synchronized (LOCKED_SECTION) {
            FileChannel lockChannel = null;
            FileLock lock = null;
            try {
                lockChannel = openLockFile(lockPath);
                lock = lockWithinGrace(lockChannel);
            } catch (final IOException e) {
                failure = e;
            }
            try {
                server.close();
            } catch (final IOException e) {
                failure = chain(failure, e);
            }
            lockAcquired = lock != null;
            if (lock != null) {
                try {
                    unlinked = unlinkIfOurs();
                } catch (final IOException e) {
                    failure = chain(failure, e);
                }
                try {
                    lock.release();
                } catch (final IOException e) {
                    failure = chain(failure, e);
                }
            }
            if (lockChannel != null) {
                try {
                    lockChannel.close();
                } catch (final IOException e) {
                    failure = chain(failure, e);
                }
            }
        }
        LOG.info("event=close path={} unlinked={} locked={} acceptedPeers={} refusedPeers={}",
            path, unlinked, lockAcquired, acceptedPeers, refusedPeers);
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "EndpointListener[" + path + " dev=" + device + " ino=" + inode + (closed ? " closed]" : "]");
    }

    private boolean unlinkIfOurs() throws IOException {
        final Map<String, Object> attributes;
        try {
            attributes = Files.readAttributes(path, "unix:mode,dev,ino", LinkOption.NOFOLLOW_LINKS);
        } catch (final NoSuchFileException e) {
            return false;
        }
        if (isSocket((Integer) attributes.get("mode"))
            && (Long) attributes.get("dev") == device && (Long) attributes.get("ino") == inode) {
            return Files.deleteIfExists(path);
        }
        return false;
    }

    private void refuse(final AFUNIXSocketChannel channel) {
        refusedPeers++;
        try {
            channel.close();
        } catch (final IOException ignore) {
            // Closing a socket we never wrote to: nothing is lost, and the count above records it.
        }
    }

    /** One probe-unlink-bind under the lock; null while a live listener holds the path. */
    private static EndpointListener tryBind(final Path path, final Path lockPath, final int uid) throws IOException {
        synchronized (LOCKED_SECTION) {
            try (FileChannel lockChannel = openLockFile(lockPath)) {
                final FileLock lock = lockWithinGrace(lockChannel);
                if (lock == null) {
                    return null; // another process is binding or closing this path right now
                }
                try {
                    final int probe = probe(path);
                    if (probe == PROBE_LIVE) {
                        return null;
                    }
                    if (probe == PROBE_STALE) {
                        Files.deleteIfExists(path);
                        LOG.info("event=unlink-stale path={}", path);
                    }
                    return bindLocked(path, lockPath, uid);
                } finally {
                    lock.release();
                }
            }
        }
    }

    private static FileChannel openLockFile(final Path lockPath) throws IOException {
        return FileChannel.open(lockPath, LOCK_FILE_OPTIONS, PosixFilePermissions.asFileAttribute(OWNER_READ_WRITE));
    }

    /** The exclusive lock, or null if another process held it for the whole grace period. */
    private static FileLock lockWithinGrace(final FileChannel lockChannel) throws IOException {
        final long deadlineNs = System.nanoTime() + LOCK_GRACE_NS;
        while (true) {
            final FileLock lock = lockChannel.tryLock();
            if (lock != null) {
                return lock;
            }
            if (System.nanoTime() - deadlineNs >= 0) {
                return null;
            }
            LockSupport.parkNanos(LOCK_POLL_NS);
        }
    }

    private static int probe(final Path path) throws IOException {
        final int mode;
        try {
            mode = (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        } catch (final NoSuchFileException e) {
            return PROBE_ABSENT;
        }
        if (!isSocket(mode)) {
            throw new IOException(path + " exists but is not a socket (mode 0" + Integer.toOctalString(mode)
                + "); refusing to replace it. Remove it if nothing uses it, or choose another endpoint path.");
        }
        try (AFUNIXSocketChannel probe = AFUNIXSocketChannel.open()) {
            probe.configureBlocking(false);
            // true: the listener took us into its backlog; false: EAGAIN, its backlog is full.
            // Either way a live process holds the listener.
            probe.connect(AFUNIXSocketAddress.of(path));
            return PROBE_LIVE;
        } catch (final ConnectionRefusedSocketException e) {
            return PROBE_STALE;
        } catch (final SocketException e) {
            if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
                return PROBE_ABSENT; // unlinked by a non-cooperating process between stat and connect
            }
            throw new IOException("cannot probe " + path + ": " + e.getMessage(), e);
        }
    }

    private static EndpointListener bindLocked(final Path path, final Path lockPath, final int uid)
        throws IOException {
        final AFUNIXServerSocketChannel server = AFUNIXServerSocketChannel.open();
        boolean bound = false;
        try {
            final AFServerSocket<AFUNIXSocketAddress> socket = server.socket();
            socket.setReuseAddress(false);
            socket.setDeleteOnClose(false);
            socket.setShutdownOnClose(false);
            server.bind(AFUNIXSocketAddress.of(path), BACKLOG);
            bound = true;
            server.configureBlocking(false);
            // The directory is 0700, so the umask-dependent mode bind(2) gave is never exposed.
            Files.setPosixFilePermissions(path, OWNER_READ_WRITE);
            final Map<String, Object> attributes = Files.readAttributes(path, "unix:dev,ino", LinkOption.NOFOLLOW_LINKS);
            return new EndpointListener(path, lockPath, server, uid,
                (Long) attributes.get("dev"), (Long) attributes.get("ino"), true);
        } catch (final AddressAlreadyInUseSocketException e) {
            // A binder that ignores the lock got there between our probe and bind: busy.
            closeQuietly(server, e);
            return null;
        } catch (final IOException | RuntimeException e) {
            closeQuietly(server, e);
            if (bound) {
                try {
                    Files.deleteIfExists(path); // ours: created by this bind, under the lock
                } catch (final IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    private static boolean isSocket(final int mode) {
        return (mode & FILE_TYPE_MASK) == FILE_TYPE_SOCKET;
    }

    private static void parkUntil(final long deadlineNs, final Path path) throws InterruptedIOException {
        long remainingNs;
        while ((remainingNs = deadlineNs - System.nanoTime()) > 0) {
            LockSupport.parkNanos(remainingNs);
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for the live listener on " + path);
            }
        }
    }

    private static void closeQuietly(final AutoCloseable closeable, final Throwable primary) {
        try {
            closeable.close();
        } catch (final Exception e) {
            primary.addSuppressed(e);
        }
    }

    private static IOException chain(final IOException first, final IOException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}
