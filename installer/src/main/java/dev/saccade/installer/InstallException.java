package dev.saccade.installer;

/**
 * An install, upgrade or uninstall that cannot go on: a distribution that is not one, a layout
 * path taken by something else, a version already installed with other content, a failed write.
 * The message says what and where, for one line on standard error.
 */
public final class InstallException extends Exception {
    private static final long serialVersionUID = 1L;

    /** What part failed, so the command can map it to an exit code. */
    public enum Kind {
        /** The distribution to install is missing or incomplete. */
        DISTRIBUTION,
        /** The layout could not be written or removed (I/O, a path in the way). */
        LAYOUT
    }

    private final Kind kind;

    public InstallException(final Kind kind, final String message) {
        super(message);
        this.kind = kind;
    }

    public InstallException(final Kind kind, final String message, final Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
