package dev.saccade.owner.action;

import dev.saccade.owner.scene.ScenePacket;
import dev.saccade.owner.scene.SceneStore;
import dev.saccade.protocol.ActionBatchFlyweight;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionFlag;
import dev.saccade.protocol.ActionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.ActionResultFlag;
import dev.saccade.protocol.ActionResultFlyweight;
import dev.saccade.protocol.ActionRules;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.ErrorCompletions;
import dev.saccade.protocol.HelloFlag;
import dev.saccade.protocol.PhysicalStateFlyweight;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlyweight;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Action batches (spec §5.7–§5.12): checks a validated batch against the current scene and the
 * helper's physical state, then runs it one action at a time: rules A–G of §5.8 in order, then
 * the action's input as one plan for the input helper; the channel parks until the helper
 * completes it, and the snapshot is read again before the next action (FOCUS_CHANGED or
 * STALE_GENERATION stop the batch). DRY_RUN runs every check and emits nothing. This class is
 * the only producer of input commands.
 *
 * <p>Owner thread only; no allocation except for a semantic INVOKE's future.
 */
public final class ActionPlanner {
    /** {@link #begin}/{@link #resume}: the batch waits for the helper; call resume on a later tick. */
    public static final int PARKED = -2;
    private static final int DISPATCHED = Integer.MIN_VALUE + 1;

    private final SceneStore scenes;
    private final InputExecutor executor;
    private final SemanticInvoker invoker;
    private final FocusGate gate;
    private final WindowGate windows;
    private final AimGate aim;
    private final ErrorCompletions errors = new ErrorCompletions();
    private final ActionBatchFlyweight batch = new ActionBatchFlyweight();
    private final ActionFlyweight action = new ActionFlyweight();
    private final ActionCompletionFlyweight completion = new ActionCompletionFlyweight();
    private final ActionResultFlyweight row = new ActionResultFlyweight();
    private final PhysicalStateFlyweight physical = new PhysicalStateFlyweight();
    /** The physical state read at the start of a batch (48 bytes). */
    private final BytesStore<?, Void> physicalBuffer = BytesStore.nativeStoreWithFixedCapacity(PhysicalStateFlyweight.LENGTH);
    private final int[] point = new int[4];
    /** Record index of the action's first target, found by rule F; owner thread. */
    private int firstTargetIndex;
    /** The display layout the last tick saw; owner thread. */
    private long lastTopology;

    public ActionPlanner(final SceneStore scenes, final InputExecutor executor, final SemanticInvoker invoker) {
        this.scenes = scenes;
        this.executor = executor;
        this.invoker = invoker;
        this.gate = new FocusGate(invoker);
        this.windows = new WindowGate(scenes, executor, invoker);
        this.aim = new AimGate(executor, invoker);
    }

