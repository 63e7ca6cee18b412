package dev.saccade.owner.action;

import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.HelloFlag;
import dev.saccade.protocol.ResultCode;
import java.util.concurrent.CompletableFuture;

/**
 * Text goes only where it was aimed (D21, agent-abi §5.10): keyboard input waits until the
 * accessible target it is meant for has the keyboard focus, asked of the application itself
 * ({@link SemanticInvoker#focusState}), since a focus click reaches the X server at once but the
 * window manager and the toolkit move the focus after it, asynchronously (measured: three TEXT
 * actions on a three-field form all typed into the first field). The stages of one action live in
 * its {@link BatchRun}; this class decides, {@link ActionPlanner} writes the plans.
 *
 * <ul>
 *   <li>TEXT on an accessible target: asks first; a target that has the focus already gets no
 *       focus click (a second click within the double-click time would select a word and lose a
 *       selection the agent made); otherwise the click goes out alone, and the text only once the
 *       target reports FOCUSED. Focus that never arrives (within {@link #FOCUS_WAIT_NS} and the
 *       batch deadline) is FOCUS_CHANGED, a target its application no longer has is
 *       TARGET_NOT_FOUND, nothing typed in either case. A target that is not FOCUSABLE (a text
 *       document's body, whose paragraph takes the focus) gets the click and the text in one plan.</li>
 *   <li>KEY, KEY_CHORD and TEXT first ask whether a password field has the focus (D30); one
 *       that has it makes the action SECURE_SURFACE before any event, unless the connection holds
 *       SECURE_INPUT.</li>
 *   <li>KEY and KEY_CHORD after a click on an editable accessible target (one that takes TEXT,
 *       within {@link #KEY_GUARD_NS}) wait for that target's focus the same way; a target that
 *       cannot take the focus, or is gone, lets them through, and so does a window activation or
 *       cycle in between (the focus went where that put it).</li>
 * </ul>
 *
 * <p>Owner thread only; allocates only the futures of its questions.
 */
final class FocusGate {
    /** No gate stage: the run waits for a plan or an invoke, or for nothing. */
    static final int NONE = 0;
    /** TEXT: asked whether the target has the focus before clicking. */
    static final int TEXT_PROBE = 1;
    /** TEXT: the focus click is out; its plan's completion is awaited. */
    static final int TEXT_CLICKED = 2;
    /** TEXT: the click is done; asking until the target has the focus. */
    static final int TEXT_AWAIT = 3;
    /** KEY, KEY_CHORD: asking until the last clicked target has the focus. */
    static final int KEY_AWAIT = 4;
    /** KEY, KEY_CHORD, TEXT: asked whether a password field has the focus (D30). */
    static final int SECURE_PROBE = 5;

    /** What {@link #step} asks the planner to do. */
    static final int WAIT = 0;
    static final int SEND_CLICK = 1;
    static final int SEND_TEXT = 2;
    static final int SEND_CLICK_AND_TEXT = 3;
    static final int SEND_KEY = 4;
    static final int FAIL = 5;
    /** The secure-focus question passed: evaluate the action again, past that question. */
    static final int RESUME = 6;

    /** See {@link ActionConfiguration#FOCUS_WAIT_MS_DEFAULT}. */
    static final long FOCUS_WAIT_NS = ActionConfiguration.focusWaitMs() * 1_000_000L;
    /** How long after a click on a focusable target a key still checks that target's focus. */
    static final long KEY_GUARD_NS = 1_000_000_000L;
    /** Between two questions to the application while waiting: one round trip is about 0.3 ms. */
    private static final long ASK_INTERVAL_NS = 2_000_000L;

    private final SemanticInvoker invoker;
    /** The accessible target clicked last whose focus no TEXT or key has seen arrive, 0 if none. */
    private long clickedTarget;
    private long clickedAtNs;

    FocusGate(final SemanticInvoker invoker) {
        this.invoker = invoker;
    }

    /**
     * Whether keyboard input must first learn that no password field has the focus (D30): every
     * KEY, KEY_CHORD and TEXT of a connection without SECURE_INPUT. If so, asks.
     */
    boolean beginSecure(final BatchRun run, final int kind, final long nowNs, final long deadlineNs) {
        if (kind != ActionKind.TEXT && kind != ActionKind.KEY && kind != ActionKind.KEY_CHORD || invoker == null
            || (run.helloFlags & HelloFlag.SECURE_INPUT) != 0) {
            return false;
        }
        run.gate = SECURE_PROBE;
        run.gateUntilNs = deadlineNs;
        run.gateAskedNs = nowNs;
        run.focusAnswer = invoker.secureFocus(deadlineNs);
        return true;
    }

    /** Whether TEXT on {@code targetId} goes through the gate (an accessible target). */
    boolean guardsText(final long targetId) {
        return invoker != null && invoker.handles(targetId);
    }

    /** Starts TEXT's first question; the planner returns DISPATCHED. */
    void beginText(final BatchRun run, final long targetId, final long nowNs, final long deadlineNs) {
        run.gate = TEXT_PROBE;
        run.gateTarget = targetId;
        ask(run, nowNs, deadlineNs);
    }

