/**
 * The MCP stdio adapter ({@code saccade mcp}, spec/mcp.md): JSON-RPC 2.0 messages, one per line
 * on standard input, answered one compact line each on standard output, in the era the client's
 * first request chooses (mcp.md §12): 2025-06-18 and 2025-11-25 with their initialize handshake,
 * or the stateless 2026-07-28. In both it turns the three tools
 * {@code saccade_observe}, {@code saccade_query} and {@code saccade_act} into the very requests
 * {@code saccade observe|query|act} send (the same builders in {@code dev.saccade.cli}) over the
 * same blocking {@code AgentClient}, so it adds no second action or security path: every
 * capability, generation, permission and physical check stays in the service. Input is parsed
 * with jackson-core's streaming parser under a line cap and a token bound; output is written by
 * {@link dev.saccade.jsonrpc.JsonLineWriter} with the spec's exact escaping.
 */
package dev.saccade.mcp;
