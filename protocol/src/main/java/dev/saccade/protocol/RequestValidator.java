package dev.saccade.protocol;

import net.openhft.chronicle.bytes.BytesStore;

/**
 * Applies the spec's checks to one received frame, in the spec's order, and gives a verdict
 * (spec §1.4, §4). The first failing check decides:
 * <ul>
 *   <li>{@link #REJECT}: an untyped reject (U); the transport closes the connection and writes
 *       nothing.</li>
 *   <li>a negative {@link ResultCode}: answer with the typed error completion of that result
 *       (§4.5).</li>
 *   <li>{@link #ACCEPT}: every check that needs no scene passed; the service goes on with the
 *       snapshot checks (observe #5–#7, query #7–#10, batch #7–#9).</li>
 * </ul>
 * It reads only the {@code length} bytes of the frame, reads each field only once the frame is
 * known to hold it, allocates nothing, and throws nothing for any content. One instance per
 * owner thread: the flyweights inside are reused.
 */
public final class RequestValidator {
    /** Untyped reject: close the connection without writing. */
    public static final int REJECT = Integer.MIN_VALUE;
    /** Passed every frame-level check. */
    public static final int ACCEPT = ResultCode.OK;

    private final HelloRequestFlyweight hello = new HelloRequestFlyweight();
    private final ObserveRequestFlyweight observe = new ObserveRequestFlyweight();
    private final QueryRequestFlyweight query = new QueryRequestFlyweight();
    private final QueryFilterFlyweight filter = new QueryFilterFlyweight();
    private final ActionBatchFlyweight batch = new ActionBatchFlyweight();

    /** Framing (§1.2): an inbound length outside 16..1 MiB disconnects before any byte is read. */
    public static boolean isValidFrameLength(final long length) {
        return length >= AgentAbi.MIN_FRAME_BYTES && length <= AgentAbi.MAX_MESSAGE_BYTES;
    }

    /**
     * A frame received on an unauthenticated connection is a Hello attempt whatever its kind
     * (§1.3, §1.4). Returns {@link ResultCode#OK}, {@link ResultCode#INVALID_MESSAGE} or
     * {@link ResultCode#CAPABILITY_DENIED}; never {@link #REJECT}. On OK, grant
     * {@code requested ∩ Capability.POLICY}.
     */
    public int validateHello(final BytesStore<?, ?> frame, final long at, final long length) {
        if (length != HelloRequestFlyweight.LENGTH) {
            return ResultCode.INVALID_MESSAGE;
        }
        hello.wrap(frame, at);
        final HeaderFlyweight header = hello.header();
        if (header.structSize() != HelloRequestFlyweight.LENGTH
            || !AgentAbi.spoken(header.apiVersion())
            || header.messageKind() != AgentAbi.HELLO_REQUEST
            || hello.requestedCapabilityBits() == 0) {
            return ResultCode.INVALID_MESSAGE;
        }
        if ((hello.requestedCapabilityBits() & Capability.POLICY) == 0) {
            return ResultCode.CAPABILITY_DENIED;
        }
        return ResultCode.OK;
    }

    /** {@link #validate(BytesStore, long, long, int, long, long, int)} for a connection of the base version. */
    public int validate(
        final BytesStore<?, ?> frame,
        final long at,
        final long length,
        final int available,
        final long responseCapacity,
        final long nowNs) {
        return validate(frame, at, length, available, responseCapacity, nowNs, AgentAbi.API_VERSION);
    }

