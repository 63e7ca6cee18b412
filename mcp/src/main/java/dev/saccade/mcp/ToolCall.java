package dev.saccade.mcp;

import dev.saccade.jsonrpc.JsonLineWriter;
import dev.saccade.jsonrpc.JsonNode;
import dev.saccade.jsonrpc.JsonRpcEnvelope;
import java.io.PrintStream;

/**
 * {@code tools/call} in every protocol revision (mcp.md §2 rows 11 to 13): the tool's name and
 * arguments checked, then the one call of {@code saccade_observe}, {@code saccade_query} or
 * {@code saccade_act} over the adapter's one service connection. Both eras call this, so the
 * tools, their arguments and their results are the same in 2025-06-18, 2025-11-25 and 2026-07-28;
 * only what an era puts around the result differs (mcp §3, §13).
 */
final class ToolCall {
    private final JsonLineWriter writer;
    private final PrintStream log;
    private final ServiceConnection service;
    private final ToolArguments arguments = new ToolArguments();
    private final ObserveTool observe;
    private final QueryTool query;
    private final ActTool act;

    ToolCall(final JsonLineWriter writer, final PrintStream log, final ServiceConnection service) {
        this.writer = writer;
        this.log = log;
        this.service = service;
        final ToolResults results = new ToolResults();
        final ReadCall read = new ReadCall(results);
        this.observe = new ObserveTool(read);
        this.query = new QueryTool(read);
        this.act = new ActTool(results);
    }

    /**
     * Answers {@code tools/call}. Returns true when the writer holds
     * {@code {"jsonrpc":"2.0","id":ID,"result":R} without the response's closing brace, R being
     * the tool result object, for the era to finish; false when it holds a whole error response.
     */
    boolean call(final JsonNode id, final JsonNode params) {
        final JsonNode toolName = params == null ? null : params.get("name");
        final JsonNode toolArguments = params == null ? null : params.get("arguments");
        if (toolName == null || !toolName.isString() || toolArguments == null || !toolArguments.isObject()) {
            return error(id, McpServer.INVALID_PARAMS, "Invalid tool arguments");
        }
        final Tool tool = tool(toolName.text);
        if (tool == null) {
            return error(id, McpServer.INVALID_PARAMS, "Unknown tool");
        }
        final String invalid = tool.prepare(arguments.wrap(toolArguments));
        if (invalid != null) {
            return error(id, McpServer.INVALID_PARAMS, invalid);
        }
        JsonRpcEnvelope.startResult(writer, id);
        try {
            tool.call(service, writer);
        } catch (final RuntimeException e) {
            // A bug must not end the session: answer this id and keep serving; the cause goes to stderr.
            service.drop();
            log.println("saccade mcp: event=tool_failed tool=" + toolName.text + " error=\"" + e + "\"");
            writer.reset();
            return error(id, McpServer.INTERNAL_ERROR, "Internal error");
        } finally {
            service.released(); // idle from now: given back to the service if no call follows (mcp §9)
        }
        return true;
    }

    private Tool tool(final String name) {
        switch (name) {
            case ObserveTool.NAME:
                return observe;
            case QueryTool.NAME:
                return query;
            case ActTool.NAME:
                return act;
            default:
                return null;
        }
    }

    private boolean error(final JsonNode id, final int code, final String message) {
        JsonRpcEnvelope.error(writer, id, code, message);
        return false;
    }
}
