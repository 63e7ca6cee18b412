package dev.saccade.owner;

import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.FilterFlag;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.HelloRequestFlyweight;
import dev.saccade.protocol.ObserveRequestFlyweight;
import dev.saccade.protocol.QueryFilterFlyweight;
import dev.saccade.protocol.QueryRequestFlyweight;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceMode;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import net.openhft.chronicle.bytes.BytesStore;

/** Request frames for tests, built through the protocol's flyweights. */
final class Requests {
    private Requests() {
    }

    static byte[] hello(final long requestId, final int capabilities) {
        final byte[] f = new byte[HelloRequestFlyweight.LENGTH];
        final HelloRequestFlyweight h = new HelloRequestFlyweight().wrap(BytesStore.wrap(f), 0);
        h.header().set(HelloRequestFlyweight.LENGTH, AgentAbi.HELLO_REQUEST, 0);
        h.requestId(requestId).requestedCapabilityBits(capabilities);
        return f;
    }

    /** Observe of DESKTOP, LATEST_VALID, max 10, stride 88, capacity 1 MiB, OBSERVE; then {@code change}. */
    static byte[] observe(final long requestId, final Consumer<ObserveRequestFlyweight> change) {
        final byte[] f = new byte[ObserveRequestFlyweight.LENGTH];
        final ObserveRequestFlyweight o = new ObserveRequestFlyweight().wrap(BytesStore.wrap(f), 0);
        o.header().set(ObserveRequestFlyweight.LENGTH, AgentAbi.OBSERVE_REQUEST, 0);
        o.requestId(requestId);
        o.scope().kind(ScopeKind.DESKTOP).sourceMode(SourceMode.FUSED);
        o.freshness().policy(FreshnessPolicy.LATEST_VALID);
        o.requestedCapabilityBits(Capability.OBSERVE).maximumTargets(10).targetStride(88)
            .totalCapacity(AgentAbi.MAX_MESSAGE_BYTES);
        change.accept(o);
        return f;
    }

    /** Query of DESKTOP, generation 42, max 10, one filter and its text right after the filter array. */
    static byte[] query(final long requestId, final String text, final Consumer<QueryRequestFlyweight> change,
        final Consumer<QueryFilterFlyweight> filter) {
        final byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        final int total = QueryRequestFlyweight.LENGTH + QueryFilterFlyweight.LENGTH + utf8.length;
        final byte[] f = new byte[total];
        final BytesStore<?, byte[]> s = BytesStore.wrap(f);
        final QueryRequestFlyweight q = new QueryRequestFlyweight().wrap(s, 0);
        q.header().set(QueryRequestFlyweight.LENGTH, AgentAbi.QUERY_REQUEST, 0);
        q.requestId(requestId).generation(42);
        q.scope().kind(ScopeKind.DESKTOP).sourceMode(SourceMode.FUSED);
        q.freshness().policy(FreshnessPolicy.LATEST_VALID);
        q.requestedCapabilityBits(Capability.OBSERVE).maximumResults(10).filterCount(1).filterStride(72)
            .filtersOffset(QueryRequestFlyweight.LENGTH).totalSize(total);
        final QueryFilterFlyweight qf = new QueryFilterFlyweight().wrap(s, QueryRequestFlyweight.LENGTH);
        qf.textMatch(1).textOffset(QueryRequestFlyweight.LENGTH + QueryFilterFlyweight.LENGTH).textSize(utf8.length);
        System.arraycopy(utf8, 0, f, QueryRequestFlyweight.LENGTH + QueryFilterFlyweight.LENGTH, utf8.length);
        change.accept(q);
        filter.accept(qf);
        return f;
    }

    /** A query whose one filter has only {@code flags} set (text "Button" present but unused unless TEXT). */
    static byte[] query(final int flags, final Consumer<QueryFilterFlyweight> filter) {
        return query(20, "Button", q -> { }, f -> {
            f.flags(flags);
            filter.accept(f);
        });
    }

    static byte[] queryText(final int match, final String text) {
        return query(21, text, q -> { }, f -> f.flags(FilterFlag.TEXT).textMatch(match));
    }
}
