package dev.saccade.owner.action;

import dev.saccade.owner.scene.ScenePacket;
import dev.saccade.owner.scene.SceneStore;
import dev.saccade.owner.scene.WindowScope;
import dev.saccade.protocol.ActionBatchFlyweight;
import dev.saccade.protocol.ActionFlag;
import dev.saccade.protocol.ActionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.ActionResultFlag;
import dev.saccade.protocol.ActionRules;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.PreconditionFlag;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.TargetFlyweight;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Actions of API 0x00010002 that name their window (EXPLICIT_WINDOW, §5.14): each resolves
 * against the window the batch's preconditions name and never against another. An action the
 * application's accessibility interface can do runs there without raising the window; one that
 * needs input at coordinates on a window that is not active answers ACTIVATION_REQUIRED, or, with
 * ALLOW_ACTIVATION, activates the window, waits for a scene published after that in which the same
 * process's window is the active one, and only then goes through every check again against that
 * scene (fresh coordinates, occlusion, the window's identity) before any input is sent.
 *
 * <p>Owner thread only; its progress lives in {@link BatchRun}.
 */
final class WindowGate {
    /** {@link #route}: the action goes the ordinary way (its window is active, or it names none). */
    static final int INPUT = Integer.MIN_VALUE + 2;
    /** {@link #route}: a plan or an invoke is out; the batch parks (the planner's own value). */
    static final int DISPATCHED = Integer.MIN_VALUE + 1;
    /** {@link #step}: still waiting. */
    static final int WAIT = Integer.MIN_VALUE + 3;
    /** {@link #step}: the window is active in a fresh scene: evaluate the action again. */
    static final int READY = Integer.MIN_VALUE + 4;

    static final int NONE = 0;
    private static final int ACTIVATING = 1;
    private static final int AWAIT_SCENE = 2;

    private final SceneStore scenes;
    private final InputExecutor executor;
    private final SemanticInvoker invoker;

    WindowGate(final SceneStore scenes, final InputExecutor executor, final SemanticInvoker invoker) {
        this.scenes = scenes;
        this.executor = executor;
        this.invoker = invoker;
    }

    /**
     * The window a batch of a 0x00010002 connection names for its EXPLICIT_WINDOW actions: the
     * WINDOW precondition's id when one of its actions carries the flag, else 0.
     */
    static long namedWindow(final ActionBatchFlyweight b, final ActionFlyweight a, final boolean minor2) {
        if (!minor2 || (b.preconditions().flags() & PreconditionFlag.WINDOW) == 0) {
            return 0;
        }
        for (long i = 0; i < b.actionCount(); i++) {
            a.wrap(b.bytes(), b.offset() + b.actionsOffset() + i * b.actionStride());
            if ((a.flags() & ActionFlag.EXPLICIT_WINDOW) != 0) {
                return b.preconditions().windowId();
            }
        }
        return 0;
    }

    /**
     * The process owning window {@code windowId} in {@code scene}, or -1 when the scene no
     * longer has the window.
     */
    static long processOf(final ScenePacket scene, final long windowId) {
        final int index = WindowScope.windowIndex(scene, windowId);
        return index < 0 ? -1 : WindowScope.processId(scene, index);
    }

    /**
     * §5.7.3 for a batch that names its window: the window and its process are still those the
     * batch began with (the foreground may change: activation changes it on purpose).
     */
    static int between(final BatchRun run, final ScenePacket scene) {
        final long process = processOf(scene, run.namedWindow);
        if (process < 0) {
            return ResultCode.TARGET_NOT_FOUND;
        }
        return process != run.namedProcess || scene.displayId() != run.startDisplay
            || scene.permissionEpoch() != run.startPermission ? ResultCode.STALE_GENERATION : ResultCode.OK;
    }

    /**
     * Where an action with a window flag goes (rules F and H of §5.14), for {@code scene}: its
     * row result, {@link #DISPATCHED} (an invoke or the activation is out), or {@link #INPUT}.
     */
    int route(final BatchRun run, final ActionFlyweight a, final ScenePacket scene, final boolean dryRun,
        final ActionBatchFlyweight b, final long textAt, final int index) {
        final long deadlineNs = b.deadlineNs();
        final int flags = a.flags();
        if ((flags & ActionFlag.EXPLICIT_WINDOW) == 0) {
            return INPUT; // ALLOW_ACTIVATION alone: the foreground's rules, which never activate
        }
        if (run.namedWindow == 0) {
            return ResultCode.INVALID_MESSAGE; // no WINDOW precondition names the window
        }
        final int between = between(run, scene);
        if (between != ResultCode.OK) {
            return between;
        }
        final int targets = ActionRules.targets(a.kind());
        final int first = targets >= 1 ? inWindow(scene, a.targetId(), run.namedWindow) : 0;
        final int second = targets == 2 ? inWindow(scene, a.secondaryTargetId(), run.namedWindow) : 0;
        if (first < 0 || second < 0 || targets == 0 && a.kind() != ActionKind.WINDOW_ACTIVATE) {
            return ResultCode.TARGET_NOT_FOUND; // a target of another window, or none: never resolved elsewhere
        }
        if (scene.windowId() == run.namedWindow) {
            return INPUT; // in front already: every ordinary check applies
        }
        if (targets == 1 && backgroundAction(a) && invoker != null && invoker.handles(a.targetId())) {
            final BytesStore<?, ?> sb = scene.bytes();
            final long at = scene.recordAt(first);
            final int usable = ActionChecks.target(WindowScope.behindFlags(sb.readInt(at + TargetFlyweight.FLAGS_OFFSET)),
                sb.readInt(at + TargetFlyweight.CAPABILITY_BITS_OFFSET), ActionChecks.firstTargetCapability(a));
            if (usable != ResultCode.OK) {
                return usable;
            }
            run.rowFlags |= ActionResultFlag.BACKGROUND_ACCESSIBILITY;
            if (dryRun) {
                return ResultCode.OK;
            }
            run.viaSemantic = true;
            run.waitingInvoke = ActionKind.semantic(a.kind())
                ? SemanticPayload.dispatch(invoker, ActionChecks.valueNumber(a), a, b.bytes(), textAt, deadlineNs)
                : invoker.invoke(a.targetId(), deadlineNs);
            return DISPATCHED;
        }
        if ((flags & ActionFlag.ALLOW_ACTIVATION) == 0) {
            return ResultCode.ACTIVATION_REQUIRED; // nothing activated, nothing sent
        }
        if (dryRun) {
            run.rowFlags |= ActionResultFlag.WOULD_ACTIVATE;
            return ResultCode.OK;
        }
        if (run.heldButtons != 0) {
            return ResultCode.STALE_GENERATION; // held input stays where it was pressed
        }
        final PlanWriter plan = executor.beginPlan(deadlineNs, scene.sceneEpoch(), scene.permissionEpoch(), 0);
        if (plan == null) {
            return ResultCode.EXECUTOR_LOST;
        }
        plan.windowActivate(run.namedWindow);
        plan.actionEnd(index);
        // a scene published from now on with the window in front shows the activation (D42)
        run.windowEpoch = scene.sceneEpoch();
        final long id = executor.submit();
        if (id == 0) {
            return ResultCode.EXECUTOR_LOST;
        }
        run.windowPlan = id;
        run.windowStage = ACTIVATING;
        return DISPATCHED;
    }

    /**
     * The activation's progress: its plan, then a scene published after it in which the named
     * window of the same process is active. @return {@link #WAIT}, {@link #READY} or the row's result.
     */
    int step(final BatchRun run, final long nowNs, final long deadlineNs) {
        if (run.windowStage == ACTIVATING) {
            final int code = executor.poll(run.windowPlan);
            if (code == InputExecutor.PENDING && executor.available()) {
                return WAIT;
            }
            run.windowPlan = 0;
            if (code != ResultCode.PLATFORM_OK) {
                run.windowStage = NONE;
                return code == InputExecutor.PENDING || code == InputExecutor.LOST
                    ? ResultCode.EXECUTOR_LOST : ResultCode.fromPlatform(code);
            }
            run.windowStage = AWAIT_SCENE;
            run.rowFlags |= ActionResultFlag.WINDOW_ACTIVATED;
        }
        scenes.adoptPending();
        final ScenePacket scene = scenes.current();
        if (between(run, scene) != ResultCode.OK) {
            run.windowStage = NONE;
            return ResultCode.OUTCOME_UNCONFIRMED; // closed, or another process behind the id: no input (D42)
        }
        if (Long.compareUnsigned(scene.sceneEpoch(), run.windowEpoch) > 0 && scene.windowId() == run.namedWindow
            && scene.processId() == run.namedProcess) {
            run.windowStage = NONE;
            return READY;
        }
        if (nowNs - deadlineNs >= 0) {
            run.windowStage = NONE;
            return ResultCode.OUTCOME_UNCONFIRMED; // asked to come to the front, not seen there: no input (D42)
        }
        return WAIT;
    }

    /** The record index of {@code targetId} when it lies in window {@code windowId}, else -1. */
    private static int inWindow(final ScenePacket scene, final long targetId, final long windowId) {
        final int index = scene.indexOf(targetId);
        return index >= 0 && scene.bytes().readLong(scene.recordAt(index) + TargetFlyweight.WINDOW_ID_OFFSET) == windowId
            ? index : -1;
    }

    /**
     * An action the application's accessibility interface does as well: INVOKE, one plain left
     * click at the target's own safe point (the object's default action), SET_VALUE and SELECT.
     */
    private static boolean backgroundAction(final ActionFlyweight a) {
        final int kind = a.kind();
        return kind == ActionKind.INVOKE || ActionKind.semantic(kind)
            || (kind == ActionKind.CLICK && a.buttonBits() == Button.LEFT && a.repeatCount() <= 1
                && a.modifiers() == 0 && (a.flags() & ActionFlag.EXPLICIT_POINTS) == 0);
    }

    /** §5.7.3 before action i ≥ 1: the newest scene, adopted now (we are the owner thread). */
    int foregroundChange(final BatchRun run) {
        scenes.adoptPending();
        final ScenePacket scene = scenes.current();
        if (scene == null || !scene.coherent()) {
            return ResultCode.STALE_GENERATION;
        }
        if (run.namedWindow != 0) {
            return WindowGate.between(run, scene); // §5.14: the named window's identity, not the foreground's
        }
        if (scene.processId() != run.startProcess || scene.windowId() != run.startWindow) {
            return ResultCode.FOCUS_CHANGED; // D6
        }
        if (scene.sceneEpoch() != run.startScene || scene.displayId() != run.startDisplay
            || scene.permissionEpoch() != run.startPermission) {
            return ResultCode.STALE_GENERATION;
        }
        return ResultCode.OK;
    }
}
