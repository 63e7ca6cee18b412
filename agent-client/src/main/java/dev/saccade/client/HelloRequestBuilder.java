package dev.saccade.client;

import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.HelloRequestFlyweight;
import net.openhft.chronicle.bytes.BytesStore;

/** Writes one Hello (32 bytes, §1.4, §3) through {@link HelloRequestFlyweight}. */
public final class HelloRequestBuilder {
    private final HelloRequestFlyweight request = new HelloRequestFlyweight();
    private long requestId;
    private int capabilities;
    private int flags;

    public HelloRequestBuilder requestId(final long value) {
        requestId = value;
        return this;
    }

    /** The capability bits asked for (§5.1). */
    public HelloRequestBuilder capabilities(final int bits) {
        capabilities = bits;
        return this;
    }

    /** The {@link dev.saccade.protocol.HelloFlag} bits asked for (§1.4): 0 is the base ABI. */
    public HelloRequestBuilder flags(final int bits) {
        flags = bits;
        return this;
    }

    /** Writes the request at {@code at}; returns its frame length. */
    public int writeTo(final BytesStore<?, ?> store, final long at) {
        final HelloRequestFlyweight r = request.wrap(store, at).clear();
        r.header().set(HelloRequestFlyweight.LENGTH, AgentAbi.HELLO_REQUEST, 0);
        r.requestId(requestId).requestedCapabilityBits(capabilities).flags(flags);
        return HelloRequestFlyweight.LENGTH;
    }

    /** A whole Hello frame (without its length prefix), for tests and benchmarks that send bytes themselves. */
    public static byte[] frame(final long requestId, final int capabilities) {
        return Frames.of(new HelloRequestBuilder().requestId(requestId).capabilities(capabilities)::writeTo);
    }
}
