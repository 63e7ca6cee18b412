package dev.saccade.owner.action;

import dev.saccade.protocol.ActionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.ResultCode;
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
    /** The connection speaks API 0x00010002 (§5.14); kept across {@link #reset()}. */
    boolean minor2;
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

    /** The window an EXPLICIT_WINDOW batch names (its WINDOW precondition, §5.14), and its process; 0 for none. */
    long namedWindow;
    long namedProcess;
    /** {@link WindowGate}'s stage, its activation plan and the scene epoch the activation finished in. */
    int windowStage;
    long windowPlan;
    long windowEpoch;
    /** {@link AimGate}'s stage, when its move finished, its question, and the target's box it answered (Q8). */
    int aim;
    long aimMovedNs;
    CompletableFuture<int[]> aimAnswer;
    int aimX;
    int aimY;
    int aimWidth;
    int aimHeight;
    /** The row flags of API 0x00010002 the current action earned (background, would activate, activated). */
    int rowFlags;

    /**
     * What action {@code a}'s outcome did to the held buttons and the lease: a HOLD that
     * succeeded holds its button under this connection's lease, a RELEASE lets its button go,
     * ABORT and every failure that releases held input (§5.9: TIMEOUT, BACKEND, EXECUTOR_LOST)
     * leave nothing.
     */
    void afterAction(final ActionFlyweight a, final int result, final long leaseId) {
        aim = AimGate.NONE; // an aim is for its own action only
        if (result == ResultCode.OK) {
            if (a.kind() == ActionKind.HOLD) {
                heldButtons |= a.buttonBits();
                heldLease = leaseId;
            } else if (a.kind() == ActionKind.RELEASE) {
                heldButtons &= ~a.buttonBits();
            } else if (a.kind() == ActionKind.ABORT) {
                heldButtons = 0;
            }
        } else if (result == ResultCode.TIMEOUT || result == ResultCode.BACKEND || result == ResultCode.EXECUTOR_LOST
            || result == ResultCode.CANCELLED) {
            heldButtons = 0;
        }
        if (heldButtons == 0) {
            heldLease = 0; // keys and modifiers are never held between actions (§5.11)
        }
    }

    /** The connection's API version, set once at Hello. */
    public void apiVersion(final int version) {
        minor2 = version == AgentAbi.API_VERSION_1_2;
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
        namedWindow = 0;
        namedProcess = 0;
        windowStage = WindowGate.NONE;
        windowPlan = 0;
        rowFlags = 0;
        aim = AimGate.NONE;
        aimAnswer = null;
    }
}
