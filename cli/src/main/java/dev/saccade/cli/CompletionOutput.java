package dev.saccade.cli;

import dev.saccade.client.ActionExchange;
import dev.saccade.client.ReadExchange;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.ResultCode;
import java.io.PrintWriter;

/**
 * Prints the completion of a round trip and turns its typed result into the exit code: OK →
 * {@link ExitCodes#SUCCESS}; anything else → {@link ExitCodes#REQUEST_REJECTED} with one line on
 * stderr naming the result (and, for a batch, the failed action and a hint).
 */
final class CompletionOutput {
    private CompletionOutput() {
    }

    /**
     * The last observe or query completion of {@code exchange}.
     *
     * @param command the command's name for the message, e.g. "query".
     * @param timeoutHint appended to the message when the result is TIMEOUT (null: nothing).
     */
    static int read(final OutputOptions output, final ReadExchange exchange, final String command,
        final String timeoutHint) throws OutputFailedException {
        final CompletionFlyweight completion = exchange.completion();
        output.write(completion.bytes(), completion.offset(), exchange.length());
        final int result = completion.result();
        if (result == ResultCode.OK) {
            return ExitCodes.SUCCESS;
        }
        return rejected(output, command, ActionExchange.named(result)
            + (result == ResultCode.TIMEOUT && timeoutHint != null ? ": " + timeoutHint : ""));
    }

    /** The kept completion of the last batch of {@code exchange}. */
    static int act(final OutputOptions output, final ActionExchange exchange, final String command)
        throws OutputFailedException {
        output.write(exchange.kept(), 0, exchange.length());
        final int result = exchange.kept().readInt(dev.saccade.protocol.ActionCompletionFlyweight.RESULT_OFFSET);
        if (result == ResultCode.OK) {
            return ExitCodes.SUCCESS;
        }
        return rejected(output, command, ActionExchange.named(result) + exchange.describe());
    }

    private static int rejected(final OutputOptions output, final String command, final String why) {
        final PrintWriter err = output.err();
        err.println("saccade: " + command + " rejected: " + why);
        err.flush();
        return ExitCodes.REQUEST_REJECTED;
    }
}