    /**
     * Starts a batch that passed the validator (§4.4 #0–#6) and answers it, or parks it.
     *
     * @param available policy ∩ granted at Hello.
     * @param leaseId this connection's lease id (never 0).
     * @return the completion's length, or {@link #PARKED}.
     */
    public int begin(final BatchRun run, final int available, final long leaseId, final BytesStore<?, ?> req,
        final long reqAt, final BytesStore<?, ?> resp, final long respAt, final long nowNs) {
        final ActionBatchFlyweight b = batch.wrap(req, reqAt);
        final ScenePacket scene = scenes.current();
        // §5.14: a batch that names its window is checked against that window, not the foreground
        final long named = WindowGate.namedWindow(b, action, run.minor2);
        final int early;
        if (scene == null) {
            early = ResultCode.BACKEND;
        } else if (!scene.coherent()) {
            early = ResultCode.STALE_GENERATION;
        } else if (!executor.available()) {
            if (executor.expected() && nowNs - b.deadlineNs() < 0) {
                // D5: a helper is (re)attaching; the batch waits for it on this channel, within
                // its deadline, and starts (every check again) once it is there
                run.reset();
                run.active = true;
                run.waitingHelper = true;
                return PARKED;
            }
            early = ResultCode.EXECUTOR_LOST; // D5: the helper's lifeline releases anything held
        } else if (!executor.physicalState(physicalBuffer, 0)) {
            early = ResultCode.BACKEND;
        } else if (!ActionChecks.preconditionsHold(b.preconditions(), scene, physical.wrap(physicalBuffer, 0),
            named == 0 ? scene.processId() : WindowGate.processOf(scene, named), named == 0 ? scene.windowId() : named)
            || (named != 0 && WindowGate.processOf(scene, named) < 0)) {
            early = ResultCode.STALE_GENERATION;
        } else {
            early = ResultCode.OK;
        }
        if (early != ResultCode.OK) {
            return errors.writeActionError(resp, respAt, b.requestId(), early);
        }
        final ActionCompletionFlyweight c = completion.wrap(resp, respAt).clear();
        c.header().set(ActionCompletionFlyweight.LENGTH, AgentAbi.ACTION_COMPLETION, 0);
        c.requestId(b.requestId()).result(ResultCode.OK).platformError(0)
            .failedActionIndex(AgentAbi.NO_FAILED_ACTION)
            .actionResultStride(ActionResultFlyweight.LENGTH).actionResultsOffset(ActionCompletionFlyweight.LENGTH)
            .validatedGeneration(scene.sceneEpoch());
        run.reset();
        run.active = true;
        run.startProcess = scene.processId();
        run.startWindow = scene.windowId();
        run.startDisplay = scene.displayId();
        run.startScene = scene.sceneEpoch();
        run.startPermission = scene.permissionEpoch();
        run.namedWindow = named;
        run.namedProcess = named == 0 ? 0 : WindowGate.processOf(scene, named);
        final PhysicalStateFlyweight state = physical.wrap(physicalBuffer, 0);
        run.heldButtons = state.buttons();
        run.heldLease = state.activeLeaseId();
        return advance(run, available, leaseId, req, reqAt, resp, respAt, nowNs);
    }

    /** Continues a parked batch. @return the completion's length, or {@link #PARKED}. */
    public int resume(final BatchRun run, final int available, final long leaseId, final BytesStore<?, ?> req,
        final long reqAt, final BytesStore<?, ?> resp, final long respAt, final long nowNs) {
        if (run.waitingHelper) {
            if (executor.available()) {
                run.reset();
                return begin(run, available, leaseId, req, reqAt, resp, respAt, nowNs);
            }
            final ActionBatchFlyweight b = batch.wrap(req, reqAt);
            if (!executor.expected() || nowNs - b.deadlineNs() >= 0) {
                run.reset(); // nothing ran: no helper came within the deadline, or none will (D5)
                return errors.writeActionError(resp, respAt, b.requestId(), ResultCode.EXECUTOR_LOST);
            }
            return PARKED;
        }
        return advance(run, available, leaseId, req, reqAt, resp, respAt, nowNs);
    }

    /**
     * Every owner tick: the helper's view that this owner is alive; and §5.11's topology rule —
     * when the display layout changes (a monitor added, removed, moved), held input is released,
     * since the points it was pressed at no longer mean what they did.
     */
    public void tick(final long nowNs) {
        executor.heartbeat(nowNs);
        final ScenePacket scene = scenes.current();
        if (scene != null) {
            final long topology = scene.topologyEpoch();
            if (lastTopology != 0 && topology != lastTopology && executor.available()) {
                executor.releaseAll();
            }
            lastTopology = topology;
        }
    }

    /** §1.3: a connection that owns the input lease went away; release everything it holds. */
    public void neutralize(final long leaseId) {
        if (holdsLease(leaseId)) {
            executor.releaseAll();
        }
    }

    /** Whether the connection with {@code leaseId} holds the input lease now (§5.11). */
    public boolean holdsLease(final long leaseId) {
        return executor.available() && executor.physicalState(physicalBuffer, 0)
            && physical.wrap(physicalBuffer, 0).activeLeaseId() == leaseId;
    }

