package dev.saccade.client;

import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.GenerationFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.TargetFlyweight;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * The client's half of VERIFY_NEXT_GENERATION (spec §5.12). When the service answers a verified
 * batch with the <em>pending</em> completion (TIMEOUT, every action completed, no failed
 * action, no NEXT_GENERATION_AVAILABLE), the client keeps that completion and observes: DESKTOP,
 * FUSED, AFTER_GENERATION after its validated_generation, one target, stride 88, capacity
 * 1 MiB, with the batch's request_id and the time left until its deadline, again after each
 * TIMEOUT, until the deadline. Then it patches the kept completion:
 * <ul>
 *   <li>an OK observe: OK, platform_error 0, NEXT_GENERATION_AVAILABLE, next_generation = the
 *       observed generation;</li>
 *   <li>another error: that result;</li>
 *   <li>the deadline: it stays TIMEOUT;</li>
 *   <li>the connection lost (any failure of the link): CANCELLED (D9).</li>
 * </ul>
 * The batch is never sent again: its input ran exactly once.
 */
public final class BatchVerifier {
    /** Longest wait of one read, in ms: what {@code --wait-ms} accepts. */
    public static final long MAX_WAIT_MS = Integer.MAX_VALUE;
    /** Longest single wait asked of the service; a deadline further away is waited for in steps. */
    static final long MAX_WAIT_NS = TimeUnit.MILLISECONDS.toNanos(MAX_WAIT_MS);

    private final ObserveRequestBuilder observe = new ObserveRequestBuilder()
        .scope(ReadScope.DESKTOP)
        .maximumTargets(1)
        .targetStride(TargetFlyweight.LENGTH)
        .totalCapacity(ObserveRequestBuilder.MAX_CAPACITY);
    private final ReadExchange read = new ReadExchange();
    private String outcome;

    /** The pending answer of §5.12, which the client goes on to verify. */
    public static boolean isPending(final ActionCompletionFlyweight c, final long actionCount) {
        return c.result() == ResultCode.TIMEOUT
            && c.completedActionCount() == actionCount
            && c.failedActionIndex() == AgentAbi.NO_FAILED_ACTION
            && (c.header().flags() & AgentAbi.FLAG_NEXT_GENERATION_AVAILABLE) == 0;
    }

    /** Nanoseconds from {@code nowNs} to {@code deadlineNs} (u64, monotonic clock); 0 once it passed. */
    public static long remainingNs(final long deadlineNs, final long nowNs) {
        if (Long.compareUnsigned(deadlineNs, nowNs) <= 0) {
            return 0;
        }
        final long remaining = deadlineNs - nowNs;
        return remaining < 0 ? Long.MAX_VALUE : remaining;
    }

    /**
     * Observes until a newer generation, an error or {@code deadlineNs}, and patches
     * {@code kept} (the pending completion, in a buffer of the caller's, not the client's).
     */
    public void verify(final AgentClient client, final long requestId, final long deadlineNs,
        final ActionCompletionFlyweight kept) {
        final long after = kept.validatedGeneration();
        outcome = null;
        while (true) {
            final long remainingNs = remainingNs(deadlineNs, System.nanoTime());
            if (remainingNs == 0) {
                outcome = "the actions ran, but no generation newer than " + Long.toUnsignedString(after)
                    + " appeared before the deadline";
                return;
            }
            final CompletionFlyweight answer;
            try {
                final int length = observe.requestId(requestId)
                    .freshness(new ReadFreshness(FreshnessPolicy.AFTER_GENERATION, after,
                        Math.min(remainingNs, MAX_WAIT_NS)))
                    .writeTo(client.requestStore(), client.requestOffset());
                answer = read.roundTrip(client, length, requestId, AgentAbi.OBSERVE_COMPLETION);
            } catch (final IOException e) {
                patch(kept, ResultCode.CANCELLED);
                outcome = "the actions ran and are not sent again, but the connection was lost while verifying the"
                    + " next generation: " + e.getMessage();
                return;
            }
            final int result = answer.result();
            if (result == ResultCode.OK) {
                patch(kept, ResultCode.OK);
                kept.header().flags(kept.header().flags() | AgentAbi.FLAG_NEXT_GENERATION_AVAILABLE);
                kept.bytes().write(kept.offset() + ActionCompletionFlyweight.NEXT_GENERATION_OFFSET,
                    answer.bytes(), answer.offset() + CompletionFlyweight.GENERATION_OFFSET, GenerationFlyweight.LENGTH);
                return;
            }
            if (result != ResultCode.TIMEOUT) {
                patch(kept, result);
                outcome = "the actions ran, but the observe that verifies the next generation answered "
                    + ResultCode.name(result) + " (" + result + ")";
                return;
            }
            // TIMEOUT: the service's wait ended; ask again with what is left of the deadline.
        }
    }

    /** Why the last verification did not end OK (for the one-line message), or null. */
    public String outcome() {
        return outcome;
    }

    private static void patch(final ActionCompletionFlyweight kept, final int result) {
        kept.result(result).platformError(ResultCode.platformErrorFor(result));
    }
}
