package dev.saccade.desktop;

import java.util.Objects;

/**
 * One top-level client window as the window manager lists it.
 *
 * @param xid the client window (not the window manager's frame), as in {@code _NET_CLIENT_LIST}
 * @param pid {@code _NET_WM_PID}; 0 if the client did not set it
 * @param title {@code _NET_WM_NAME}, else {@code WM_NAME}; "" if neither is set
 * @param x left edge of the client area in root (desktop) pixels, decorations excluded
 * @param y top edge of the client area in root pixels
 * @param width client area width in pixels
 * @param height client area height in pixels
 * @param hidden minimized: {@code _NET_WM_STATE_HIDDEN} is in {@code _NET_WM_STATE}
 * @param viewable the window and all its ancestors are mapped ({@code IsViewable}); a minimized
 *     or other-desktop window is not
 * @param desktop {@code _NET_WM_DESKTOP}: 0-based desktop number, {@link #ALL_DESKTOPS} if sticky,
 *     {@link #NO_DESKTOP} if unset
 */
public record WindowInfo(
    long xid, long pid, String title, int x, int y, int width, int height, boolean hidden,
    boolean viewable, int desktop) {

    /** {@code _NET_WM_DESKTOP} = 0xFFFFFFFF: shown on every desktop. */
    public static final int ALL_DESKTOPS = -1;
    /** No {@code _NET_WM_DESKTOP} property. */
    public static final int NO_DESKTOP = -2;

    public WindowInfo {
        Objects.requireNonNull(title, "title");
    }
}
