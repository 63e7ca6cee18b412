package dev.saccade.helper.backend;

/**
 * An input backend cannot start: no display, a missing extension (XTEST, XInputExtension 2.2) or
 * a missing native library. The helper reports it at start-up; later failures are platform codes.
 */
public final class BackendUnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    public BackendUnavailableException(final String message) {
        super(message);
    }

    public BackendUnavailableException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
