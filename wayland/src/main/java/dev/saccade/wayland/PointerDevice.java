package dev.saccade.wayland;

/**
 * A pointer the input helper moves and clicks: a wlroots virtual pointer or KWin's fake input.
 * Positions are layout coordinates; buttons are evdev codes ({@code BTN_LEFT} ...).
 */
public interface PointerDevice extends AutoCloseable {
    /** Moves to ({@code x}, {@code y}) of a layout of {@code extentX}×{@code extentY}. */
    void moveTo(int timeMs, int x, int y, int extentX, int extentY);

    void button(int timeMs, int button, boolean down);

    /** {@code steps} wheel notches on one axis (positive: down or right). */
    void wheel(int timeMs, int axis, int steps);

    /** Destroys the device; its held buttons are the caller's to release first. */
    @Override
    void close();
}
