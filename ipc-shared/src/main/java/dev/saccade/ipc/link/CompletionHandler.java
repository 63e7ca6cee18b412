package dev.saccade.ipc.link;

import dev.saccade.protocol.plan.PlanCompletionFlyweight;

/**
 * Receives completions from {@link OwnerSide#pollCompletions(CompletionHandler, int)}, on the
 * owner thread. The view is valid only during the call.
 */
public interface CompletionHandler {
    /** A completion that passed {@link dev.saccade.protocol.plan.PlanValidator#validateCompletion}. */
    void onCompletion(PlanCompletionFlyweight completion);

    /**
     * A record that is not a valid completion; {@code planId} is 0 when the record is too short
     * to hold one. The helper is misbehaving: treat the plan as EXECUTOR_LOST.
     *
     * @param verdict a {@link dev.saccade.protocol.plan.PlanValidator} verdict, or
     *     {@link OwnerSide#WRONG_RECORD_TYPE}.
     */
    void onInvalidCompletion(long planId, int verdict);
}
