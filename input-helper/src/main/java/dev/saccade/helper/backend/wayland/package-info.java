/**
 * The wlroots input backend: {@link dev.saccade.helper.backend.wayland.WaylandBackend} injects
 * pointer, wheel, key and text input through the virtual pointer and keyboard protocols, with
 * one keymap of its own ({@link dev.saccade.helper.backend.wayland.HidEvdev} maps HID usages to
 * its key codes), and activates windows through sway's IPC.
 */
package dev.saccade.helper.backend.wayland;
