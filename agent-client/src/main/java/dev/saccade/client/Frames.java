package dev.saccade.client;

import net.openhft.chronicle.bytes.BytesStore;

/**
 * A request as a whole frame (without its 4-byte length prefix), for code that sends bytes itself:
 * tests that change a field before sending, benchmarks that build every request before timing.
 */
public final class Frames {
    /** Writes a request at an offset and returns its length: the builders' {@code writeTo}. */
    @FunctionalInterface
    public interface Writer {
        int writeTo(BytesStore<?, ?> store, long at);
    }

    private Frames() {
    }

    /** The bytes {@code request} writes, exactly its frame length. */
    public static byte[] of(final Writer request) {
        final byte[] scratch = new byte[dev.saccade.protocol.AgentAbi.MAX_MESSAGE_BYTES];
        final int length = request.writeTo(BytesStore.wrap(scratch), 0);
        return java.util.Arrays.copyOf(scratch, length);
    }
}
