/**
 * The MCP stdio adapter ({@code saccade mcp}, spec/mcp.md): JSON-RPC 2.0 messages, one per line
 * on standard input, answered one compact line each on standard output. It turns the three tools
 * {@code saccade_observe}, {@code saccade_query} and {@code saccade_act} into the very requests
 * {@code saccade observe|query|act} send (the same builders in {@code dev.saccade.cli}) over the
 * same blocking {@code AgentClient}, so it adds no second action or security path: every
 * capability, generation, permission and physical check stays in the service. Input is parsed
 * with jackson-core's streaming parser under a line cap and a token bound; output is written by
 * {@link dev.saccade.mcp.JsonLineWriter} with the spec's exact escaping.
 */
package dev.saccade.mcp;