    private int advance(final BatchRun run, final int available, final long leaseId, final BytesStore<?, ?> req,
        final long reqAt, final BytesStore<?, ?> resp, final long respAt, final long nowNs) {
        final ActionBatchFlyweight b = batch.wrap(req, reqAt);
        final ActionCompletionFlyweight c = completion.wrap(resp, respAt);
        final int count = (int) b.actionCount();
        final boolean stopOnFailure = b.policy() == AgentAbi.POLICY_STOP_ON_FAILURE;
        while (run.index < count) {
            final int i = run.index;
            int result;
            if (run.waitingPlan != 0 || run.waitingInvoke != null || run.gate != FocusGate.NONE
                || run.windowStage != WindowGate.NONE || run.aim == AimGate.ASKED) {
                result = awaited(run, b, nowNs);
                if (result == PARKED) {
                    return PARKED;
                }
                if (result == WindowGate.READY) {
                    // the window is in front, or a click was aimed again (D54): every check again
                    result = evaluate(run, b, i, available, leaseId, nowNs);
                }
                if (result == DISPATCHED) {
                    continue; // a focus question answered: the next plan of the same action is out
                }
            } else {
                if (i >= 1) {
                    final int changed = windows.foregroundChange(run);
                    if (changed != ResultCode.OK) {
                        c.result(changed).platformError(ResultCode.platformErrorFor(changed)).failedActionIndex(i);
                        break; // no row for i, whatever the policy
                    }
                }
                result = evaluate(run, b, i, available, leaseId, nowNs);
                if (result == DISPATCHED) {
                    continue; // poll at once: a fast helper may be done already
                }
            }
            writeRow(resp, respAt, run, b, i, result);
            run.afterAction(action.wrap(b.bytes(), b.offset() + b.actionsOffset() + (long) i * b.actionStride()),
                result, leaseId);
            run.index++;
            if (result == ResultCode.OK) {
                run.completed++;
            } else {
                c.result(result).platformError(ResultCode.platformErrorFor(result)).failedActionIndex(i);
                if (stopOnFailure) {
                    break;
                }
            }
        }
        return finish(run, b, resp, respAt);
    }

    /** The plan or invoke action {@code run.index} waits for: its row result, or PARKED. */
    private int awaited(final BatchRun run, final ActionBatchFlyweight b, final long nowNs) {
        if (run.windowStage != WindowGate.NONE) {
            final int step = windows.step(run, nowNs, b.deadlineNs());
            return step == WindowGate.WAIT ? PARKED : step;
        }
        if (run.aim == AimGate.ASKED) {
            return aim.step(run, b, nowNs) == AimGate.WAIT ? PARKED : WindowGate.READY;
        }
        if (run.waitingInvoke != null) {
            if (!run.waitingInvoke.isDone()) {
                return PARKED;
            }
            final int code = run.waitingInvoke.getNow(ResultCode.PLATFORM_BACKEND);
            run.waitingInvoke = null;
            return ResultCode.fromPlatform(code);
        }
        if (run.waitingPlan == 0) {
            final int step = gate.step(run, nowNs, b.deadlineNs());
            return step == FocusGate.WAIT ? PARKED : step == FocusGate.FAIL ? run.gateResult : step == FocusGate.RESUME ? DISPATCHED : sendGated(run, b, step);
        }
        final int code = executor.poll(run.waitingPlan);
        if (code == InputExecutor.LOST) {
            run.waitingPlan = 0;
            run.gate = FocusGate.NONE;
            return ResultCode.EXECUTOR_LOST; // D5: it ran on a helper that died, partly or not at all
        }
        if (code == InputExecutor.PENDING) {
            if (!executor.available()) {
                run.waitingPlan = 0;
                run.gate = FocusGate.NONE;
                return ResultCode.EXECUTOR_LOST; // D5
            }
            return PARKED;
        }
        run.waitingPlan = 0;
        if (run.aim == AimGate.MOVED) {
            return aim.moved(run, code, nowNs) ? PARKED : ResultCode.fromPlatform(code);
        }
        if (run.gate == FocusGate.TEXT_CLICKED) {
            if (code == ResultCode.PLATFORM_OK) {
                gate.clickDone(run, nowNs, b.deadlineNs());
                return DISPATCHED; // the focus click is done: now its focus is awaited
            }
            run.gate = FocusGate.NONE;
        }
        return code == ResultCode.PLATFORM_OK ? ResultCode.OK : ResultCode.fromPlatform(code);
    }

