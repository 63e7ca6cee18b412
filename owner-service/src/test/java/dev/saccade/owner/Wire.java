package dev.saccade.owner;

import java.io.IOException;

/** One client connection to a service, whatever carries it. */
interface Wire extends AutoCloseable {
    /**
     * Sends a frame and returns the reply, or null when the service closed the connection
     * without replying.
     */
    byte[] exchange(byte[] frame) throws Exception;

    @Override
    void close() throws IOException;
}
