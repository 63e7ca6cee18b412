package dev.saccade.x11;

/**
 * The X server or the X libraries cannot be used: the display cannot be opened, libX11 is
 * missing, the connection broke. Thrown only at the edges ({@link X11DesktopReader#start()},
 * {@link X11DesktopReader#readOnce(String)}); a window that vanishes mid-read is not an error.
 */
public final class X11Exception extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public X11Exception(final String message) {
        super(message);
    }

    public X11Exception(final String message, final Throwable cause) {
        super(message, cause);
    }
}
