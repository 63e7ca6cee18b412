package dev.saccade.owner.action;

import java.util.concurrent.CompletableFuture;

/** Runs an accessible target's default action off the owner thread (AT-SPI on Linux). */
public interface SemanticInvoker {
    /** Whether {@code targetId} is an object this invoker can act on. */
    boolean handles(long targetId);

    /** Completes with a platform code of {@code ResultCode}. */
    CompletableFuture<Integer> invoke(long targetId, long deadlineNs);
}
