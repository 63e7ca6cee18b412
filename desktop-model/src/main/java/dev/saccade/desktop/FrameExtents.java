package dev.saccade.desktop;

/**
 * The invisible margin a client-side decorated window keeps around what it draws, for its shadow
 * and resize borders, as the client states it on X11 ({@code _GTK_FRAME_EXTENTS}, four
 * cardinals: left, right, top, bottom). The window's accessible frame starts {@code left} and
 * {@code top} pixels inside its X window.
 *
 * @param left pixels of margin at the left edge
 * @param right pixels of margin at the right edge
 * @param top pixels of margin at the top edge
 * @param bottom pixels of margin at the bottom edge
 */
public record FrameExtents(int left, int right, int top, int bottom) {
}
