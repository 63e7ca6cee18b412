package dev.saccade.demodesktop;

/**
 * The test desktop could not be started, could not start an app, or could not stop everything it
 * started. The message says which step failed and quotes what the failing program printed, so a
 * CI log is enough to diagnose it; failures of later cleanup steps are attached as suppressed.
 */
public final class TestDesktopException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public TestDesktopException(final String message) {
        super(message);
    }

    public TestDesktopException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
