package dev.saccade.client;

import dev.saccade.protocol.CompletionFlyweight;
import java.io.IOException;

/**
 * One observe or query round trip on a connected client: send the request written at
 * {@code requestOffset()}, take the validated completion and check that it answers that
 * request. The view stays valid until the client's next receive.
 */
public final class ReadExchange {
    private final CompletionFlyweight completion = new CompletionFlyweight();
    private int length;

    /**
     * Sends {@code requestLength} bytes and waits for the completion of {@code completionKind}.
     *
     * @throws UnexpectedReplyException when the completion answers another request_id (the
     *     client is closed then).
     */
    public CompletionFlyweight roundTrip(final AgentClient client, final int requestLength, final long requestId,
        final int completionKind) throws IOException {
        client.send(requestLength);
        final AgentClient.Reply reply = client.receive(completionKind);
        completion.wrap(reply.bytes(), reply.offset());
        length = reply.length();
        if (completion.requestId() != requestId) {
            client.close();
            throw new UnexpectedReplyException("the service at " + client.path() + " answered request_id "
                + Long.toUnsignedString(completion.requestId()) + " to request " + Long.toUnsignedString(requestId));
        }
        return completion;
    }

    /** The last completion. */
    public CompletionFlyweight completion() {
        return completion;
    }

    /** The last completion's length in bytes. */
    public int length() {
        return length;
    }
}
