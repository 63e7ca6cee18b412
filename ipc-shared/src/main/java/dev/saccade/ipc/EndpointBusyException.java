package dev.saccade.ipc;

import dev.saccade.protocol.ResultCode;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A live listener still held the endpoint path when the bind's wait ran out: the spec's
 * ALREADY_EXISTS (agent-abi.md §1.1, "Busy path"). Another Saccade service is serving there.
 */
public final class EndpointBusyException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path path;
    private final long waitedMs;

    EndpointBusyException(final Path path, final long waitedMs) {
        super("Another live listener holds " + path + " (ALREADY_EXISTS): connects to it succeed, so it was"
            + " left alone; retried every " + EndpointListener.RETRY_INTERVAL_MS + " ms for " + waitedMs
            + " ms. Another Saccade service is running for this user: stop it first, or give this one a"
            + " different endpoint path.");
        this.path = path;
        this.waitedMs = waitedMs;
    }

    public Path path() {
        return path;
    }

    public long waitedMs() {
        return waitedMs;
    }

    /** The platform code this failure maps to (spec §2, "Platform codes"). */
    public int platformError() {
        return ResultCode.PLATFORM_ALREADY_EXISTS;
    }
}
