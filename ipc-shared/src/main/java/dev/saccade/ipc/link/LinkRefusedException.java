package dev.saccade.ipc.link;

import java.io.IOException;

/**
 * A link file or a lifeline peer failed a check: the helper does not attach, the owner does not
 * accept. {@link #reason()} says which check, for logs and tests.
 */
public final class LinkRefusedException extends IOException {
    private static final long serialVersionUID = 1L;

    /** Which check failed. */
    public enum Reason {
        /** The path is a symlink, not a regular file, not ours, or open to group or others. */
        UNSAFE_FILE,
        /** The owner has not yet written the layout version (it is still creating the file). */
        NOT_READY,
        /** Not a Saccade link file. */
        BAD_MAGIC,
        /** A layout version this build does not speak. */
        BAD_VERSION,
        /** Sizes or capacities that do not add up to the file. */
        BAD_LAYOUT,
        /** The session nonce differs from the one the launcher gave. */
        NONCE_MISMATCH,
        /** The owner pid differs from the one expected. */
        OWNER_MISMATCH,
        /** Another helper already attached to this link. */
        ALREADY_ATTACHED,
        /** The lifeline peer runs as another uid, or its credentials are unavailable. */
        PEER_UID,
        /** The lifeline peer's pid is not the expected one. */
        PEER_PID,
        /** The lifeline handshake was malformed, cut short or refused by the other side. */
        HANDSHAKE
    }

    private final Reason reason;

    public LinkRefusedException(final Reason reason, final String message) {
        super(reason + ": " + message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
