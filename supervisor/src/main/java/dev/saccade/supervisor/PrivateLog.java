package dev.saccade.supervisor;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A child's log file in the runtime directory: created 0600, appended to by each child after.
 * The runtime directory is RAM (tmpfs), so the file is bounded: a child that starts while it is
 * over {@link #MAX_BYTES} finds it moved to {@code <name>.1} (replacing the one before) and writes
 * a new one; a crash loop, the one thing that makes these logs grow fast, restarts often.
 */
final class PrivateLog {
    /** 4 MiB: thousands of lifecycle lines; the file and its one predecessor cost at most twice that. */
    static final long MAX_BYTES = 4L << 20;

    private PrivateLog() {
    }

    static Path open(final Path path) throws IOException {
        if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS) && Files.size(path) > MAX_BYTES) {
            Files.move(path, path.resolveSibling(path.getFileName() + ".1"), StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
        }
        try {
            Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (final FileAlreadyExistsException ignore) {
            // Appended to: the runtime directory is 0700 and ours, so the file is ours too.
        }
        return path;
    }
}
