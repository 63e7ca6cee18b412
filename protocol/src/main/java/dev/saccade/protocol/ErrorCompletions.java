package dev.saccade.protocol;

import net.openhft.chronicle.bytes.BytesStore;

/**
 * Writes the fixed-size completions whose content the spec fixes entirely: Hello completions
 * (§1.4) and typed error completions (§4.5). Reuses its flyweights: one instance per writer
 * thread, nothing allocated per call.
 */
public final class ErrorCompletions {
    private final HelloCompletionFlyweight hello = new HelloCompletionFlyweight();
    private final CompletionFlyweight read = new CompletionFlyweight();
    private final ActionCompletionFlyweight action = new ActionCompletionFlyweight();

    /**
     * Hello completion, 56 bytes. {@code granted} and the nonce words are written as given:
     * callers pass 0 for failures.
     *
     * @return bytes written.
     */
    public int writeHello(
        final BytesStore<?, ?> out, final long at, final long requestId, final int result,
        final int granted, final long nonce0, final long nonce1) {
        return writeHello(out, at, requestId, result, granted, 0, nonce0, nonce1);
    }

    /** As above, with the {@link HelloFlag} bits the service accepted (§1.4). */
    public int writeHello(
        final BytesStore<?, ?> out, final long at, final long requestId, final int result,
        final int granted, final int acceptedFlags, final long nonce0, final long nonce1) {
        hello.wrap(out, at).clear();
        hello.header().set(HelloCompletionFlyweight.LENGTH, AgentAbi.HELLO_COMPLETION, 0);
        hello.requestId(requestId)
            .result(result)
            .platformError(ResultCode.platformErrorFor(result))
            .grantedCapabilityBits(granted)
            .acceptedFlags(acceptedFlags)
            .serviceNonce(0, nonce0)
            .serviceNonce(1, nonce1);
        return HelloCompletionFlyweight.LENGTH;
    }

    /**
     * Observe or query error completion, 168 bytes: request_id echoed, result and its
     * platform_error, granted = available, the request's scope unresolved, all else 0.
     *
     * @param completionKind {@link AgentAbi#OBSERVE_COMPLETION} or {@link AgentAbi#QUERY_COMPLETION}.
     * @param scopeSource store holding the request's 32-byte scope at {@code scopeAt}.
     * @return bytes written.
     */
    public int writeReadError(
        final BytesStore<?, ?> out, final long at, final int completionKind, final long requestId,
        final int result, final int available, final BytesStore<?, ?> scopeSource, final long scopeAt) {
        read.wrap(out, at).clear();
        read.header().set(CompletionFlyweight.LENGTH, completionKind, 0);
        read.requestId(requestId)
            .result(result)
            .platformError(ResultCode.platformErrorFor(result))
            .grantedCapabilityBits(available)
            .totalSize(CompletionFlyweight.LENGTH);
        out.write(at + CompletionFlyweight.SCOPE_OFFSET, scopeSource, scopeAt, ScopeFlyweight.LENGTH);
        return CompletionFlyweight.LENGTH;
    }

    /**
     * Action error completion, 192 bytes: request_id echoed, result and its platform_error,
     * failed_action_index 0xFFFFFFFF, total_size 192, no rows, zero physical state.
     *
     * @return bytes written.
     */
    public int writeActionError(
        final BytesStore<?, ?> out, final long at, final long requestId, final int result) {
        action.wrap(out, at).clear();
        action.header().set(ActionCompletionFlyweight.LENGTH, AgentAbi.ACTION_COMPLETION, 0);
        action.requestId(requestId)
            .result(result)
            .platformError(ResultCode.platformErrorFor(result))
            .failedActionIndex(AgentAbi.NO_FAILED_ACTION)
            .totalSize(ActionCompletionFlyweight.LENGTH);
        return ActionCompletionFlyweight.LENGTH;
    }

    /**
     * The typed error completion for a request frame whose verdict was a result code (§4.5).
     * The frame passed the header and struct-size checks, so its request_id and scope are
     * inside it.
     *
     * @return bytes written.
     */
    public int writeForRequest(
        final BytesStore<?, ?> out, final long at, final BytesStore<?, ?> frame, final long frameAt,
        final int result, final int available) {
        final int kind = frame.readInt(frameAt + HeaderFlyweight.MESSAGE_KIND_OFFSET);
        switch (kind) {
            case AgentAbi.OBSERVE_REQUEST:
                return writeReadError(out, at, AgentAbi.OBSERVE_COMPLETION,
                    frame.readLong(frameAt + ObserveRequestFlyweight.REQUEST_ID_OFFSET), result, available,
                    frame, frameAt + ObserveRequestFlyweight.SCOPE_OFFSET);
            case AgentAbi.QUERY_REQUEST:
                return writeReadError(out, at, AgentAbi.QUERY_COMPLETION,
                    frame.readLong(frameAt + QueryRequestFlyweight.REQUEST_ID_OFFSET), result, available,
                    frame, frameAt + QueryRequestFlyweight.SCOPE_OFFSET);
            case AgentAbi.ACTION_BATCH:
                return writeActionError(out, at,
                    frame.readLong(frameAt + ActionBatchFlyweight.REQUEST_ID_OFFSET), result);
            default:
                throw new IllegalArgumentException("not a request kind: " + kind);
        }
    }
}
