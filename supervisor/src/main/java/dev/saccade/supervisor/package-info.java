/**
 * The per-session supervisor: child processes (owner service, input helper), restart with
 * backoff, the control socket, the kept listener duplicate, and restart or upgrade in place.
 *
 * <p>No code yet: this file marks the package so the module builds and its place in the
 * dependency graph is fixed. Depends on {@code protocol} and {@code ipc-shared}.
 *
 * <p>See ARCHITECTURE.md, "Modules" and "Processes".
 */
package dev.saccade.supervisor;
