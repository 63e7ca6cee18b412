package dev.saccade.desktop;

import java.io.IOException;
import java.util.function.Consumer;

/**
 * What the owner needs of a desktop platform: the windows and monitors of a display, as a
 * stream of {@link DesktopSnapshot}s, and its pixels as a {@link ScreenCapture}. One implementation per platform module (X11, wlroots);
 * the owner asks its backends in order and starts the first that reads the display, so a new
 * platform arrives as a module with one more implementation.
 */
public interface DesktopBackend {
    /** Whether this backend reads {@code display}, the owner's display string (an X display, {@code wayland:<socket>}). */
    boolean reads(String display);

    /**
     * Starts reading {@code display} on a thread of the backend's own; every snapshot that
     * differs from the last goes to {@code listener} on that thread. The returned action stops
     * the reading and waits for its thread.
     */
    Runnable start(String display, Consumer<DesktopSnapshot> listener) throws IOException;

    /**
     * Opens a capture of {@code display}'s pixels for the pixel source.
     *
     * @throws IllegalStateException if this platform or display offers none (the pixel source is then off)
     */
    default ScreenCapture openCapture(final String display) {
        throw new IllegalStateException("no screen capture for display " + display);
    }
}
