package dev.saccade.owner.action;

import dev.saccade.owner.scene.ScenePacket;
import dev.saccade.protocol.ActionBatchFlyweight;
import dev.saccade.protocol.ActionFlag;
import dev.saccade.protocol.ActionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.TargetFlyweight;
import java.util.concurrent.CompletableFuture;

/**
 * A click aimed again once the pointer is over the target's window (D54): LibreOffice places its
 * objects by where it last saw its window, which it learns again only from a pointer event, so
 * the extents it gave before were off by the distance its window moved since (a cell's whole
 * row: a click on B2 landed in B1). A CLICK on a target whose application does so
 * ({@link SemanticInvoker#aimsAfterMove}) first moves the pointer to the scene's point alone;
 * after the application has had a frame to see the motion, its target's extents are asked
 * again, and the press goes to their centre when the target moved there, keeping its size;
 * otherwise to the scene's point, as any click. The stages live in the action's
 * {@link BatchRun}; {@link ActionPlanner} writes the plans. Owner thread only.
 */
final class AimGate {
    /** No aim in progress. */
    static final int NONE = 0;
    /** The move alone is out; its plan's completion is awaited. */
    static final int MOVED = 1;
    /** The move is done: the application's answer (asked after {@link #SETTLE_NS}) is awaited. */
    static final int ASKED = 2;
    /** Answered: the next evaluation of the action presses at {@link BatchRun#aimX}, {@link BatchRun#aimY}. */
    static final int AIMED = 3;

    /** {@link #before}: write the action's plan as usual. */
    static final int PROCEED = 0;
    /** {@link #before}: the move alone went out. */
    static final int MOVING = 1;
    /** {@link #step}: ask again on a later tick. */
    static final int WAIT = 2;
    /** {@link #step}: evaluate the action again, to press where it was aimed. */
    static final int READY = 3;

    /** GTK delivers pointer motion with its next frame: a 60 Hz frame and some room. */
    static final long SETTLE_NS = 25_000_000L;

    private final InputExecutor executor;
    private final SemanticInvoker invoker;
    private final ActionFlyweight action = new ActionFlyweight();

    AimGate(final InputExecutor executor, final SemanticInvoker invoker) {
        this.executor = executor;
        this.invoker = invoker;
    }

    /**
     * Before action {@code i}'s plan, whose point rule F left in {@code point}: sends the move
     * alone for a CLICK that aims again; presses where the answer said once aimed.
     *
     * @return PROCEED, MOVING, or EXECUTOR_LOST
     */
    int before(final BatchRun run, final ActionFlyweight a, final int i, final int[] point, final ScenePacket scene,
        final int targetIndex, final long deadlineNs) {
        if (run.aim == AIMED) {
            run.aim = NONE;
            final long at = scene.recordAt(targetIndex) + TargetFlyweight.BOUNDS_OFFSET;
            final int w = scene.bytes().readInt(at + RectQ8.WIDTH_OFFSET);
            final int h = scene.bytes().readInt(at + RectQ8.HEIGHT_OFFSET);
            // the same object where it lies now: its size unchanged, and the scene's point outside it
            if (run.aimWidth > 0 && Math.abs(run.aimWidth - w) <= RectQ8.ONE && Math.abs(run.aimHeight - h) <= RectQ8.ONE
                && !inside(run, point[0], point[1])) {
                point[0] = run.aimX + run.aimWidth / 2;
                point[1] = run.aimY + run.aimHeight / 2;
            }
            return PROCEED;
        }
        if (a.kind() != ActionKind.CLICK || (a.flags() & ActionFlag.EXPLICIT_POINTS) != 0 || invoker == null
            || !invoker.handles(a.targetId()) || !invoker.aimsAfterMove(a.targetId())) {
            return PROCEED;
        }
        final PlanWriter plan = executor.beginPlan(deadlineNs, scene.sceneEpoch(), scene.permissionEpoch(), run.heldLease);
        if (plan == null) {
            return ResultCode.EXECUTOR_LOST;
        }
        plan.move(point[0], point[1]);
        plan.actionEnd(i);
        final long id = executor.submit();
        if (id == 0) {
            return ResultCode.EXECUTOR_LOST;
        }
        run.waitingPlan = id;
        run.aim = MOVED;
        return MOVING;
    }

    /** The move's plan completed with {@code code} at {@code nowNs}: whether the question follows. */
    boolean moved(final BatchRun run, final int code, final long nowNs) {
        run.aim = code == ResultCode.PLATFORM_OK ? ASKED : NONE;
        run.aimMovedNs = nowNs;
        run.aimAnswer = null;
        return run.aim == ASKED;
    }

    /** One look at the question of the run's current action of {@code b}: WAIT, or READY with the answer kept in {@code run}. */
    int step(final BatchRun run, final ActionBatchFlyweight b, final long nowNs) {
        final long deadlineNs = b.deadlineNs();
        if (run.aimAnswer == null) {
            if (nowNs - run.aimMovedNs < SETTLE_NS && nowNs - deadlineNs < 0) {
                return WAIT;
            }
            final ActionFlyweight a = action.wrap(b.bytes(), b.offset() + b.actionsOffset() + (long) run.index * b.actionStride());
            run.aimAnswer = invoker.extents(a.targetId(), deadlineNs);
        }
        final CompletableFuture<int[]> answer = run.aimAnswer;
        if (!answer.isDone() && nowNs - deadlineNs < 0) {
            return WAIT;
        }
        final int[] box = answer.isDone() && !answer.isCompletedExceptionally() ? answer.getNow(null) : null;
        run.aimAnswer = null;
        run.aim = AIMED;
        run.aimWidth = box == null || box[2] <= 0 || box[3] <= 0 ? 0 : box[2] * RectQ8.ONE;
        run.aimHeight = run.aimWidth == 0 ? 0 : box[3] * RectQ8.ONE;
        run.aimX = run.aimWidth == 0 ? 0 : box[0] * RectQ8.ONE;
        run.aimY = run.aimWidth == 0 ? 0 : box[1] * RectQ8.ONE;
        return READY;
    }

    private static boolean inside(final BatchRun run, final int x, final int y) {
        return x >= run.aimX && x < run.aimX + run.aimWidth && y >= run.aimY && y < run.aimY + run.aimHeight;
    }
}
