package dev.saccade.cli;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Nothing answers on the supervisor's control socket: no socket file, or one left over that
 * refuses connections. {@code saccade upgrade} then leaves the new version for the next start.
 */
final class SupervisorNotRunningException extends IOException {
    private static final long serialVersionUID = 1L;

    SupervisorNotRunningException(final Path socket, final String why, final Throwable cause) {
        super("no supervisor is running at " + socket + " (" + why + ")", cause);
    }
}
