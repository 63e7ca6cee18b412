package dev.saccade.cli;

import java.io.PrintWriter;

/**
 * The command's own input could not be used: a file or standard input that cannot be read, is
 * too long or too short, or does not hold what the option needs. Exit code
 * {@link ExitCodes#INPUT}. Not an {@link java.io.IOException} on purpose: those mean a failed
 * connection in {@link FailureHandler}; a command catches this one and calls {@link #report}.
 */
final class InputFailedException extends Exception {
    private static final long serialVersionUID = 1L;

    InputFailedException(final String message) {
        super(message);
    }

    InputFailedException(final String message, final Throwable cause) {
        super(message, cause);
    }

    /** Writes the one-line message and returns {@link ExitCodes#INPUT}. */
    int report(final PrintWriter err) {
        err.println("saccade: " + getMessage());
        err.flush();
        return ExitCodes.INPUT;
    }
}
