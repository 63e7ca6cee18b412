package dev.saccade.owner.action;

import dev.saccade.protocol.ResultCode;
import java.util.concurrent.CompletableFuture;

/**
 * Runs an accessible target's default action off the owner thread (AT-SPI on Linux), and asks
 * an accessible target whether it has the keyboard focus now (the focus gate of TEXT and keys).
 */
public interface SemanticInvoker {
    /** {@link #focusState}: the target can take the keyboard focus. */
    int FOCUSABLE = 1;
    /** {@link #focusState}: the target has the keyboard focus. */
    int FOCUSED = 2;

    /** Whether {@code targetId} is an object this invoker can act on. */
    boolean handles(long targetId);

    /** Completes with a platform code of {@code ResultCode}. */
    CompletableFuture<Integer> invoke(long targetId, long deadlineNs);

    /**
     * Completes with {@link #FOCUSABLE} and {@link #FOCUSED} bits read from the application now,
     * or a negative platform code (PLATFORM_UNSUPPORTED where focus cannot be asked).
     */
    default CompletableFuture<Integer> focusState(final long targetId, final long deadlineNs) {
        return CompletableFuture.completedFuture(ResultCode.PLATFORM_UNSUPPORTED);
    }
}
