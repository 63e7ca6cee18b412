package dev.saccade.wayland;

/**
 * A keyboard the input helper types on: a wlroots virtual keyboard with its own uploaded keymap
 * or KWin's fake input on the session's keymap. Key codes are XKB's (evdev + 8) in both, and
 * {@link #keymap()} is the keymap the compositor interprets them with.
 */
public interface KeyDevice extends AutoCloseable {
    /** Presses or releases XKB key code {@code keyCode}. */
    void key(int timeMs, int keyCode, boolean down);

    /** The keymap the compositor turns this device's key codes into keysyms with. */
    Keymap keymap();

    /** Destroys the device; its held keys are the caller's to release first. */
    @Override
    void close();
}