    /**
     * Verdict for a frame on an authenticated connection (§4.1–§4.4).
     *
     * @param apiVersion the version the connection's Hello named; every frame must carry it (§4.1 #1).
     * @param available policy ∩ granted at Hello.
     * @param responseCapacity R, the response buffer's size in bytes.
     * @param nowNs the monotonic clock, for a batch's deadline.
     */
    public int validate(
        final BytesStore<?, ?> frame,
        final long at,
        final long length,
        final int available,
        final long responseCapacity,
        final long nowNs,
        final int apiVersion) {
        if (length < HeaderFlyweight.LENGTH) {
            return REJECT;
        }
        final long structSize = frame.readUnsignedInt(at + HeaderFlyweight.STRUCT_SIZE_OFFSET);
        final int kind = frame.readInt(at + HeaderFlyweight.MESSAGE_KIND_OFFSET);
        if (frame.readInt(at + HeaderFlyweight.API_VERSION_OFFSET) != apiVersion) {
            return REJECT;
        }
        switch (kind) {
            case AgentAbi.OBSERVE_REQUEST:
                return length < ObserveRequestFlyweight.LENGTH || structSize != ObserveRequestFlyweight.LENGTH
                    ? REJECT : validateObserve(frame, at, available, responseCapacity);
            case AgentAbi.QUERY_REQUEST:
                return length < QueryRequestFlyweight.LENGTH || structSize != QueryRequestFlyweight.LENGTH
                    ? REJECT : validateQuery(frame, at, length, available, responseCapacity);
            case AgentAbi.ACTION_BATCH:
                return length < ActionBatchFlyweight.LENGTH || structSize != ActionBatchFlyweight.LENGTH
                    ? REJECT : validateBatch(frame, at, length, available, responseCapacity, nowNs);
            default:
                return REJECT;
        }
    }

    private int validateObserve(
        final BytesStore<?, ?> frame, final long at, final int available, final long r) {
        final ObserveRequestFlyweight o = observe.wrap(frame, at);
        if (r < CompletionFlyweight.LENGTH) {
            return REJECT;
        }
        final int requested = o.requestedCapabilityBits();
        if (!readCapabilitiesAllowed(requested, available)) {
            return ResultCode.CAPABILITY_DENIED;
        }
        final long maximumTargets = o.maximumTargets();
        final long capacity = o.totalCapacity();
        if (maximumTargets == 0 || maximumTargets > AgentAbi.MAX_TARGETS
            || o.targetStride() < TargetFlyweight.LENGTH
            || capacity < CompletionFlyweight.LENGTH || capacity > r) {
            return REJECT;
        }
        return freshnessVerdict(o.freshness());
    }

    private int validateQuery(
        final BytesStore<?, ?> frame, final long at, final long length, final int available, final long r) {
        final QueryRequestFlyweight q = query.wrap(frame, at);
        if (r < CompletionFlyweight.LENGTH) {
            return REJECT;
        }
        if (!readCapabilitiesAllowed(q.requestedCapabilityBits(), available)) {
            return ResultCode.CAPABILITY_DENIED;
        }
        final long maximumResults = q.maximumResults();
        final long count = q.filterCount();
        final long stride = q.filterStride();
        final long filtersOffset = q.filtersOffset();
        final long totalSize = q.totalSize();
        if (maximumResults == 0 || maximumResults > AgentAbi.MAX_TARGETS
            || count > AgentAbi.MAX_FILTERS
            || stride < QueryFilterFlyweight.LENGTH
            || totalSize > length
            || (count != 0 && filtersOffset < QueryRequestFlyweight.LENGTH)
            || !Ranges.rangeValid(filtersOffset, count, stride, totalSize)) {
            return REJECT;
        }
        final int freshness = freshnessVerdict(q.freshness());
        if (freshness != ACCEPT) {
            return freshness;
        }
        if (CompletionFlyweight.LENGTH + maximumResults * TargetFlyweight.LENGTH > r) {
            return REJECT;
        }
        // count ≤ 32 and stride ≤ total_size ≤ 1 MiB here, so the product fits easily.
        final long filtersEnd = filtersOffset + count * stride;
        for (long i = 0; i < count; i++) {
            final int verdict = filterVerdict(frame, at, filter.wrap(frame, at + filtersOffset + i * stride),
                filtersEnd, totalSize);
            if (verdict != ACCEPT) {
                return verdict;
            }
        }
        return ACCEPT;
    }

