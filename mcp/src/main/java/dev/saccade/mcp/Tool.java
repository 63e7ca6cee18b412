package dev.saccade.mcp;

import dev.saccade.jsonrpc.JsonLineWriter;

/** One MCP tool: its arguments checked first (−32602, never sent), then one call to the service. */
interface Tool {
    /** Checks and keeps the arguments; returns null when they are valid, else the −32602 message. */
    String prepare(ToolArguments arguments);

    /** Runs the prepared call and writes its tool result object (mcp.md §8). */
    void call(ServiceConnection service, JsonLineWriter out);
}
