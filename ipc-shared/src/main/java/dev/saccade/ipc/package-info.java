/**
 * Local transport shared by every Saccade process: the private runtime directory and socket
 * names ({@link dev.saccade.ipc.RuntimeDirectory}); endpoints bound by the spec's fallback rule
 * with a locked, device- and inode-checked unlink and a peer-uid check on accept
 * ({@link dev.saccade.ipc.EndpointListener}); non-blocking 4-byte framing over fixed off-heap
 * buffers that allocates nothing per request ({@link dev.saccade.ipc.FrameChannel}); and the
 * blocking client of the CLI and MCP adapter ({@link dev.saccade.ipc.AgentClient}). Listener
 * handoff, the shared-memory rings, heartbeat and lifeline will live here too.
 *
 * <p>See docs/architecture.md ("Modules and arrows", "Restart, upgrade and the endpoint") and
 * spec/agent-abi.md §1.
 */
package dev.saccade.ipc;
