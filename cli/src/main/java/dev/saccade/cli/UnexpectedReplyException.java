package dev.saccade.cli;

import java.io.IOException;

/**
 * A completion that passed validation but does not answer the request just sent (another
 * request_id). Exit code {@link ExitCodes#PROTOCOL}.
 */
final class UnexpectedReplyException extends IOException {
    private static final long serialVersionUID = 1L;

    UnexpectedReplyException(final String message) {
        super(message);
    }
}
