/**
 * Login items that start the supervisor (systemd user unit, LaunchAgent plist, Task Scheduler
 * XML) and the versioned install layout.
 *
 * <p>No code yet: this file marks the package so the module builds and its place in the
 * dependency graph is fixed. Depends on nothing of ours but {@code protocol} constants.
 *
 * <p>See ARCHITECTURE.md, "Modules" and "Processes".
 */
package dev.saccade.installer;
