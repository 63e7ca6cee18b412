/**
 * The input helper: ActionPlan execution, the input backends (XTest first), the held-input
 * ledger and every release path, and physical-state tracking.
 *
 * <p>No code yet: this file marks the package so the module builds and its place in the
 * dependency graph is fixed. Depends on {@code protocol}, {@code ipc-shared} and JNA only; never
 * on {@code owner-service}.
 *
 * <p>See ARCHITECTURE.md, "Modules" and "Processes".
 */
package dev.saccade.helper;
