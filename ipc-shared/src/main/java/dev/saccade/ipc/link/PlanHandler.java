package dev.saccade.ipc.link;

import dev.saccade.protocol.plan.ActionPlanFlyweight;

/**
 * Receives plans from {@link HelperSide#pollPlans(PlanHandler, int)}, on the helper's polling
 * thread. The views are valid only during the call: the ring frees the bytes afterwards, so a
 * helper that executes a plan over several cycles copies it first.
 */
public interface PlanHandler {
    /** A plan that passed {@link dev.saccade.protocol.plan.PlanValidator}, viewed in place. */
    void onPlan(ActionPlanFlyweight plan);

    /**
     * A record that is not a valid plan: answer it with an INVALID_MESSAGE completion for
     * {@code planId} (0 when the record is too short to hold one).
     *
     * @param verdict a {@link dev.saccade.protocol.plan.PlanValidator} verdict, or
     *     {@link HelperSide#WRONG_RECORD_TYPE}.
     */
    void onInvalidPlan(long planId, int verdict);
}