    /** Whether a KEY or KEY_CHORD must first see the last clicked target focused; if so, asks. */
    boolean beginKey(final BatchRun run, final long nowNs, final long deadlineNs) {
        if (clickedTarget == 0 || nowNs - clickedAtNs > KEY_GUARD_NS) {
            clickedTarget = 0;
            return false;
        }
        run.gate = KEY_AWAIT;
        run.gateTarget = clickedTarget;
        run.gateUntilNs = Math.min(clickedAtNs + FOCUS_WAIT_NS, deadlineNs);
        ask(run, nowNs, deadlineNs);
        return true;
    }

    /** A pointer press on editable {@code targetId} went out (0: something else moved the focus). */
    void clicked(final long targetId, final long nowNs) {
        if (invoker != null && invoker.handles(targetId)) {
            clickedTarget = targetId;
            clickedAtNs = nowNs;
        } else {
            clickedTarget = 0;
        }
    }

    /** The focus click's plan completed OK: wait for the focus from now. */
    void clickDone(final BatchRun run, final long nowNs, final long deadlineNs) {
        clicked(run.gateTarget, nowNs);
        run.gate = TEXT_AWAIT;
        run.gateUntilNs = Math.min(nowNs + FOCUS_WAIT_NS, deadlineNs);
        ask(run, nowNs, deadlineNs);
    }

    /**
     * One look at the run's question. @return {@link #WAIT} (ask again later, or the answer is not
     * in), a SEND_* the planner carries out, or {@link #FAIL} with the row result in
     * {@code run.gateResult}. Clears the stage on everything but WAIT.
     */
    int step(final BatchRun run, final long nowNs, final long deadlineNs) {
        final CompletableFuture<Integer> answer = run.focusAnswer;
        if (answer == null || !answer.isDone()) {
            if (expired(run, nowNs, deadlineNs)) {
                return fail(run, nowNs, deadlineNs);
            }
            if (answer == null && nowNs - run.gateAskedNs >= ASK_INTERVAL_NS) {
                ask(run, nowNs, deadlineNs); // asked a moment ago, and not focused then
            }
            return WAIT;
        }
        final int state = answer.getNow(ResultCode.PLATFORM_BACKEND);
        run.focusAnswer = null;
        if (run.gate == SECURE_PROBE) {
            run.gate = NONE;
            if (state > 0 && (state & SemanticInvoker.SECURE_FOCUSED) != 0) {
                run.gateResult = ResultCode.SECURE_SURFACE; // D30: not one key into a password field
                return FAIL;
            }
            run.secureCleared = true;
            return RESUME;
        }
        final boolean focused = state >= 0 && (state & SemanticInvoker.FOCUSED) != 0;
        if (state == ResultCode.PLATFORM_NOT_FOUND && run.gate != KEY_AWAIT) {
            // the object is gone from its application (the scene is older than that): type nowhere
            run.gate = NONE;
            run.gateResult = ResultCode.TARGET_NOT_FOUND;
            return FAIL;
        }
        switch (run.gate) {
            case TEXT_PROBE:
                run.gate = NONE;
                if (focused) {
                    clickedTarget = 0;
                    return SEND_TEXT; // no focus click: it could only undo what the agent did there
                }
                if (state < 0 || (state & SemanticInvoker.FOCUSABLE) == 0) {
                    // the application cannot say (no bus, a timeout), or the target never holds the focus
                    // itself (Writer's document body: its paragraph takes it): as without a gate
                    return SEND_CLICK_AND_TEXT;
                }
                run.gate = TEXT_CLICKED;
                return SEND_CLICK;
            case TEXT_AWAIT:
            case KEY_AWAIT:
                if (focused || run.gate == KEY_AWAIT && (state < 0 || (state & SemanticInvoker.FOCUSABLE) == 0)) {
                    final int send = run.gate == KEY_AWAIT ? SEND_KEY : SEND_TEXT;
                    run.gate = NONE;
                    clickedTarget = 0;
                    return send;
                }
                if (expired(run, nowNs, deadlineNs)) {
                    return fail(run, nowNs, deadlineNs);
                }
                if (nowNs - run.gateAskedNs >= ASK_INTERVAL_NS) {
                    ask(run, nowNs, deadlineNs);
                }
                return WAIT;
            default:
                run.gate = NONE;
                return WAIT;
        }
    }

    private void ask(final BatchRun run, final long nowNs, final long deadlineNs) {
        run.gateAskedNs = nowNs;
        run.focusAnswer = invoker.focusState(run.gateTarget, deadlineNs);
    }

    private static boolean expired(final BatchRun run, final long nowNs, final long deadlineNs) {
        return run.gate != TEXT_PROBE && nowNs - run.gateUntilNs >= 0 || nowNs - deadlineNs >= 0;
    }

    private int fail(final BatchRun run, final long nowNs, final long deadlineNs) {
        run.gateResult = nowNs - deadlineNs >= 0 ? ResultCode.TIMEOUT : ResultCode.FOCUS_CHANGED;
        run.gate = NONE;
        run.focusAnswer = null;
        clickedTarget = 0;
        return FAIL;
    }
}