    /**
     * A plan {@link FocusGate} asked for, for the action at {@code run.index}: TEXT's focus click
     * alone, its text alone, both, or a key. @return DISPATCHED or EXECUTOR_LOST.
     */
    private int sendGated(final BatchRun run, final ActionBatchFlyweight b, final int send) {
        final int i = run.index;
        final ActionFlyweight a = action.wrap(b.bytes(), b.offset() + b.actionsOffset() + (long) i * b.actionStride());
        final ScenePacket scene = scenes.current();
        final PlanWriter plan = scene == null ? null
            : executor.beginPlan(b.deadlineNs(), scene.sceneEpoch(), scene.permissionEpoch(), run.heldLease);
        if (plan == null) {
            run.gate = FocusGate.NONE;
            return ResultCode.EXECUTOR_LOST;
        }
        if (send == FocusGate.SEND_KEY) {
            writePlan(plan, a.kind(), a, i, 1, scene, b.bytes(), 0);
        } else {
            if (send != FocusGate.SEND_TEXT) {
                plan.move(run.gatePointX, run.gatePointY);
                plan.buttonDown(a.buttonBits()); // the focus click, count 1
                plan.buttonUp(a.buttonBits());
            }
            if (send != FocusGate.SEND_CLICK) {
                plan.text(b.bytes(), b.offset() + b.payloadOffset() + a.payloadOffset(), (int) a.payloadSize(), run.gateWindow);
            }
            plan.actionEnd(i);
        }
        final long id = executor.submit();
        if (id == 0) {
            run.gate = FocusGate.NONE;
            return ResultCode.EXECUTOR_LOST;
        }
        run.waitingPlan = id;
        return DISPATCHED;
    }

