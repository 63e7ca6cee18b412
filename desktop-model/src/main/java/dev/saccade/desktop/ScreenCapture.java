package dev.saccade.desktop;

import java.util.List;

/**
 * A desktop's pixels and their damage, as the pixel source consumes them: each desktop backend
 * offers its own ({@link DesktopBackend#openCapture}), so the pixel source knows no platform.
 * One thread, the pixel thread, opens, uses and closes an instance.
 */
public interface ScreenCapture extends AutoCloseable {
    /** {@link #await} found the capture's own events ready. */
    int POLL_CAPTURE_READY = 1;
    /** {@link #await} found the wake pipe ready. */
    int POLL_WAKE_READY = 2;

    int screenWidth();

    int screenHeight();

    /** Captures since open. */
    long captures();

    /**
     * Reads the desktop's pixels at the rectangle into {@code out} as 0x00RRGGBB ints, rows top to
     * bottom, {@code width} a row; false if they could not be read (the screen changed under it).
     */
    boolean capture(int x, int y, int width, int height, int[] out);

    /** Mapped child windows of a top-level window, as {x, y, width, height} in desktop pixels (none where the platform has none). */
    void descendants(long window, List<int[]> out);

    /** Hands over the damaged rectangles since the last call; returns how many. */
    int drainDamage(DamageSink sink);

    /** Waits up to {@code timeoutMs} (-1: no limit) for damage or the wake pipe; a POLL_* mask, 0 on timeout. */
    int await(int wakeFd, int timeoutMs);

    @Override
    void close();

    /** Receives damaged rectangles in desktop pixels. */
    @FunctionalInterface
    interface DamageSink {
        void damaged(int x, int y, int width, int height);
    }
}
