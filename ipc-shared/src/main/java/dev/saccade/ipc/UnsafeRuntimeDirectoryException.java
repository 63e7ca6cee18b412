package dev.saccade.ipc;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The runtime directory ({@code $RUN}) cannot be used safely: it is a symbolic link, not a
 * directory, owned by another user, open to group or others, or its parent is missing. Nothing
 * is bound or written there; the message says what is wrong and how to fix it.
 */
public final class UnsafeRuntimeDirectoryException extends IOException {
    private static final long serialVersionUID = 1L;

    /** Why the directory was refused. */
    public enum Reason {
        /** The parent (normally {@code $XDG_RUNTIME_DIR}) does not exist. */
        MISSING_PARENT,
        /** The path is a symbolic link: it could point anywhere another user chose. */
        SYMLINK,
        /** Something other than a directory sits at the path. */
        NOT_A_DIRECTORY,
        /** Another uid owns the directory. */
        WRONG_OWNER,
        /** Group or others have any permission bit. */
        ACCESSIBLE_TO_OTHERS
    }

    private final transient Path directory;
    private final Reason reason;

    UnsafeRuntimeDirectoryException(final Path directory, final Reason reason, final String message) {
        super(message);
        this.directory = directory;
        this.reason = reason;
    }

    public Path directory() {
        return directory;
    }

    public Reason reason() {
        return reason;
    }
}