    /**
     * Rules A–H of §5.8 for action i. @return the row result, or {@link #DISPATCHED} when a plan
     * or semantic invoke was started (its result comes later).
     */
    private int evaluate(final BatchRun run, final ActionBatchFlyweight b, final int i, final int available,
        final long leaseId, final long nowNs) {
        final ActionFlyweight a = action.wrap(b.bytes(), b.offset() + b.actionsOffset() + (long) i * b.actionStride());
        final int kind = a.kind();
        final boolean dryRun = (b.header().flags() & AgentAbi.FLAG_DRY_RUN) != 0;
        // A. shape
        final int shape = ActionChecks.shape(a, run.helloFlags, run.minor2);
        if (shape != ResultCode.OK) {
            return shape;
        }
        // B. capability
        final int capability = ActionChecks.capability(kind, available, b.requestedCapabilityBits());
        if (capability != ResultCode.OK) {
            return capability;
        }
        // C. direct kinds
        if (kind == ActionKind.QUERY_PHYSICAL_STATE) {
            return ResultCode.OK;
        }
        if (kind == ActionKind.ABORT) {
            return dryRun ? ResultCode.OK : ResultCode.fromPlatform(executor.releaseAll()); // D8
        }
        // D. plan rules
        final long payloadBase = b.offset() + b.payloadOffset();
        final int planned = ActionChecks.plan(a, b.bytes(), payloadBase, b.payloadSize(), run.heldButtons, run.heldLease, leaseId);
        if (planned != ResultCode.OK) {
            return planned;
        }
        final long repeat = a.repeatCount() == 0 ? 1 : a.repeatCount();
        final int targets = ActionRules.targets(kind);
        final int button = a.buttonBits();
        final long textAt = a.payloadSize() != 0 ? payloadBase + a.payloadOffset() : 0;
        final boolean number = ActionChecks.valueNumber(a);
        // F. targets, first then second
        final ScenePacket scene = scenes.current();
        if (run.minor2 && (a.flags() & ActionFlag.WINDOW_FLAGS) != 0) {
            final int routed = windows.route(run, a, scene, dryRun, b, textAt, i);
            if (routed != WindowGate.INPUT) {
                return routed;
            }
        }
        if (targets >= 1) {
            final int t1 = target(scene, a.targetId(), ActionChecks.firstTargetCapability(a), (a.flags() & ActionFlag.EXPLICIT_POINTS) != 0,
                a.pointXQ8(), a.pointYQ8(), 0);
            if (t1 != ResultCode.OK) {
                return t1;
            }
        }
        if (targets == 2) {
            final int t2 = target(scene, a.secondaryTargetId(), ActionRules.secondTargetCapability(kind),
                (a.flags() & ActionFlag.EXPLICIT_POINTS) != 0, a.secondaryPointXQ8(), a.secondaryPointYQ8(), 2);
            if (t2 != ResultCode.OK) {
                return t2;
            }
        }
        // G: X11 grants pointer, keyboard and window input to every client: nothing to refuse.
        // H. dispatch: what §5.9 refuses before any event
        final int dispatchable = ActionChecks.beforeDispatch(a, b.bytes(), textAt);
        if (dispatchable != ResultCode.OK) {
            return dispatchable;
        }
        if (run.heldLease != 0 && run.heldLease != leaseId) {
            return ResultCode.STALE_GENERATION; // another connection holds input (§5.11)
        }
        if (dryRun) {
            return ResultCode.OK;
        }
        if (nowNs + a.durationNs() - b.deadlineNs() >= 0) { // a timed action ends within the deadline (§5.15)
            executor.releaseAll();
            return ResultCode.TIMEOUT;
        }
        if (kind == ActionKind.INVOKE && invoker != null && invoker.handles(a.targetId())) {
            run.waitingInvoke = invoker.invoke(a.targetId(), b.deadlineNs());
            run.viaSemantic = true;
            return DISPATCHED;
        }
        if (ActionKind.semantic(kind) || ActionChecks.fill(a)) {
            if (invoker == null || !invoker.handles(a.targetId())) {
                return ResultCode.ACTION_UNSUPPORTED; // only an accessible target has these interfaces
            }
            run.waitingInvoke = SemanticPayload.dispatch(invoker, number, a, b.bytes(), textAt, b.deadlineNs());
            run.viaSemantic = true;
            return DISPATCHED;
        }
        if (!run.secureCleared && gate.beginSecure(run, kind, nowNs, b.deadlineNs())) {
            return DISPATCHED; // first: does a password field have the focus? (D30)
        }
        run.secureCleared = false;
        if (kind == ActionKind.TEXT && gate.guardsText(a.targetId())) {
            run.gatePointX = point[0];
            run.gatePointY = point[1];
            run.gateWindow = targetWindow(scene);
            gate.beginText(run, a.targetId(), nowNs, b.deadlineNs());
            return DISPATCHED; // the question first: is the focus there already?
        }
        if ((kind == ActionKind.KEY || kind == ActionKind.KEY_CHORD) && gate.beginKey(run, nowNs, b.deadlineNs())) {
            return DISPATCHED; // a click just moved the focus: the key waits for it to arrive
        }
        if (ActionRules.needsOneButton(kind) || kind == ActionKind.WINDOW_ACTIVATE || kind == ActionKind.WINDOW_CYCLE) {
            // a press on an editable target may be moving the focus there; anything else that moves it ends the wait
            gate.clicked(a.targetId() != 0 && ActionRules.needsOneButton(kind) && (scene.bytes().readInt(scene.recordAt(firstTargetIndex)
                + TargetFlyweight.CAPABILITY_BITS_OFFSET) & TargetCapability.TEXT) != 0 ? a.targetId() : 0, nowNs);
        }
        final int aimed = aim.before(run, a, i, point, scene, firstTargetIndex, b.deadlineNs());
        if (aimed != AimGate.PROCEED) {
            return aimed == AimGate.MOVING ? DISPATCHED : aimed; // D54: the move alone first
        }
        final PlanWriter plan = executor.beginPlan(b.deadlineNs(), scene.sceneEpoch(), scene.permissionEpoch(),
            kind == ActionKind.HOLD || a.durationNs() != 0 ? leaseId // a timed operation runs under the lease (§5.15)
                : kind == ActionKind.RELEASE && (run.heldButtons & ~button) == 0 ? 0 : run.heldLease);
        if (plan == null) {
            return ResultCode.EXECUTOR_LOST;
        }
        writePlan(plan, kind, a, i, (int) repeat, scene, b.bytes(), textAt);
        final long id = executor.submit();
        if (id == 0) {
            return ResultCode.EXECUTOR_LOST;
        }
        run.waitingPlan = id;
        return DISPATCHED;
    }

