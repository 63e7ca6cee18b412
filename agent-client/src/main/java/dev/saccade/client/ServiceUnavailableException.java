package dev.saccade.client;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Nothing is listening at the endpoint: the socket file is missing, or it is left over from a
 * service that is gone (connect refused). The message names the path and how to start Saccade.
 */
public final class ServiceUnavailableException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path path;

    ServiceUnavailableException(final Path path, final String why, final Throwable cause) {
        super("Saccade is not running at " + path + " (" + why + "). Start it with `saccade up` (test desktop"
            + " and service) or `saccade owner run` (service only), or point --endpoint at the right socket.",
            cause);
        this.path = path;
    }

    public Path path() {
        return path;
    }
}
