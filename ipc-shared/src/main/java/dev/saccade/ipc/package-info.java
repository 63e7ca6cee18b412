/**
 * Local transport shared by every Saccade process: endpoints and their checked unlink and
 * handoff, 4-byte framing, peer credential checks, the shared-memory rings between owner and
 * input helper, heartbeat and lifeline, and the blocking {@code AgentClient}.
 *
 * <p>No code yet: this file marks the package so the module builds and its place in the
 * dependency graph is fixed. Depends on {@code protocol}, junixsocket and Chronicle Bytes;
 * {@code owner-service}, {@code input-helper}, {@code supervisor} and {@code cli} build on it.
 *
 * <p>See ARCHITECTURE.md, "Modules" and "Processes".
 */
package dev.saccade.ipc;
