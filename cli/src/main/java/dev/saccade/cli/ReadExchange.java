package dev.saccade.cli;

import dev.saccade.ipc.AgentClient;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.ResultCode;
import java.io.IOException;
import java.io.PrintWriter;

/**
 * One observe or query round trip on a connected client and its outcome: send the request
 * written at {@code requestOffset()}, take the validated completion, print it, and turn its
 * typed result into the exit code (OK → {@link ExitCodes#SUCCESS}, anything else →
 * {@link ExitCodes#REQUEST_REJECTED} with a one-line message naming the result on stderr).
 */
public final class ReadExchange {
    private final CompletionFlyweight completion = new CompletionFlyweight();
    private int length;

    /**
     * Sends {@code requestLength} bytes and waits for the completion of {@code completionKind};
     * the view is valid until the client's next receive.
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

    /**
     * Prints the last completion and returns the exit code of its result.
     *
     * @param command the command's name for the message, e.g. "query".
     * @param timeoutHint appended to the message when the result is TIMEOUT (null: nothing).
     */
    int print(final OutputOptions output, final String command, final String timeoutHint) throws OutputFailedException {
        output.write(completion.bytes(), completion.offset(), length);
        final int result = completion.result();
        if (result == ResultCode.OK) {
            return ExitCodes.SUCCESS;
        }
        final PrintWriter err = output.err();
        err.println("saccade: " + command + " rejected: " + ResultCode.name(result) + " (" + result + ")"
            + (result == ResultCode.TIMEOUT && timeoutHint != null ? ": " + timeoutHint : ""));
        err.flush();
        return ExitCodes.REQUEST_REJECTED;
    }
}
