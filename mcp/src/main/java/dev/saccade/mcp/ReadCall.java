package dev.saccade.mcp;

import dev.saccade.client.AbiNames;
import dev.saccade.client.AgentClient;
import dev.saccade.client.AgentProtocolException;
import dev.saccade.client.ReadExchange;
import dev.saccade.jsonrpc.JsonLineWriter;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.CompletionValidator;
import dev.saccade.protocol.ResultCode;
import java.io.IOException;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * One observe or query tool call over {@link ReadExchange}, the round trip of
 * {@code saccade observe|query}, with the connection rules of mcp.md §9 for reads: a transport
 * failure drops the connection, reconnects and resends the request once (a read changes
 * nothing, so a second copy is harmless); an AFTER_GENERATION read is resubmitted unchanged
 * while the service answers TIMEOUT and its wait has not run out.
 */
final class ReadCall {
    /** Writes the request into the client's send buffer; returns its length. */
    @FunctionalInterface
    interface Request {
        int writeTo(BytesStore<?, ?> store, long at);
    }

    private final ReadExchange exchange = new ReadExchange();
    private final ToolResults results;

    ReadCall(final ToolResults results) {
        this.results = results;
    }

    /**
     * @param waitNs the read's AFTER_GENERATION wait, or 0 for LATEST_VALID.
     * @param maximumTextBytes the bound of the text view (mcp.md §8).
     * @param transportFailed e.g. "Observe transport failed".
     * @param rejected e.g. "Observation rejected: ".
     */
    void run(final ServiceConnection service, final JsonLineWriter out, final Request request, final long requestId,
        final int completionKind, final long waitNs, final int maximumTextBytes, final String transportFailed,
        final String rejected) {
        AgentClient client;
        try {
            client = service.client();
        } catch (final IOException e) {
            service.drop();
            ToolResults.error(out, McpServer.SERVICE_UNAVAILABLE);
            return;
        }
        final long startNs = System.nanoTime();
        boolean resent = false;
        CompletionFlyweight completion;
        while (true) {
            try {
                final int length = request.writeTo(client.requestStore(), client.requestOffset());
                completion = exchange.roundTrip(client, length, requestId, completionKind);
            } catch (final IOException e) {
                service.drop();
                if (badContent(e)) {
                    ToolResults.error(out, McpServer.INVALID_SERVICE_RESPONSE);
                    return;
                }
                if (resent || (client = reconnect(service)) == null) {
                    ToolResults.error(out, transportFailed);
                    return;
                }
                resent = true;
                continue;
            }
            if (completion.result() == ResultCode.TIMEOUT && waitNs != 0 && System.nanoTime() - startNs < waitNs) {
                continue; // the service's wait ended without a newer generation; ask again
            }
            break;
        }
        final int result = completion.result();
        if (result != ResultCode.OK) {
            ToolResults.error(out, rejected + AbiNames.resultText(result));
        } else if (!results.renderable(completion, completion.totalSize())) {
            service.drop(); // a service that answers outside the contract is not trusted further
            ToolResults.error(out, McpServer.INVALID_SERVICE_RESPONSE);
        } else {
            results.read(out, completion, maximumTextBytes);
        }
    }

    /** Records or a text range outside the reply: the content is wrong, not the transport. */
    private static boolean badContent(final IOException e) {
        return e instanceof AgentProtocolException
            && (((AgentProtocolException) e).verdict() == CompletionValidator.BAD_RECORDS
            || ((AgentProtocolException) e).verdict() == CompletionValidator.BAD_TEXT);
    }

    private static AgentClient reconnect(final ServiceConnection service) {
        try {
            return service.client();
        } catch (final IOException e) {
            service.drop();
            return null;
        }
    }
}
