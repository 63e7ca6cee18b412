/**
 * The agent ABI, API 0x00010001 ({@code spec/agent-abi.md}), as code: flyweights that view every
 * message and record of the wire contract in place over Chronicle Bytes, the named constants and
 * enumerations of the spec, the {@link dev.saccade.protocol.RequestValidator} that turns any
 * received frame into a verdict (reject the connection, or answer with a typed result), the
 * {@link dev.saccade.protocol.CompletionValidator} clients run before trusting a reply, and the
 * streaming JSON rendering of completions used by {@code saccade --json} and MCP. Nothing here
 * does I/O or allocates on the accessors: the owner thread reads requests and writes
 * completions through these classes directly in its channel buffers.
 */
package dev.saccade.protocol;
