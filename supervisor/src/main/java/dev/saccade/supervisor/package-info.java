/**
 * The per-session supervisor ({@code saccade supervisor run}, {@code saccade up}): it binds the
 * agent endpoint and keeps that listener for its whole life, starts the owner service and the
 * input helper as child processes, hands each owner the listener over a private link with
 * SCM_RIGHTS when the owner is ready, restarts a child that exits or stops answering with
 * {@link dev.saccade.supervisor.Backoff} (250 ms doubling to 8 s, reset after 60 s healthy),
 * replaces the owner in place for {@code restart} and {@code upgrade} (new beside old, old
 * drains, new gets the listener: no refused connect, generations only grow), answers the control
 * socket {@code saccade-supervisor-v1.sock} ({@link dev.saccade.supervisor.ControlRequest}), and
 * tells systemd READY=1. One conductor thread owns all lifecycle state
 * ({@link dev.saccade.supervisor.Supervisor}).
 *
 * <p>Depends on {@code protocol} and {@code ipc-shared} only; children are started by command
 * line, never linked.
 */
package dev.saccade.supervisor;
