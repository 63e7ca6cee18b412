package dev.saccade.pixel;

import dev.saccade.x11.X11Capture;
import java.util.List;

/**
 * Where the pixel source gets pixels from: the X server (MIT-SHM and DAMAGE, {@link X11Capture})
 * or a wlroots compositor's screencopy ({@link WaylandCapture}). One thread, the pixel thread,
 * opens, uses and closes it.
 */
interface PixelCapture extends AutoCloseable {
    /** {@link #await} found the capture's own events ready. */
    int POLL_CAPTURE_READY = X11Capture.POLL_X_READY;
    /** {@link #await} found the wake pipe ready. */
    int POLL_WAKE_READY = X11Capture.POLL_WAKE_READY;

    /** Opens the capture of {@code display}: {@code wayland:<socket>} or an X display. */
    static PixelCapture open(final String display) {
        if (display != null && display.startsWith(WaylandCapture.PREFIX)) {
            return WaylandCapture.open(display.substring(WaylandCapture.PREFIX.length()));
        }
        return new X11PixelCapture(X11Capture.open(display));
    }

    int screenWidth();

    int screenHeight();

    /** Captures since open. */
    long captures();

    /** The region in desktop pixels as 0xXXRRGGBB ints, rows top to bottom; false if it could not be read. */
    boolean capture(int x, int y, int width, int height, int[] out);

    /** Mapped child windows of a top-level window, as {x, y, width, height} (none where the platform has none). */
    void descendants(long window, List<int[]> out);

    /** Hands over the damaged rectangles since the last call; returns how many. */
    int drainDamage(X11Capture.DamageSink sink);

    /** Waits up to {@code timeoutMs} (-1: no limit) for damage or the wake pipe; a POLL_* mask. */
    int await(int wakeFd, int timeoutMs);

    @Override
    void close();
}
