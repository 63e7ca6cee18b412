package dev.saccade.owner.action;

import java.util.concurrent.CompletableFuture;

/**
 * Progress of one connection's action batch between owner ticks: which action is next, the
 * foreground it started against, and the plan or semantic invoke it waits for. The request
 * stays in the channel's buffer and the completion grows in its response buffer meanwhile.
 * Owner thread only; one per connection, reused.
 */
public final class BatchRun {
    boolean active;
    /** The Hello flags of the connection this run belongs to (§1.4); kept across {@link #reset()}. */
    int helloFlags;
    /** The secure-focus question of the current action was answered "no password field" (D30). */
    boolean secureCleared;
    int index;
    int rows;
    int completed;
    long startProcess;
    long startWindow;
    long startDisplay;
    long startScene;
    long startPermission;
    long waitingPlan;
    /** The batch arrived while no helper was attached and one is expected: it waits for it (D5). */
    boolean waitingHelper;
    /**
     * The buttons held and the lease on them as this batch left them so far (§5.9): read when the
     * batch began, then updated by each of its own actions that succeeded, DRY_RUN included, so a
     * later action is checked against what the earlier ones did.
     */
    int heldButtons;
    long heldLease;
    /** A semantic INVOKE, SET_VALUE or SELECT in flight (allocated only on that path). */
    CompletableFuture<Integer> waitingInvoke;
    /** The current action went to the semantic invoker: its row says so (SEMANTIC, §5.8 rule H). */
    boolean viaSemantic;
    /** {@link FocusGate}'s stage of the current action, its target, deadline, question and last ask. */
    int gate;
    long gateTarget;
    long gateUntilNs;
    long gateAskedNs;
    CompletableFuture<Integer> focusAnswer;
    int gateResult;
    /** The TEXT action's point and window, kept for the plans that follow its questions. */
    int gatePointX;
    int gatePointY;
    long gateWindow;

    /** The connection's accepted Hello flags, set once at Hello: the semantic kinds need SEMANTIC_ACTIONS. */
    public void helloFlags(final int flags) {
        helloFlags = flags;
    }

    public boolean active() {
        return active;
    }

    public void reset() {
        active = false;
        index = 0;
        rows = 0;
        completed = 0;
        waitingPlan = 0;
        waitingHelper = false;
        waitingInvoke = null;
        viaSemantic = false;
        gate = FocusGate.NONE;
        focusAnswer = null;
        heldButtons = 0;
        heldLease = 0;
    }
}
