package dev.saccade.x11;

/**
 * Xlib's default error handlers call {@code exit()}; {@code X11Desktop} replaces them process-wide
 * on its first connection (see there). Other packages with connections of their own (the pixel
 * source's capture) call {@link #install(String)} before they open one, so a window destroyed
 * between two of their calls costs a counted protocol error, never the process.
 */
public final class XErrorHandlers {
    private XErrorHandlers() {
    }

    /**
     * Installs the counting handlers (idempotent) by opening and closing one connection.
     *
     * @throws X11Exception if the display cannot be opened
     */
    public static void install(final String displayName) {
        X11Desktop.open(displayName).close();
    }

    /** Protocol errors absorbed in this process so far. */
    public static long protocolErrors() {
        return X11Desktop.protocolErrorCount();
    }
}
