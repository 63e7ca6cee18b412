package dev.saccade.cli;

import dev.saccade.client.ServiceUnavailableException;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Connecting to the endpoint failed for a reason other than "nothing listens there" (which is
 * {@code ServiceUnavailableException}): e.g. permission denied, or the service's backlog stayed
 * full. Exit code {@link ExitCodes#CONNECTION_FAILED}.
 */
final class EndpointUnreachableException extends IOException {
    private static final long serialVersionUID = 1L;

    EndpointUnreachableException(final Path path, final IOException cause) {
        super("cannot connect to the Saccade service" + (path != null ? " at " + path : "") + ": "
            + cause.getMessage(), cause);
    }
}
