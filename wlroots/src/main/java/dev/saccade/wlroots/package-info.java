/**
 * The wlroots desktop backend ({@link dev.saccade.wlroots.WlrootsBackend}, for a
 * {@code wayland:<socket>} display): {@link dev.saccade.wlroots.SwayDesktopReader} reads sway's
 * IPC on its own thread, {@link dev.saccade.wlroots.ToplevelDesktopReader} the foreign-toplevel
 * list where there is no sway; both deliver the same {@link dev.saccade.desktop.DesktopSnapshot}s
 * as the X11 reader; the pixel source's capture is screencopy ({@code WaylandCapture}). Built on
 * the {@code wayland} client binding (docs/wayland.md).
 */
package dev.saccade.wlroots;