    /**
     * F for one target: present, not SECURE, ACTIONABLE and not DISABLED or OCCLUDED, with the
     * capability, and an explicit point inside it. Leaves the point to act at in
     * {@code point[slot]}, {@code point[slot + 1]}.
     */
    private int target(final ScenePacket scene, final long id, final int capability, final boolean explicit,
        final int px, final int py, final int slot) {
        final int index = scene.indexOf(id);
        if (index < 0) {
            return ResultCode.TARGET_NOT_FOUND;
        }
        firstTargetIndex = slot == 0 ? index : firstTargetIndex;
        final BytesStore<?, ?> sb = scene.bytes();
        final long at = scene.recordAt(index);
        final int usable = ActionChecks.target(sb.readInt(at + TargetFlyweight.FLAGS_OFFSET),
            sb.readInt(at + TargetFlyweight.CAPABILITY_BITS_OFFSET), capability);
        if (usable != ResultCode.OK) {
            return usable;
        }
        if (explicit) {
            if (!RectQ8.containsPoint(sb, at + TargetFlyweight.BOUNDS_OFFSET, px, py)) {
                return ResultCode.TARGET_NOT_FOUND;
            }
            point[slot] = px;
            point[slot + 1] = py;
        } else {
            point[slot] = sb.readInt(at + TargetFlyweight.SAFE_POINT_OFFSET + RectQ8.X_OFFSET);
            point[slot + 1] = sb.readInt(at + TargetFlyweight.SAFE_POINT_OFFSET + RectQ8.Y_OFFSET);
        }
        return ResultCode.OK;
    }

    /** The input of §5.8's table, for action {@code i} whose targets' points are in {@link #point}. */
    private void writePlan(final PlanWriter plan, final int kind, final ActionFlyweight a, final int i, final int repeat,
        final ScenePacket scene, final BytesStore<?, ?> req, final long textAt) {
        final int button = a.buttonBits();
        final int modifiers = a.modifiers();
        final long d = a.durationNs(); // §5.15: move time, or the lease of a HOLD and a scroll
        switch (kind) {
            case ActionKind.POINTER_MOVE:
            case ActionKind.POINTER_HOVER:
                plan.move(point[0], point[1], d);
                break;
            case ActionKind.CLICK:
            case ActionKind.INVOKE:
                plan.move(point[0], point[1]);
                plan.modifiersDown(modifiers);
                for (int n = 0; n < repeat; n++) {
                    plan.buttonDown(button);
                    plan.buttonUp(button);
                }
                plan.modifiersUp(modifiers);
                break;
            case ActionKind.HOLD:
                plan.move(point[0], point[1]);
                plan.buttonDown(button, d);
                break;
            case ActionKind.DRAG_DROP:
            case ActionKind.TEXT_SELECT:
                plan.move(point[0], point[1]);
                plan.buttonDown(button);
                // a first step past the drag threshold, as a hand makes: toolkits that read a press and one
                // jump under load as a click (GTK's entry) see the drag begin at the source
                plan.move(point[0] + stepTowards(point[0], point[2]), point[1] + stepTowards(point[1], point[3]));
                plan.move(point[2], point[3], d);
                plan.buttonUp(button);
                break;
            case ActionKind.SCROLL:
                plan.move(point[0], point[1]);
                plan.scroll(a.deltaXQ8(), a.deltaYQ8(), d);
                break;
            case ActionKind.TEXT:
                plan.move(point[0], point[1]);
                plan.buttonDown(button); // the focus click, count 1
                plan.buttonUp(button);
                plan.text(req, textAt, (int) a.payloadSize(), targetWindow(scene));
                break;
            case ActionKind.WINDOW_ACTIVATE:
                plan.windowActivate(targetWindow(scene));
                break;
            case ActionKind.KEY:
            case ActionKind.KEY_CHORD:
                plan.modifiersDown(modifiers);
                plan.keyDown((int) a.keyUsage());
                plan.keyUp((int) a.keyUsage());
                plan.modifiersUp(modifiers);
                break;
            case ActionKind.RELEASE:
                plan.buttonUp(button);
                break;
            case ActionKind.WINDOW_CYCLE:
                plan.windowCycle((a.flags() & ActionFlag.CYCLE_BACKWARD) != 0);
                break;
            default:
                break;
        }
        plan.actionEnd(i);
    }

