package dev.saccade.client;

import java.io.IOException;

/**
 * A completion that passed validation but does not answer the request just sent (another
 * request_id). The client is closed: the pairing of requests and replies is lost.
 */
public final class UnexpectedReplyException extends IOException {
    private static final long serialVersionUID = 1L;

    public UnexpectedReplyException(final String message) {
        super(message);
    }
}
