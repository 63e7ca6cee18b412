package dev.saccade.bench;

import dev.saccade.client.Frames;
import dev.saccade.client.HelloRequestBuilder;
import dev.saccade.client.ObserveRequestBuilder;
import dev.saccade.client.QueryRequestBuilder;
import dev.saccade.client.ReadScope;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.ObserveRequestFlyweight;
import dev.saccade.protocol.QueryFilterFlyweight;
import dev.saccade.protocol.QueryRequestFlyweight;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetFlyweight;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import net.openhft.chronicle.bytes.BytesStore;

/** Request frames built once, through the protocol's flyweights, before anything is timed. */
final class BenchRequests {
    /** Offset of request_id in every request (after the 16-byte header). */
    static final int REQUEST_ID_OFFSET = ObserveRequestFlyweight.REQUEST_ID_OFFSET;

    private BenchRequests() {
    }

    static byte[] hello(final long requestId, final int capabilities) {
        return HelloRequestBuilder.frame(requestId, capabilities);
    }

    /**
     * The 96-byte observe of spec §3: LATEST_VALID, OBSERVE, stride 88, total capacity 1 MiB.
     *
     * @param sourceMode {@link SourceMode#FUSED} for DESKTOP, {@link SourceMode#PIXEL} for ACTIVE_WINDOW (§5.3).
     */
    static byte[] observe(final long requestId, final int scopeKind, final int sourceMode, final long maximumTargets) {
        return Frames.of(new ObserveRequestBuilder().requestId(requestId)
            .scope(new ReadScope(scopeKind, sourceMode, 0, null)).maximumTargets(maximumTargets)
            .targetStride(TargetFlyweight.LENGTH).totalCapacity(ObserveRequestBuilder.MAX_CAPACITY)::writeTo);
    }

    /**
     * A DESKTOP query, unpinned (generation 0), with one filter set by {@code filter} and
     * {@code text} (UTF-8) right after the filter array, where a TEXT filter points.
     */
    static byte[] query(final long requestId, final long maximumResults, final String text,
        final Consumer<QueryFilterFlyweight> filter) {
        final byte[] f = Frames.of(new QueryRequestBuilder().requestId(requestId).maximumResults(maximumResults)
            .text(text.getBytes(StandardCharsets.UTF_8), 0)::writeTo);
        filter.accept(new QueryFilterFlyweight().wrap(BytesStore.wrap(f), QueryRequestFlyweight.LENGTH).flags(0));
        return f;
    }

    /** {@code frame} behind its 4-byte little-endian length, in a direct buffer of exactly that size. */
    static ByteBuffer framed(final byte[] frame) {
        final ByteBuffer b = ByteBuffer.allocateDirect(AgentAbi.FRAME_LENGTH_BYTES + frame.length)
            .order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(frame.length).put(frame).clear();
        return b;
    }

    /** The 4-byte ping: a length prefix of 0, so the ping-pong runs the same client code as a frame. */
    static ByteBuffer ping() {
        return ByteBuffer.allocateDirect(AgentAbi.FRAME_LENGTH_BYTES).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 0);
    }
}
