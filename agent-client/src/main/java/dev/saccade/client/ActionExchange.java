package dev.saccade.client;

import dev.saccade.protocol.ActionBatchFlyweight;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.ActionResultFlyweight;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.ResultCode;
import java.io.EOFException;
import java.io.IOException;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * One action batch round trip on a connected client and its outcome: send the batch written at
 * {@code requestOffset()}, take its validated completion and keep a copy, and verify the next
 * generation on the client's side when the service answered <em>pending</em>
 * ({@link BatchVerifier}). {@link #describe()} names the failure in one line for a person or a
 * model.
 *
 * <p>The service closes the connection without a reply for a batch that breaks the wire
 * contract (§4.4 #2, #3, #5); that becomes an {@link EOFException} saying so.
 */
public final class ActionExchange {
    public static final String WIRE_CONTRACT_BROKEN =
        "the service closed the connection: the batch breaks the wire contract (§4.4)";
    /** The largest completion of a well-formed service: 192 + 64 × 48 bytes. */
    public static final int MAX_COMPLETION_BYTES =
        ActionCompletionFlyweight.LENGTH + AgentAbi.MAX_ACTIONS * ActionResultFlyweight.LENGTH;

    private final ActionBatchFlyweight batch = new ActionBatchFlyweight();
    private final ActionCompletionFlyweight completion = new ActionCompletionFlyweight();
    private final ActionResultFlyweight row = new ActionResultFlyweight();
    private final BatchVerifier verifier;
    /** The completion, copied out of the client's buffer, which verification reuses. */
    private BytesStore<?, byte[]> kept = BytesStore.wrap(new byte[MAX_COMPLETION_BYTES]);
    private int length;
    private boolean verified;

    /** With the configured settle window (BatchVerifier's property or environment variable). */
    public ActionExchange() {
        this(new BatchVerifier());
    }

    public ActionExchange(final BatchVerifier verifier) {
        this.verifier = verifier;
    }

    /** The verifier of VERIFY_NEXT_GENERATION batches. */
    public BatchVerifier verifier() {
        return verifier;
    }

    /**
     * Sends the {@code batchLength}-byte batch at the client's {@code requestOffset()} and takes
     * its completion, verified as §5.12 asks when the batch has VERIFY_NEXT_GENERATION.
     *
     * @return the kept completion; valid until the next round trip.
     */
    public ActionCompletionFlyweight roundTrip(final AgentClient client, final int batchLength) throws IOException {
        // Read before sending: verification writes its observes over the request buffer.
        final ActionBatchFlyweight b = batch.wrap(client.requestStore(), client.requestOffset());
        final long requestId = b.requestId();
        final boolean verify = (b.header().flags() & AgentAbi.FLAG_VERIFY_NEXT_GENERATION) != 0;
        final long deadlineNs = b.deadlineNs();
        final long actionCount = b.actionCount();
        client.send(batchLength);
        final AgentClient.Reply reply;
        try {
            reply = client.receive(AgentAbi.ACTION_COMPLETION);
        } catch (final EOFException e) {
            final EOFException broken = new EOFException(WIRE_CONTRACT_BROKEN);
            broken.initCause(e);
            throw broken;
        }
        length = reply.length();
        if (length > kept.capacity()) {
            kept = BytesStore.wrap(new byte[length]); // rows of a wider stride than ours
        }
        kept.write(0, reply.bytes(), reply.offset(), length);
        completion.wrap(kept, 0);
        if (completion.requestId() != requestId) {
            client.close();
            throw new UnexpectedReplyException("the service at " + client.path() + " answered request_id "
                + Long.toUnsignedString(completion.requestId()) + " to batch " + Long.toUnsignedString(requestId));
        }
        verified = verify && BatchVerifier.isPending(completion, actionCount);
        if (verified) {
            verifier.verify(client, requestId, deadlineNs, completion);
        } else if (verify && completion.result() == ResultCode.OK
            && (completion.header().flags() & AgentAbi.FLAG_NEXT_GENERATION_AVAILABLE) != 0) {
            verified = true; // the service had a newer generation at once: let the scene settle after it
            verifier.settle(client, requestId, deadlineNs, completion);
        }
        return completion;
    }

    /** The kept completion: its bytes start at 0. */
    public BytesStore<?, byte[]> kept() {
        return kept;
    }

    /** The kept completion's length in bytes. */
    public int length() {
        return length;
    }

    /**
     * What went wrong, after the result's name: the failed action and a hint, e.g.
     * {@code "; action 0 (CLICK) failed: TARGET_NOT_FOUND (-4)"}; empty for OK.
     */
    public String describe() {
        final int result = completion.result();
        return result == ResultCode.OK ? "" : failure() + hint(result);
    }

    /** The failed action: its row's kind and result, or where the batch stopped without a row. */
    private String failure() {
        final long failed = completion.failedActionIndex();
        if (failed == AgentAbi.NO_FAILED_ACTION) {
            return "";
        }
        final long rows = completion.actionResultCount();
        final long stride = completion.actionResultStride();
        for (long i = 0; i < rows; i++) {
            row.wrap(kept, completion.actionResultsOffset() + i * stride);
            if (row.actionIndex() == failed) {
                return "; action " + failed + " (" + ActionKind.name(row.kind()) + ") failed: " + named(row.result());
            }
        }
        // §5.7.3: the state changed between actions; the batch stops without a row for that action.
        return "; the batch stopped before action " + failed;
    }

    private String hint(final int result) {
        if (verified && verifier.outcome() != null) {
            return ": " + verifier.outcome();
        }
        switch (result) {
            case ResultCode.EXECUTOR_LOST:
                return ": the input helper is not running or its link was lost; nothing was emitted";
            case ResultCode.TIMEOUT:
                return completion.failedActionIndex() == AgentAbi.NO_FAILED_ACTION && completion.actionResultCount() == 0
                    ? ": the batch's deadline had passed when the service read it" : "";
            case ResultCode.STALE_GENERATION:
                return completion.actionResultCount() == 0
                    ? ": a precondition does not hold in the current scene (observe again)" : "";
            default:
                return "";
        }
    }

    public static String named(final int result) {
        return ResultCode.name(result) + " (" + result + ")";
    }
}
