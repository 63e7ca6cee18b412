package dev.saccade.client;

import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.ObserveRequestFlyweight;
import dev.saccade.protocol.TargetFlyweight;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Writes one ObserveRequest (96 bytes, spec §3) through {@link ObserveRequestFlyweight} into a
 * buffer, normally {@code AgentClient.requestStore()} at {@code requestOffset()}. Values are
 * written as given: the options check their ranges, so that a bad value is a usage error here
 * and not a connection the service closes (spec §4.2 #2).
 */
public final class ObserveRequestBuilder {
    /** Largest record count of an observe completion (spec §2 MAX_TARGETS). */
    public static final int MAX_TARGETS = AgentAbi.MAX_TARGETS;
    /** The record size; the service zero-pads records of a larger stride. */
    public static final int MIN_TARGET_STRIDE = TargetFlyweight.LENGTH;
    /** A completion without records. */
    public static final int MIN_CAPACITY = CompletionFlyweight.LENGTH;
    /** The service's response buffer (spec §1.1): the most an observe completion can use. */
    public static final int MAX_CAPACITY = AgentAbi.MAX_MESSAGE_BYTES;

    private final ObserveRequestFlyweight request = new ObserveRequestFlyweight();
    private long requestId;
    private ReadScope scope = ReadScope.DESKTOP;
    private ReadFreshness freshness = ReadFreshness.LATEST;
    private long maximumTargets = MAX_TARGETS;
    private long targetStride = MIN_TARGET_STRIDE;
    private long totalCapacity = MAX_CAPACITY;

    public ObserveRequestBuilder requestId(final long value) {
        requestId = value;
        return this;
    }

    public ObserveRequestBuilder scope(final ReadScope value) {
        scope = value;
        return this;
    }

    public ObserveRequestBuilder freshness(final ReadFreshness value) {
        freshness = value;
        return this;
    }

    public ObserveRequestBuilder maximumTargets(final long value) {
        maximumTargets = value;
        return this;
    }

    public ObserveRequestBuilder targetStride(final long value) {
        targetStride = value;
        return this;
    }

    public ObserveRequestBuilder totalCapacity(final long value) {
        totalCapacity = value;
        return this;
    }

    /** Writes the request at {@code at}; returns its frame length (96). */
    public int writeTo(final BytesStore<?, ?> store, final long at) {
        final ObserveRequestFlyweight r = request.wrap(store, at).clear();
        r.header().set(ObserveRequestFlyweight.LENGTH, AgentAbi.OBSERVE_REQUEST, 0);
        r.requestId(requestId)
            .requestedCapabilityBits(Capability.OBSERVE)
            .maximumTargets(maximumTargets)
            .targetStride(targetStride)
            .totalCapacity(totalCapacity);
        scope.writeTo(r.scope());
        freshness.writeTo(r.freshness());
        return ObserveRequestFlyweight.LENGTH;
    }
}
