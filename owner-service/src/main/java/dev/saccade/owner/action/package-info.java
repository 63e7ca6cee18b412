/**
 * Action batches (spec §5.7–§5.12): the {@link dev.saccade.owner.action.ActionPlanner} checks
 * each action against the scene and physical state the agent planned against and turns it into
 * input commands for the input helper, through an {@link dev.saccade.owner.action.InputExecutor}
 * (the owner's side of the helper link), or hands a semantic action (INVOKE, SET_VALUE, SELECT) to
 * the {@link dev.saccade.owner.action.SemanticInvoker}; {@link dev.saccade.owner.action.ActionChecks}
 * holds the rules that need nothing but the action. Input is produced nowhere else.
 */
package dev.saccade.owner.action;