    /** The first target's window, or the scene's active window when the target names none (§5.8). */
    private long targetWindow(final ScenePacket scene) {
        final long window = scene.bytes().readLong(scene.recordAt(firstTargetIndex) + TargetFlyweight.WINDOW_ID_OFFSET);
        return window != 0 ? window : scene.windowId();
    }

    private void writeRow(final BytesStore<?, ?> resp, final long respAt, final BatchRun run,
        final ActionBatchFlyweight b, final int i, final int result) {
        final ActionFlyweight a = action.wrap(b.bytes(), b.offset() + b.actionsOffset() + (long) i * b.actionStride());
        row.wrap(resp, respAt + ActionCompletionFlyweight.LENGTH + (long) run.rows * ActionResultFlyweight.LENGTH).clear()
            .actionIndex(i).kind(a.kind()).result(result).platformError(ResultCode.platformErrorFor(result))
            .resolvedTargetId(a.targetId()).resolvedSecondaryTargetId(a.secondaryTargetId())
            .validatedGeneration(run.startScene)
            .flags(run.rowFlags | (run.viaSemantic && (run.helloFlags & HelloFlag.SEMANTIC_ACTIONS) != 0 ? ActionResultFlag.SEMANTIC : 0));
        run.viaSemantic = false;
        run.rowFlags = 0;
        run.rows++;
    }

    /** §5.7.5 and §5.12: physical state, verification, sizes. */
    private int finish(final BatchRun run, final ActionBatchFlyweight b, final BytesStore<?, ?> resp, final long respAt) {
        final ActionCompletionFlyweight c = completion.wrap(resp, respAt);
        c.completedActionCount(run.completed).actionResultCount(run.rows)
            .totalSize(ActionCompletionFlyweight.LENGTH + (long) run.rows * ActionResultFlyweight.LENGTH);
        if (!executor.physicalState(resp, respAt + ActionCompletionFlyweight.PHYSICAL_STATE_OFFSET)) {
            resp.zeroOut(respAt + ActionCompletionFlyweight.PHYSICAL_STATE_OFFSET,
                respAt + ActionCompletionFlyweight.PHYSICAL_STATE_OFFSET + PhysicalStateFlyweight.LENGTH);
            if (c.result() == ResultCode.OK) {
                c.result(ResultCode.BACKEND).platformError(ResultCode.platformErrorFor(ResultCode.BACKEND));
            }
        }
        if ((b.header().flags() & AgentAbi.FLAG_VERIFY_NEXT_GENERATION) != 0 && c.result() == ResultCode.OK) {
            scenes.adoptPending(); // "looks once" for a newer scene, e.g. published by the action
            final ScenePacket scene = scenes.current();
            if (scene != null && Long.compareUnsigned(scene.sceneEpoch(), run.startScene) > 0) {
                c.header().flags(AgentAbi.FLAG_NEXT_GENERATION_AVAILABLE);
                scene.writeGeneration(c.nextGeneration(), scene.processId(), scene.windowId());
            } else {
                // pending: the client keeps observing until the deadline (§5.12); never replayed
                c.result(ResultCode.TIMEOUT).platformError(ResultCode.platformErrorFor(ResultCode.TIMEOUT))
                    .completedActionCount(b.actionCount()).failedActionIndex(AgentAbi.NO_FAILED_ACTION);
            }
        }
        run.active = false;
        return (int) c.totalSize();
    }

    /** A drag's first step along one axis, in Q8: 12 px towards {@code to}, or all the way when closer. */
    public static int stepTowards(final int from, final int to) {
        final int step = 12 * RectQ8.ONE;
        final int d = to - from;
        return d > step ? step : d < -step ? -step : d;
    }

}
