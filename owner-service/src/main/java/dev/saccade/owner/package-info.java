/**
 * The desktop owner: the owner loop, {@code AgentService} validation against scene
 * generations, the scene sources (X11 windows, AT-SPI2, grid), the immutable scene store, the
 * {@code ActionPlanner}, the link to the input helper and the agent and PCP endpoints.
 *
 * <p>No code yet: this file marks the package so the module builds and its place in the
 * dependency graph is fixed. Depends on {@code protocol}, {@code ipc-shared}, JNA and dbus-java;
 * never on {@code input-helper}.
 *
 * <p>See docs/architecture.md, "Modules and arrows" and "Processes".
 */
package dev.saccade.owner;
