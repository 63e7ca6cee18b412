package dev.saccade.bench;

import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.HelloRequestFlyweight;
import dev.saccade.protocol.ObserveRequestFlyweight;
import dev.saccade.protocol.QueryFilterFlyweight;
import dev.saccade.protocol.QueryRequestFlyweight;
import dev.saccade.protocol.ScopeKind;
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
        final byte[] f = new byte[HelloRequestFlyweight.LENGTH];
        final HelloRequestFlyweight h = new HelloRequestFlyweight().wrap(BytesStore.wrap(f), 0);
        h.header().set(HelloRequestFlyweight.LENGTH, AgentAbi.HELLO_REQUEST, 0);
        h.requestId(requestId).requestedCapabilityBits(capabilities);
        return f;
    }

    /**
     * The 96-byte observe of spec §3: LATEST_VALID, OBSERVE, stride 88, total capacity 1 MiB.
     *
     * @param sourceMode {@link SourceMode#FUSED} for DESKTOP, {@link SourceMode#PIXEL} for ACTIVE_WINDOW (§5.3).
     */
    static byte[] observe(final long requestId, final int scopeKind, final int sourceMode, final long maximumTargets) {
        final byte[] f = new byte[ObserveRequestFlyweight.LENGTH];
        final ObserveRequestFlyweight o = new ObserveRequestFlyweight().wrap(BytesStore.wrap(f), 0);
        o.header().set(ObserveRequestFlyweight.LENGTH, AgentAbi.OBSERVE_REQUEST, 0);
        o.requestId(requestId);
        o.scope().kind(scopeKind).sourceMode(sourceMode);
        o.freshness().policy(FreshnessPolicy.LATEST_VALID);
        o.requestedCapabilityBits(Capability.OBSERVE).maximumTargets(maximumTargets)
            .targetStride(TargetFlyweight.LENGTH).totalCapacity(AgentAbi.MAX_MESSAGE_BYTES);
        return f;
    }

    /**
     * A DESKTOP query, unpinned (generation 0), with one filter set by {@code filter} and
     * {@code text} (UTF-8) right after the filter array, where a TEXT filter points.
     */
    static byte[] query(final long requestId, final long maximumResults, final String text,
        final Consumer<QueryFilterFlyweight> filter) {
        final byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        final int textAt = QueryRequestFlyweight.LENGTH + QueryFilterFlyweight.LENGTH;
        final int total = textAt + utf8.length;
        final byte[] f = new byte[total];
        final BytesStore<?, byte[]> s = BytesStore.wrap(f);
        final QueryRequestFlyweight q = new QueryRequestFlyweight().wrap(s, 0);
        q.header().set(QueryRequestFlyweight.LENGTH, AgentAbi.QUERY_REQUEST, 0);
        q.requestId(requestId).generation(0);
        q.scope().kind(ScopeKind.DESKTOP).sourceMode(SourceMode.FUSED);
        q.freshness().policy(FreshnessPolicy.LATEST_VALID);
        q.requestedCapabilityBits(Capability.OBSERVE).maximumResults(maximumResults).filterCount(1)
            .filterStride(QueryFilterFlyweight.LENGTH).filtersOffset(QueryRequestFlyweight.LENGTH).totalSize(total);
        final QueryFilterFlyweight qf = new QueryFilterFlyweight().wrap(s, QueryRequestFlyweight.LENGTH);
        qf.textOffset(textAt).textSize(utf8.length);
        System.arraycopy(utf8, 0, f, textAt, utf8.length);
        filter.accept(qf);
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
