package dev.saccade.owner;

import dev.saccade.client.Frames;
import dev.saccade.client.HelloRequestBuilder;
import dev.saccade.client.ObserveRequestBuilder;
import dev.saccade.client.QueryRequestBuilder;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.FilterFlag;
import dev.saccade.protocol.ObserveRequestFlyweight;
import dev.saccade.protocol.QueryFilterFlyweight;
import dev.saccade.protocol.QueryRequestFlyweight;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import net.openhft.chronicle.bytes.BytesStore;

/** Request frames for tests, built through the protocol's flyweights. */
final class Requests {
    private Requests() {
    }

    static byte[] hello(final long requestId, final int capabilities) {
        return HelloRequestBuilder.frame(requestId, capabilities);
    }

    /** Observe of DESKTOP, LATEST_VALID, max 10, stride 88, capacity 1 MiB, OBSERVE; then {@code change}. */
    static byte[] observe(final long requestId, final Consumer<ObserveRequestFlyweight> change) {
        final byte[] f = Frames.of(new ObserveRequestBuilder().requestId(requestId).maximumTargets(10)
            .targetStride(88).totalCapacity(AgentAbi.MAX_MESSAGE_BYTES)::writeTo);
        change.accept(new ObserveRequestFlyweight().wrap(BytesStore.wrap(f), 0));
        return f;
    }

    /** Query of DESKTOP, generation 42, max 10, one filter and its text right after the filter array. */
    static byte[] query(final long requestId, final String text, final Consumer<QueryRequestFlyweight> change,
        final Consumer<QueryFilterFlyweight> filter) {
        final byte[] f = Frames.of(new QueryRequestBuilder().requestId(requestId).generation(42).maximumResults(10)
            .text(text.getBytes(StandardCharsets.UTF_8), 1)::writeTo);
        final BytesStore<?, byte[]> s = BytesStore.wrap(f);
        change.accept(new QueryRequestFlyweight().wrap(s, 0));
        filter.accept(new QueryFilterFlyweight().wrap(s, QueryRequestFlyweight.LENGTH).flags(0));
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
