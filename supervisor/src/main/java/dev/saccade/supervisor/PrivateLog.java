package dev.saccade.supervisor;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** A child's log file in the runtime directory: created 0600, appended to by each child after. */
final class PrivateLog {
    private PrivateLog() {
    }

    static Path open(final Path path) throws IOException {
        try {
            Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (final FileAlreadyExistsException ignore) {
            // Appended to: the runtime directory is 0700 and ours, so the file is ours too.
        }
        return path;
    }
}
