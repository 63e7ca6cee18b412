package dev.saccade.cli;

import java.io.IOException;

/** Writing the result to standard output failed (closed pipe, full disk). Exit code {@link ExitCodes#OUTPUT}. */
final class OutputFailedException extends IOException {
    private static final long serialVersionUID = 1L;

    OutputFailedException(final IOException cause) {
        super("cannot write the result to standard output: " + cause.getMessage(), cause);
    }
}
