package dev.saccade.mcp;

import dev.saccade.client.ObserveRequestBuilder;
import dev.saccade.client.ReadFreshness;
import dev.saccade.client.ReadScope;
import dev.saccade.jsonrpc.JsonLineWriter;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.TargetFlyweight;

/**
 * {@code saccade_observe} (mcp.md §5): the arguments become an ObserveRequest through
 * {@link ObserveRequestBuilder}, the builder of {@code saccade observe}.
 */
final class ObserveTool implements Tool {
    static final String NAME = "saccade_observe";
    static final long REQUEST_ID = 2;
    static final long DEFAULT_MAXIMUM = 256;
    static final long MAXIMUM = 10_000;
    /** The AFTER_GENERATION wait of a read (timeout_ns 2 s). */
    static final long WAIT_NS = 2_000_000_000L;
    /** Response capacity asked for: the service's whole message buffer. */
    static final long TOTAL_CAPACITY = 1_048_576;

    private final ObserveRequestBuilder request = new ObserveRequestBuilder();
    private final ReadCall call;
    private long waitNs;
    private int textBytes;

    ObserveTool(final ReadCall call) {
        this.call = call;
    }

    @Override
    public String prepare(final ToolArguments a) {
        long maximum = DEFAULT_MAXIMUM;
        int status = a.u32("maximumTargets"); // the u32 rule (mcp §5): past 2^32-1 it cannot be read
        if (status == ToolArguments.INVALID) {
            return "Invalid maximumTargets";
        }
        if (status == ToolArguments.PRESENT) {
            maximum = a.value();
            if (maximum == 0 || Long.compareUnsigned(maximum, MAXIMUM) > 0) {
                return "maximumTargets is out of range";
            }
        }
        final ReadScope scope = ScopeArguments.parse(a);
        if (scope == null) {
            return "Invalid observation scope";
        }
        status = a.u64("afterGeneration");
        if (status == ToolArguments.INVALID) {
            return "Invalid afterGeneration";
        }
        final ReadFreshness freshness = freshness(status, a.value());
        textBytes = SceneText.maximumBytes(a);
        if (textBytes < 0) {
            return SceneText.INVALID_ARGUMENT;
        }
        waitNs = freshness.timeoutNs();
        request.requestId(REQUEST_ID)
            .maximumTargets(maximum)
            .targetStride(TargetFlyweight.LENGTH)
            .totalCapacity(TOTAL_CAPACITY)
            .scope(scope)
            .freshness(freshness);
        return null;
    }

    /** LATEST_VALID, or AFTER_GENERATION with the read's 2 s wait. */
    static ReadFreshness freshness(final int status, final long afterGeneration) {
        return status == ToolArguments.PRESENT
            ? new ReadFreshness(FreshnessPolicy.AFTER_GENERATION, afterGeneration, WAIT_NS) : ReadFreshness.LATEST;
    }

    @Override
    public void call(final ServiceConnection service, final JsonLineWriter out) {
        call.run(service, out, request::writeTo, REQUEST_ID, AgentAbi.OBSERVE_COMPLETION, waitNs, textBytes,
            "Observe transport failed", "Observation rejected: ");
    }
}