    private static int filterVerdict(
        final BytesStore<?, ?> frame, final long at, final QueryFilterFlyweight f,
        final long filtersEnd, final long totalSize) {
        final int flags = f.flags();
        if ((flags & FilterFlag.RELATION) != 0) {
            final int relation = f.relation();
            if (relation == Relation.NEAREST) {
                return ResultCode.ACTION_UNSUPPORTED;
            }
            if (relation < Relation.SELF || relation > Relation.NEAREST) {
                return REJECT;
            }
        }
        if ((flags & FilterFlag.TEXT) != 0) {
            final long textOffset = f.textOffset();
            final long textSize = f.textSize();
            final int match = f.textMatch();
            if (textSize == 0 || textSize > AgentAbi.MAX_TEXT_BYTES
                || textOffset < filtersEnd
                || textOffset > totalSize
                || textSize > totalSize - textOffset
                || match < TextMatch.EXACT || match > TextMatch.SUBSTRING
                || !Utf8.isStrict(frame, at + textOffset, textSize)) {
                return REJECT;
            }
        }
        return ACCEPT;
    }

    private int validateBatch(
        final BytesStore<?, ?> frame, final long at, final long length, final int available,
        final long r, final long nowNs) {
        final ActionBatchFlyweight b = batch.wrap(frame, at);
        if (r < ActionCompletionFlyweight.LENGTH) {
            return REJECT;
        }
        final int requested = b.requestedCapabilityBits();
        if ((requested & ~available) != 0) {
            return ResultCode.CAPABILITY_DENIED;
        }
        final long count = b.actionCount();
        final long stride = b.actionStride();
        final long actionsOffset = b.actionsOffset();
        final long payloadOffset = b.payloadOffset();
        final long payloadSize = b.payloadSize();
        final long totalSize = b.totalSize();
        final int policy = b.policy();
        if (count == 0 || count > AgentAbi.MAX_ACTIONS
            || stride < ActionFlyweight.LENGTH
            || totalSize > length
            || actionsOffset < ActionBatchFlyweight.LENGTH
            || !Ranges.rangeValid(actionsOffset, count, stride, totalSize)
            // range_valid held, so actionsOffset + count × stride ≤ totalSize ≤ 1 MiB.
            || (payloadSize != 0 && payloadOffset < actionsOffset + count * stride)
            || payloadOffset > totalSize
            || payloadSize > totalSize - payloadOffset
            || payloadSize > AgentAbi.MAX_PAYLOAD_BYTES
            || (policy != AgentAbi.POLICY_STOP_ON_FAILURE && policy != AgentAbi.POLICY_CONTINUE_ON_FAILURE)) {
            return REJECT;
        }
        final int flags = b.header().flags();
        if ((flags & ~(AgentAbi.FLAG_DRY_RUN | AgentAbi.FLAG_VERIFY_NEXT_GENERATION)) != 0) {
            return REJECT;
        }
        if ((flags & AgentAbi.FLAG_VERIFY_NEXT_GENERATION) != 0 && (available & Capability.OBSERVE) == 0) {
            return ResultCode.CAPABILITY_DENIED;
        }
        if (ActionCompletionFlyweight.LENGTH + count * ActionResultFlyweight.LENGTH > r) {
            return REJECT;
        }
        if (Long.compareUnsigned(b.deadlineNs(), nowNs) <= 0) {
            return ResultCode.TIMEOUT; // D4: a typed answer, not a disconnect
        }
        return ACCEPT;
    }

    /** Observe and query: requested ⊆ available and OBSERVE requested (§5.1). */
    private static boolean readCapabilitiesAllowed(final int requested, final int available) {
        return (requested & ~available) == 0 && (requested & Capability.OBSERVE) != 0;
    }

    /** Observe #3 then #4 (query #3, #4). */
    private static int freshnessVerdict(final FreshnessFlyweight f) {
        final int policy = f.policy();
        final int flags = f.flags();
        if (policy < FreshnessPolicy.LATEST_VALID || policy > FreshnessPolicy.FORCE_REFRESH
            || (flags & ~FreshnessPolicy.ALL_FLAGS) != 0) {
            return REJECT;
        }
        if (policy == FreshnessPolicy.FORCE_REFRESH || flags != 0) {
            return ResultCode.ACTION_UNSUPPORTED;
        }
        return ACCEPT;
    }
}
