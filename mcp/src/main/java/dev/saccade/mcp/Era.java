package dev.saccade.mcp;

import dev.saccade.jsonrpc.JsonNode;

/**
 * One era of MCP a {@code saccade mcp} process speaks (mcp.md §12): the 2025 revisions with their
 * {@code initialize} handshake ({@link HandshakeEra}) or the stateless 2026-07-28 revision
 * ({@link StatelessEra}). The first request that opens an era decides it for the life of the
 * process. An era answers what the shared rows of mcp §2 (framing, notifications) leave; the
 * tools behind it are one ({@link ToolCall}).
 */
interface Era {
    /**
     * Answers one request that passed mcp §2 rows 1 to 5 (it has an id and a method name);
     * returns whether a response is in the writer.
     */
    boolean answer(JsonNode id, String method, JsonNode params);

    /** The protocol version this era speaks now (logged when the era is chosen). */
    String protocolVersion();
}
