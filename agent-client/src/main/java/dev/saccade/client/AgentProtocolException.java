package dev.saccade.client;

import dev.saccade.protocol.CompletionValidator;
import java.io.IOException;

/**
 * The service sent a reply the client cannot trust: a frame length outside 16..capacity, a
 * completion that fails {@link CompletionValidator}, or a reply to another request. The client
 * closes the connection, because the stream can no longer be framed (CLI exit code 3).
 */
public final class AgentProtocolException extends IOException {
    private static final long serialVersionUID = 1L;

    /** The reply's request_id is not the one sent (not a {@link CompletionValidator} verdict). */
    public static final int UNEXPECTED_REQUEST_ID = 100;

    private final int verdict;

    AgentProtocolException(final int verdict, final String message) {
        super(message);
        this.verdict = verdict;
    }

    /** A {@link CompletionValidator} verdict, or {@link #UNEXPECTED_REQUEST_ID}. */
    public int verdict() {
        return verdict;
    }
}
