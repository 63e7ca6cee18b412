package dev.saccade.ipc;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * Reads a file whose name another local user can predict (in {@code /dev/shm} or {@code /tmp}),
 * so that whatever they put there cannot stall or fool us: the name is checked with
 * {@code lstat} first, then opened with {@code O_NONBLOCK | O_NOFOLLOW} (a FIFO does not block
 * the open, a symbolic link fails it), and the open descriptor itself is checked again (through
 * {@code /proc/self/fd}, i.e. {@code fstat}) to be a regular file of the expected owner before a
 * bounded read. Anything else is refused with a {@link RefusedFileException} naming why.
 *
 * <p>Every libc call of this check sits here (open, read, close through JNA).
 */
public final class GuardedFile {
    /** Accept a regular file of any owner (a lock file another user's server wrote). */
    public static final int ANY_UID = -1;
    private static final int O_RDONLY = 0;
    private static final int O_NONBLOCK = 04000;
    private static final int O_CLOEXEC = 02000000;
    /** O_NOFOLLOW differs between architectures (asm-generic vs. x86). */
    private static final int O_NOFOLLOW = "aarch64".equals(System.getProperty("os.arch")) ? 0100000 : 0400000;
    private static final int FILE_TYPE_MASK = 0170000;
    private static final int FILE_TYPE_REGULAR = 0100000;
    private static final boolean AVAILABLE = register();

    private GuardedFile() {
    }

    /** Why a file was refused. */
    public static final class RefusedFileException extends IOException {
        private static final long serialVersionUID = 1L;

        RefusedFileException(final Path path, final String why) {
            super(path + ": " + why);
        }
    }

    private static boolean register() {
        try {
            Native.register(GuardedFile.class, NativeLibrary.getInstance("c"));
            return true;
        } catch (final LinkageError e) {
            return false;
        }
    }

    /**
     * Up to {@code maxBytes} from the start of {@code path}, if it is a regular file (not a
     * symbolic link, FIFO, socket or device) owned by {@code uid} ({@link #ANY_UID}: any owner).
     *
     * @throws NoSuchFileException if there is nothing at {@code path}.
     * @throws RefusedFileException if something is there that is not such a file.
     */
    public static byte[] readPrefix(final Path path, final int maxBytes, final int uid) throws IOException {
        check(path, Files.readAttributes(path, "unix:mode,uid", LinkOption.NOFOLLOW_LINKS), uid, "name");
        if (!AVAILABLE) {
            throw new RefusedFileException(path, "no libc to open it safely");
        }
        final int fd = open(path.toString(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) {
            throw new RefusedFileException(path, "open failed (errno " + Native.getLastError() + ")");
        }
        try {
            // The descriptor, not the name: whatever was renamed in between, this is what we read.
            check(path, Files.readAttributes(Path.of("/proc/self/fd/" + fd), "unix:mode,uid"), uid, "descriptor");
            final byte[] bytes = new byte[maxBytes];
            int filled = 0;
            while (filled < maxBytes) {
                final byte[] chunk = new byte[maxBytes - filled];
                final long n = read(fd, chunk, chunk.length);
                if (n <= 0) {
                    break;
                }
                System.arraycopy(chunk, 0, bytes, filled, (int) n);
                filled += (int) n;
            }
            return Arrays.copyOf(bytes, filled);
        } finally {
            close(fd);
        }
    }

    private static void check(final Path path, final Map<String, Object> attributes, final int uid, final String what)
        throws RefusedFileException {
        final int mode = (Integer) attributes.get("mode");
        final int owner = (Integer) attributes.get("uid");
        if ((mode & FILE_TYPE_MASK) != FILE_TYPE_REGULAR) {
            throw new RefusedFileException(path, "its " + what + " is not a regular file (mode 0"
                + Integer.toOctalString(mode) + ")");
        }
        if (uid != ANY_UID && owner != uid) {
            throw new RefusedFileException(path, "its " + what + " belongs to uid " + owner + ", not " + uid);
        }
    }

    private static native int open(String path, int flags);

    private static native long read(int fd, byte[] buffer, long count);

    private static native int close(int fd);
}
