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
 *
 * <p><b>Settling.</b> The first newer generation often comes before the application has finished
 * reacting (a window retitled, a dialog mapped a moment later): acting on it at once would be
 * stale. So once the kept completion has a next generation (patched here, or given by the
 * service), {@link #settle} goes on observing AFTER_GENERATION after the newest generation seen,
 * waiting at most the settle window ({@value ClientConfiguration#VERIFY_SETTLE_MS_PROP_NAME},
 * default {@value #SETTLE_DEFAULT_MS} ms) and never past the deadline, until a read answers TIMEOUT: the scene stayed quiet for the
 * window. next_generation is then the newest generation seen. A lost link while settling patches
 * CANCELLED as above.
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
    private final long settleNs;
    /** Whether the newest generation seen said SOURCE_INCOMPLETE (an application still being read). */
    private boolean newestIncomplete;
    /**
     * How much longer than one quiet settle window settling may go on while the newest generation
     * is SOURCE_INCOMPLETE: a window whose tree is still being read has not settled (agent-abi
     * §5.12 "Settling"); bounded, since an application that never answers keeps it incomplete.
     */
    static final long INCOMPLETE_EXTRA_NS = 1_000_000_000L;
    /** Generations seen after the first newer one, by the last {@link #settle} (for measurements). */
    private int settledSteps;

    private static final String SETTLE_PROPERTY = ClientConfiguration.VERIFY_SETTLE_MS_PROP_NAME;
    /** The settle window's default, in ms (see {@link ClientConfiguration}). */
    public static final long SETTLE_DEFAULT_MS = ClientConfiguration.VERIFY_SETTLE_MS_DEFAULT;

    /**
     * With the settle window of {@value ClientConfiguration#VERIFY_SETTLE_MS_PROP_NAME} or
     * {@value ClientConfiguration#VERIFY_SETTLE_MS_ENV}, else the default.
     */
    public BatchVerifier() {
        this(TimeUnit.MILLISECONDS.toNanos(configuredSettleMs()));
    }

    /** With a settle window of {@code settleNs} (0: the first newer generation, unsettled). */
    public BatchVerifier(final long settleNs) {
        if (settleNs < 0) {
            throw new IllegalArgumentException("settle window " + settleNs + " ns");
        }
        this.settleNs = settleNs;
    }

    /** The configured settle window in ms; a value that is not one (said on standard error) gives the default. */
    static long configuredSettleMs() {
        final String value = ClientConfiguration.verifySettleMs();
        if (value == null || value.isBlank()) {
            return SETTLE_DEFAULT_MS;
        }
        try {
            final long ms = Long.parseLong(value.trim());
            if (ms >= 0 && ms <= MAX_WAIT_MS) {
                return ms;
            }
        } catch (final NumberFormatException e) {
            // fall through: say what is wrong, and keep the default
        }
        System.err.println("saccade: " + SETTLE_PROPERTY + " must be 0.." + MAX_WAIT_MS + " ms, not '" + value
            + "'; using " + SETTLE_DEFAULT_MS);
        return SETTLE_DEFAULT_MS;
    }

    public long settleNs() {
        return settleNs;
    }

    /** How many further generations the last {@link #settle} saw after the first newer one. */
    public int settledSteps() {
        return settledSteps;
    }

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
        settledSteps = 0;
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
                next(kept, answer);
                settle(client, requestId, deadlineNs, kept,
                    (answer.header().flags() & AgentAbi.FLAG_SOURCE_INCOMPLETE) != 0);
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

    /**
     * Waits for the scene to settle after the next generation {@code kept} carries (OK with
     * NEXT_GENERATION_AVAILABLE): observes after the newest generation seen for at most the settle
     * window each time, until a quiet window, an error read (the newest generation stays) or the
     * deadline; a lost link patches CANCELLED.
     */
    public void settle(final AgentClient client, final long requestId, final long deadlineNs,
        final ActionCompletionFlyweight kept) {
        settle(client, requestId, deadlineNs, kept, false); // the service's next generation: its flags are not known
    }

    /**
     * As {@link #settle(AgentClient, long, long, ActionCompletionFlyweight)}; {@code incomplete}: the
     * next generation said SOURCE_INCOMPLETE. While the newest generation seen does, a quiet window
     * does not end settling, for up to {@link #INCOMPLETE_EXTRA_NS} more: the application's tree
     * is still being read, and its next read publishes the generation the agent should act on.
     */
    private void settle(final AgentClient client, final long requestId, final long deadlineNs,
        final ActionCompletionFlyweight kept, final boolean incomplete) {
        settledSteps = 0;
        newestIncomplete = incomplete;
        final long incompleteUntilNs = System.nanoTime() + settleNs + INCOMPLETE_EXTRA_NS;
        while (settleNs != 0) {
            final long remainingNs = remainingNs(deadlineNs, System.nanoTime());
            if (remainingNs == 0) {
                return; // still moving at the deadline: the newest generation seen
            }
            final long newest = kept.nextGeneration().generation();
            final CompletionFlyweight answer;
            try {
                final int length = observe.requestId(requestId)
                    .freshness(new ReadFreshness(FreshnessPolicy.AFTER_GENERATION, newest, Math.min(remainingNs, settleNs)))
                    .writeTo(client.requestStore(), client.requestOffset());
                answer = read.roundTrip(client, length, requestId, AgentAbi.OBSERVE_COMPLETION);
            } catch (final IOException e) {
                patch(kept, ResultCode.CANCELLED);
                kept.header().flags(kept.header().flags() & ~AgentAbi.FLAG_NEXT_GENERATION_AVAILABLE);
                outcome = "the actions ran and are not sent again, but the connection was lost while the scene"
                    + " settled: " + e.getMessage();
                return;
            }
            if (answer.result() != ResultCode.OK) {
                if (answer.result() == ResultCode.TIMEOUT && newestIncomplete && System.nanoTime() - incompleteUntilNs < 0) {
                    continue; // quiet, but still being read: wait for the read to finish
                }
                return; // TIMEOUT: quiet for the settle window; another error: keep the newest generation
            }
            newestIncomplete = (answer.header().flags() & AgentAbi.FLAG_SOURCE_INCOMPLETE) != 0;
            next(kept, answer);
            settledSteps++;
        }
    }

    private static void next(final ActionCompletionFlyweight kept, final CompletionFlyweight answer) {
        kept.bytes().write(kept.offset() + ActionCompletionFlyweight.NEXT_GENERATION_OFFSET,
            answer.bytes(), answer.offset() + CompletionFlyweight.GENERATION_OFFSET, GenerationFlyweight.LENGTH);
    }

    /** Why the last verification did not end OK (for the one-line message), or null. */
    public String outcome() {
        return outcome;
    }

    private static void patch(final ActionCompletionFlyweight kept, final int result) {
        kept.result(result).platformError(ResultCode.platformErrorFor(result));
    }
}
