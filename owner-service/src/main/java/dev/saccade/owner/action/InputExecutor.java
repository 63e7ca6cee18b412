package dev.saccade.owner.action;

import net.openhft.chronicle.bytes.BytesStore;

/**
 * The owner's side of the input helper link: physical state, plan submission and completion,
 * release. Called on the owner thread only; no method blocks.
 */
public interface InputExecutor {
    /** {@link #poll(long)}: the plan has not completed yet. */
    int PENDING = Integer.MIN_VALUE;
    /** {@link #poll(long)}: the plan went to a helper that is gone; it will never complete (D5). */
    int LOST = Integer.MIN_VALUE + 1;

    /**
     * The owner thread's pulse, every tick: lets the helper tell a stopped or hung owner (whose
     * lifeline is still open) from a quiet one. Must be cheap; no allocation.
     */
    default void heartbeat(final long nowNs) {
    }

    /** A helper is linked and alive. Without one, batches answer EXECUTOR_LOST (D5). */
    boolean available();

    /**
     * No helper is available now but one is on its way (starting, or replacing one that was
     * lost): a batch that arrives meanwhile waits for it within its deadline (D5, agent-abi §5.9).
     * False when none will come (no helper at all, a deliberate stop, too many restarts).
     */
    default boolean expected() {
        return false;
    }

    /**
     * Copies the physical state (48 bytes, the ABI's PhysicalState layout) to {@code at}.
     *
     * @return false when it cannot be read.
     */
    boolean physicalState(BytesStore<?, ?> out, long at);

    /**
     * Starts a plan. {@code leaseId} names the connection that owns input left held by it (a
     * HOLD), else 0.
     *
     * @return the writer for its commands, or null when the link cannot take a plan now.
     */
    PlanWriter beginPlan(long deadlineNs, long validatedGeneration, long permissionEpoch, long leaseId);

    /** Sends the plan begun. @return its id (positive), or 0 if the link refused it. */
    long submit();

    /** {@link #PENDING}, or the plan's platform code ({@code ResultCode.PLATFORM_*}). */
    int poll(long planId);

    /**
     * Releases every synthetic key and button now, and the lease (ABORT, a lease owner's
     * disconnect). @return a platform code.
     */
    int releaseAll();
}
