package dev.saccade.owner.pcp;

import java.util.concurrent.CompletableFuture;

/**
 * The owner's AT-SPI default action on an accessible target: the same call the agent protocol's
 * INVOKE makes for such a target. Completes with a platform code of
 * {@link dev.saccade.protocol.ResultCode} (PLATFORM_OK, PLATFORM_NOT_FOUND,
 * PLATFORM_UNSUPPORTED, ...).
 */
@FunctionalInterface
public interface AccessibleAction {
    CompletableFuture<Integer> invoke(long targetId, long deadlineNs);
}
