package dev.saccade.client;

import dev.saccade.protocol.ResultCode;
import java.io.IOException;

/**
 * The service answered Hello with a non-OK result (spec §1.4): INVALID_MESSAGE or
 * CAPABILITY_DENIED. The connection stays open and unauthenticated; Hello may be retried.
 */
public final class HelloRefusedException extends IOException {
    private static final long serialVersionUID = 1L;

    private final int result;
    private final int platformError;

    HelloRefusedException(final int requested, final int result, final int platformError) {
        super("Hello refused: " + ResultCode.name(result) + " (result " + result + ", platform_error "
            + platformError + ") for requested capabilities 0x" + Integer.toHexString(requested)
            + (result == ResultCode.CAPABILITY_DENIED
                ? "; the service grants only OBSERVE, POINTER, KEYBOARD and WINDOW" : ""));
        this.result = result;
        this.platformError = platformError;
    }

    /** The completion's result ({@link ResultCode}). */
    public int result() {
        return result;
    }

    public int platformError() {
        return platformError;
    }
}
