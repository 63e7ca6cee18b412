package dev.saccade.ipc.link;

import dev.saccade.ipc.RuntimeDirectory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.core.OS;

/**
 * The link file mapped into this process: one {@code mmap(MAP_SHARED)} of the whole file
 * (Chronicle's {@code OS.map}), viewed as one {@link BytesStore} at a fixed address, so every
 * offset of {@link LinkFileDescriptor} is exact and no chunking or remapping ever happens.
 * {@link #close()} unmaps explicitly (no reliance on the GC), after which the store must not be
 * touched: the thread that polls must have stopped (accessing an unmapped page kills the JVM).
 *
 * <p>Chosen over {@code MappedBytes} (chunked, single-threaded checks, its own file creation
 * through {@code RandomAccessFile}, which follows symlinks and applies the umask) and over a
 * {@code MappedByteBuffer} (unmapped only by the GC): both measured the same cross-process
 * ping-pong (about 130 ns one way on the development VM), so the choice is for control: we
 * create the file with O_EXCL, O_NOFOLLOW and mode 0600 ourselves.
 */
final class LinkMapping implements AutoCloseable {
    private static final Set<PosixFilePermission> OWNER_READ_WRITE =
        EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    private static final int FILE_TYPE_MASK = 0170000;
    private static final int FILE_TYPE_REGULAR = 0100000;
    private static final int GROUP_OTHER_BITS = 0077;
    /** Largest file we map: both rings at their maximum plus the control block. */
    private static final long MAX_FILE_LENGTH =
        LinkFileDescriptor.fileLength(RingDescriptor.MAX_CAPACITY, RingDescriptor.MAX_CAPACITY);

    private final Path path;
    private final FileChannel channel;
    private final long address;
    private final long length;
    private final BytesStore<?, ?> store;
    private final long device;
    private final long inode;
    private boolean closed;

    /** The mapping's first byte, for native calls on a structure inside it ({@link OwnerAliveLock}). */
    long address() {
        return address;
    }

    private LinkMapping(final Path path, final FileChannel channel, final long address, final long length,
        final long device, final long inode) {
        this.path = path;
        this.channel = channel;
        this.address = address;
        this.length = length;
        this.store = BytesStore.wrap(address, length);
        this.device = device;
        this.inode = inode;
    }

    /**
     * Creates the file afresh with mode 0600 and {@code length} zero bytes, and maps it. A
     * regular file of ours already at the path (a previous owner's) is unlinked first; anything
     * else there (a symlink, a directory, another user's file) is refused.
     */
    static LinkMapping create(final Path path, final long length) throws IOException {
        final int uid = RuntimeDirectory.currentUid();
        try {
            final Map<String, Object> a = Files.readAttributes(path, "unix:mode,uid", LinkOption.NOFOLLOW_LINKS);
            if (!isRegular((Integer) a.get("mode")) || (Integer) a.get("uid") != uid) {
                throw new LinkRefusedException(LinkRefusedException.Reason.UNSAFE_FILE, path
                    + " exists and is not a regular file of uid " + uid + " (mode 0"
                    + Integer.toOctalString((Integer) a.get("mode")) + ", uid " + a.get("uid")
                    + "); refusing to replace it. Remove it, or choose another link file.");
            }
            Files.delete(path); // a previous owner's link: its mappings live on until unmapped
        } catch (final NoSuchFileException absent) {
            // The usual case.
        }
        final FileChannel channel = FileChannel.open(path, Set.of(StandardOpenOption.CREATE_NEW,
            StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
            PosixFilePermissions.asFileAttribute(OWNER_READ_WRITE));
        try {
            // Exactly 0600 whatever the umask; O_EXCL made it ours, the sticky /dev/shm keeps it so.
            Files.setPosixFilePermissions(path, OWNER_READ_WRITE);
            channel.write(ByteBuffer.wrap(new byte[1]), length - 1);
            return map(path, channel, length);
        } catch (final IOException | RuntimeException e) {
            closeQuietly(channel, e);
            try {
                Files.deleteIfExists(path);
            } catch (final IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Opens and maps an existing link file after checking that it is a regular file of our uid
     * with no group or other permission bits and a plausible length.
     */
    static LinkMapping open(final Path path) throws IOException {
        final int uid = RuntimeDirectory.currentUid();
        final Map<String, Object> a;
        try {
            a = Files.readAttributes(path, "unix:mode,uid", LinkOption.NOFOLLOW_LINKS);
        } catch (final NoSuchFileException e) {
            throw new LinkRefusedException(LinkRefusedException.Reason.NOT_READY, path + " does not exist (yet)");
        }
        final int mode = (Integer) a.get("mode");
        if (!isRegular(mode) || (Integer) a.get("uid") != uid || (mode & GROUP_OTHER_BITS) != 0) {
            throw new LinkRefusedException(LinkRefusedException.Reason.UNSAFE_FILE, path
                + " must be a regular file of uid " + uid + " with mode 0600; it has mode 0"
                + Integer.toOctalString(mode) + " and uid " + a.get("uid"));
        }
        final FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS);
        try {
            final long length = channel.size();
            if (length < LinkFileDescriptor.CONTROL_BLOCK_LENGTH || length > MAX_FILE_LENGTH
                || length % LinkFileDescriptor.PAGE_SIZE != 0) {
                throw new LinkRefusedException(length == 0 ? LinkRefusedException.Reason.NOT_READY
                    : LinkRefusedException.Reason.BAD_LAYOUT, path + " has " + length + " bytes");
            }
            return map(path, channel, length);
        } catch (final IOException | RuntimeException e) {
            closeQuietly(channel, e);
            throw e;
        }
    }

    private static LinkMapping map(final Path path, final FileChannel channel, final long length) throws IOException {
        final Map<String, Object> ids = Files.readAttributes(path, "unix:dev,ino", LinkOption.NOFOLLOW_LINKS);
        final long address = OS.map(channel, FileChannel.MapMode.READ_WRITE, 0, length);
        return new LinkMapping(path, channel, address, length, (Long) ids.get("dev"), (Long) ids.get("ino"));
    }

    BytesStore<?, ?> store() {
        return store;
    }

    long length() {
        return length;
    }

    Path path() {
        return path;
    }

    /** Touches every page so the first records do not pay page faults. */
    void preTouch(final boolean write) {
        for (long at = 0; at < length; at += LinkFileDescriptor.PAGE_SIZE) {
            if (write) {
                store.writeByte(at, store.readByte(at));
            } else {
                store.readByte(at);
            }
        }
    }

    /**
     * Unlinks the path if it still names the file this mapping created (same device and
     * inode): a newer owner's file is never removed.
     */
    boolean unlinkIfOurs() throws IOException {
        try {
            final Map<String, Object> ids = Files.readAttributes(path, "unix:dev,ino", LinkOption.NOFOLLOW_LINKS);
            if ((Long) ids.get("dev") == device && (Long) ids.get("ino") == inode) {
                return Files.deleteIfExists(path);
            }
            return false;
        } catch (final NoSuchFileException e) {
            return false;
        }
    }

    /** Unmaps, then closes the file; continues past a failure and reports the first. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        IOException failure = null;
        try {
            OS.unmap(address, length);
        } catch (final IOException e) {
            failure = e;
        }
        try {
            channel.close();
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

    private static boolean isRegular(final int mode) {
        return (mode & FILE_TYPE_MASK) == FILE_TYPE_REGULAR;
    }

    private static void closeQuietly(final AutoCloseable closeable, final Throwable primary) {
        try {
            closeable.close();
        } catch (final Exception e) {
            primary.addSuppressed(e);
        }
    }
}
