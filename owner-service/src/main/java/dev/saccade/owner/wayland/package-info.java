/**
 * The owner's view of a wlroots desktop's windows and outputs, as the same snapshots the X11
 * reader makes: from sway's IPC ({@link dev.saccade.owner.wayland.SwayDesktopReader}) or, on
 * any other wlroots compositor, from the foreign-toplevel protocol alone
 * ({@link dev.saccade.owner.wayland.ToplevelDesktopReader}, docs/wayland.md §1).
 */
package dev.saccade.owner.wayland;
