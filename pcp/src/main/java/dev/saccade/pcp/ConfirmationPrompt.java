package dev.saccade.pcp;

/**
 * Where the user sees a pending confirmation and answers it (pcp §5.3, D26): the desktop's
 * notification server ({@link NotificationPrompt}). Only the user's answer there, or the code
 * shown there typed into {@code saccade pcp confirm}, approves; the requester is never told the
 * code.
 */
public interface ConfirmationPrompt extends AutoCloseable {
    /** How far a prompt reached the user. */
    enum Shown {
        /** Shown with Allow and Deny: the user's click answers. */
        WITH_ACTIONS,
        /** Shown as text only (the server offers no actions): the user types the code. */
        TEXT_ONLY,
        /** Nowhere to show it: the confirmation cannot be given. */
        NOT_SHOWN
    }

    /** The user's answer, as the prompt reports it; called at most once per shown request. */
    interface Answer {
        void allowed();

        void denied();
    }

    /** What the user is asked. Immutable. */
    final class Request {
        public final String confirmationId;
        public final String summary;
        public final String body;
        /** The code {@code saccade pcp confirm} needs; shown to the user only. */
        public final String code;
        public final long windowMs;

        Request(final String confirmationId, final String summary, final String body, final String code,
            final long windowMs) {
            this.confirmationId = confirmationId;
            this.summary = summary;
            this.body = body;
            this.code = code;
            this.windowMs = windowMs;
        }
    }

    /**
     * Shows {@code request}; blocks the calling PCP thread for the round trips to the desktop
     * (bounded by the bus client's reply timeout), never the owner thread.
     */
    Shown show(Request request, Answer answer);

    /** The confirmation resolved otherwise (expired, decided on the host socket, revoked): the prompt goes. */
    void withdraw(String confirmationId);

    @Override
    void close();
}
