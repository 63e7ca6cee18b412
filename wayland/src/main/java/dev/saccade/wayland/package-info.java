/**
 * The client side of the Wayland protocols Saccade uses on wlroots compositors, shared by the
 * owner and the input helper: one connection and its registry
 * ({@link dev.saccade.wayland.WaylandConnection}), outputs, foreign toplevels, screencopy,
 * the virtual keyboard and pointer, and sway's IPC; every libwayland-client call sits in the
 * package-private {@code WaylandNative}.
 */
package dev.saccade.wayland;
