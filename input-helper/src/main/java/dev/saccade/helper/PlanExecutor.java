package dev.saccade.helper;

import dev.saccade.helper.backend.InputBackend;
import dev.saccade.helper.backend.MultiClickGuard;
import dev.saccade.helper.backend.PointerState;
import dev.saccade.ipc.link.HeldInputLedger;
import dev.saccade.ipc.link.HelperSide;
import dev.saccade.ipc.link.PlanHandler;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.PhysicalFlag;
import dev.saccade.protocol.PhysicalStateFlyweight;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.plan.ActionPlanFlyweight;
import dev.saccade.protocol.plan.PlanCommandFlyweight;
import dev.saccade.protocol.plan.PlanCompletionFlyweight;
import dev.saccade.protocol.plan.PlanOp;
import java.util.concurrent.locks.LockSupport;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Turns validated plans into input through the guarded backend, so every press is in the
 * ledger before it is sent: the deadline is checked again before every command, and any
 * failure (a deadline passed, an unmappable key, the X server refusing) releases everything
 * held before the completion is written. The helper's main thread only.
 */
final class PlanExecutor implements PlanHandler {
    private final GuardedBackend backend;
    private final HeldInputLedger ledger;
    private final HelperSide side;
    private final PlanCompletionFlyweight completion = new PlanCompletionFlyweight();
    private final BytesStore<?, Void> completionBuffer = BytesStore.nativeStoreWithFixedCapacity(PlanCompletionFlyweight.LENGTH);
    private final byte[] text = new byte[AgentAbi.MAX_PAYLOAD_BYTES];
    /** Longest wait for a TEXT action's window to become active after its focus click. */
    private static final long FOCUS_WAIT_NS = 250_000_000L;
    /** The pointer where our last move left it, desktop Q8. */
    private int pointerXQ8;
    private int pointerYQ8;
    private long plansExecuted;
    private final MultiClickGuard clicks = new MultiClickGuard();
    private final DragPacer drag = new DragPacer();
    private final PointerArrival arrival = new PointerArrival();
    private final PointerState seen = new PointerState();
    /** No press of the current plan has gone out yet: the next one must not join an earlier plan's click. */
    private boolean firstPress;
    /** When the plan that left input held under a lease finished; 0 while nothing is held on purpose. */
    private long leaseSinceNs;
    /**
     * Modifiers down when the current plan started that our ledger does not hold: a user's keyboard
     * or another client's. The plan neither presses nor releases them (a release would let go of
     * the user's Shift while they still hold it: the X server keeps one state per key for all
     * devices); the completion reports them (§5.11 user_modifiers, D23).
     */
    private int userModifiers;
    /** Held by other input, these turn typed characters into shortcuts: a plan with TEXT is refused (D24). */
    private static final int SHORTCUT_MODIFIERS = Modifier.CONTROL | Modifier.ALT | Modifier.META;
    private final PointerState held = new PointerState();
    /** The timed operation in hand and the timed hold lease (§5.15). */
    private final TimedOperation timed;
    /** The lease a BUTTON_DOWN of the plan in hand asked for (its d), 0 for none. */
    private long planLeaseNs;

    PlanExecutor(final GuardedBackend backend, final HeldInputLedger ledger, final HelperSide side, final TimedOperation timed) {
        this.backend = backend;
        this.ledger = ledger;
        this.side = side;
        this.timed = timed;
        backend.duringWaits(() -> side.beat(System.nanoTime()));
        final PointerState p = new PointerState();
        if (backend.queryPointer(p) == ResultCode.PLATFORM_OK) {
            pointerXQ8 = p.x() * RectQ8.ONE;
            pointerYQ8 = p.y() * RectQ8.ONE;
        }
    }

    long plansExecuted() {
        return plansExecuted;
    }

    /**
     * Input held under a lease that no plan has touched for {@code maxNs} is released: an agent
     * that holds a button and then forgets it (or hangs while connected) cannot keep it down
     * for ever. Returns whether it expired now.
     */
    boolean expireLease(final long nowNs, final long maxNs) {
        if (leaseSinceNs == 0 || nowNs - leaseSinceNs < maxNs) {
            return false;
        }
        leaseSinceNs = 0;
        timed.leaseOver();
        backend.releaseAll();
        ledger.activeLeaseId(0);
        return true;
    }

    /**
     * A hold with a lease time (§5.15) ends by itself: at its end everything held is released and
     * the lease is gone. Returns whether it ended now.
     */
    boolean endTimedLease(final long nowNs) {
        if (!timed.leaseEnded(nowNs)) {
            return false;
        }
        leaseSinceNs = 0;
        timed.leaseOver();
        backend.releaseAll();
        ledger.activeLeaseId(0);
        return true;
    }

    /** The owner went silent: release everything; nothing is the user's doing. */
    void releaseAll() {
        backend.releaseAll();
    }

    /**
     * Real user input: everything we hold is released, and the shared ledger says USER_OVERRIDE
     * until the next successful plan, so the owner reports it even though no plan completed.
     */
    void onUserOverride() {
        backend.releaseAll();
        ledger.flags(ledger.flags() | PhysicalFlag.USER_OVERRIDE);
    }

    @Override
    public void onPlan(final ActionPlanFlyweight plan) {
        int code = ResultCode.PLATFORM_OK;
        long executed = 0;
        final long deadline = plan.deadlineNs();
        final int count = (int) plan.commandCount();
        firstPress = true;
        planLeaseNs = 0;
        arrival.clear();
        timed.begin(hasDuration(plan, count));
        if (timed.timed() && plan.leaseId() != 0) {
            ledger.activeLeaseId(plan.leaseId()); // the running operation shows in the physical state (§5.15)
        }
        userModifiers = backend.queryPointer(held) == ResultCode.PLATFORM_OK ? held.modifiers() & ~ledger.modifiers() : 0;
        backend.othersHold(userModifiers);
        if ((userModifiers & SHORTCUT_MODIFIERS) != 0 && hasText(plan, count)) {
            code = ResultCode.PLATFORM_BUSY; // text under someone's Control would be shortcuts: nothing goes out (D24)
        }
        for (int i = 0; i < count && code == ResultCode.PLATFORM_OK; i++) {
            if (System.nanoTime() - deadline >= 0) {
                code = ResultCode.PLATFORM_TIMEOUT;
                break;
            }
            if (timed.cancelled()) {
                code = ResultCode.PLATFORM_CANCELLED; // ABORT, a disconnect, the user, the owner gone (§5.15)
                break;
            }
            code = execute(plan, plan.command(i));
            if (code != ResultCode.PLATFORM_OK) {
                break;
            }
            executed++;
        }
        if (code == ResultCode.PLATFORM_OK) {
            code = awaitPointer(deadline); // a click held back by the window manager has not happened yet (D68)
        }
        if (code == ResultCode.PLATFORM_OK) {
            code = backend.sync(); // the X server has processed every event of the plan
        }
        if (code != ResultCode.PLATFORM_OK) {
            backend.releaseAll(); // §5.9: a deadline or a failure leaves nothing held
        } else if (plan.keepHeld() && !ledger.isEmpty()) {
            ledger.activeLeaseId(plan.leaseId());
        } else if (ledger.isEmpty()) {
            ledger.activeLeaseId(0);
        }
        leaseSinceNs = ledger.isEmpty() ? 0 : System.nanoTime(); // each plan under the lease renews it
        if (ledger.isEmpty()) {
            timed.leaseOver();
        } else if (code == ResultCode.PLATFORM_OK && planLeaseNs != 0) {
            timed.leaseFrom(System.nanoTime(), planLeaseNs); // the hold's lease time runs from now (§5.15)
        }
        timed.begin(false);
        if (code == ResultCode.PLATFORM_OK && (ledger.flags() & PhysicalFlag.USER_OVERRIDE) != 0) {
            ledger.flags(ledger.flags() & ~PhysicalFlag.USER_OVERRIDE);
        }
        plansExecuted++;
        complete(plan.planId(), code, executed);
    }

    /** Whether a command of the plan carries a duration (PlanOp: d). */
    private static boolean hasDuration(final ActionPlanFlyweight plan, final int count) {
        for (int i = 0; i < count; i++) {
            if (plan.command(i).d() != 0) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasText(final ActionPlanFlyweight plan, final int count) {
        for (int i = 0; i < count; i++) {
            if (plan.command(i).op() == PlanOp.TEXT) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void onInvalidPlan(final long planId, final int verdict) {
        complete(planId, ResultCode.PLATFORM_INVALID_ARGUMENT, 0);
    }

    private int execute(final ActionPlanFlyweight plan, final PlanCommandFlyweight c) {
        final int op = c.op();
        if (op == PlanOp.KEY_DOWN || op == PlanOp.MODIFIERS_DOWN || op == PlanOp.TEXT) {
            final int arrived = awaitPointer(plan.deadlineNs()); // keys are not held back with the pointer (D68)
            if (arrived != ResultCode.PLATFORM_OK) {
                return arrived;
            }
        }
        switch (op) {
            case PlanOp.MOVE:
                return c.d() != 0 ? glide(c.a(), c.b(), c.d(), plan.deadlineNs()) : move(c.a(), c.b(), plan.deadlineNs());
            case PlanOp.BUTTON_DOWN:
                planLeaseNs = c.d();
                return press(c.a(), plan.deadlineNs());
            case PlanOp.BUTTON_UP:
                return release(c.a(), plan.deadlineNs());
            case PlanOp.KEY_DOWN:
                return backend.key(c.a(), true);
            case PlanOp.KEY_UP:
                return backend.key(c.a(), false);
            case PlanOp.MODIFIERS_DOWN:
                return backend.modifiers(c.a() & ~userModifiers, true); // one held already is in effect
            case PlanOp.MODIFIERS_UP:
                return backend.modifiers(c.a() & ~userModifiers, false);
            case PlanOp.SCROLL:
                return c.d() != 0 ? spreadScroll(c.a(), c.b(), c.d(), plan.deadlineNs()) : backend.scroll(c.a(), c.b());
            case PlanOp.TEXT: {
                awaitActive(c.c(), plan.deadlineNs());
                final int length = (int) c.textLength();
                plan.bytes().read(plan.textStart() + c.textOffset(), text, 0, length); // textStart is absolute
                return backend.typeText(text, 0, length);
            }
            case PlanOp.WINDOW_ACTIVATE:
                return backend.activateWindow(c.c());
            case PlanOp.WINDOW_CYCLE:
                return backend.cycleWindow(c.a() == PlanOp.CYCLE_BACKWARD);
            case PlanOp.RELEASE_ALL:
                return backend.releaseAll();
            case PlanOp.ACTION_END:
                return ResultCode.PLATFORM_OK;
            default:
                return ResultCode.PLATFORM_INVALID_ARGUMENT;
        }
    }

    /**
     * A move; with a button held (a drag, in this plan or since a HOLD) paced by
     * {@link DragPacer}: intermediate positions, the deadline checked before each.
     */
    private int move(final int xQ8, final int yQ8, final long deadlineNs) {
        final int x0 = InputBackend.pixelOfQ8(pointerXQ8);
        final int y0 = InputBackend.pixelOfQ8(pointerYQ8);
        final int x1 = InputBackend.pixelOfQ8(xQ8);
        final int y1 = InputBackend.pixelOfQ8(yQ8);
        pointerXQ8 = xQ8;
        pointerYQ8 = yQ8;
        if ((ledger.buttons() & (Button.LEFT | Button.MIDDLE | Button.RIGHT)) == 0) {
            return backend.movePointer(x1, y1);
        }
        final int n = DragPacer.steps(x0, y0, x1, y1);
        for (int i = 1; i <= n; i++) {
            final long gap = drag.gapNs(System.nanoTime());
            final int paused = gap > 0 ? pause(gap, deadlineNs) : ResultCode.PLATFORM_OK;
            if (paused != ResultCode.PLATFORM_OK) {
                return paused;
            }
            int rc = backend.movePointer(DragPacer.at(x0, x1, i, n), DragPacer.at(y0, y1, i, n));
            if (rc == ResultCode.PLATFORM_OK) {
                rc = backend.flush();
            }
            if (rc != ResultCode.PLATFORM_OK) {
                return rc;
            }
            drag.moved(System.nanoTime());
        }
        return ResultCode.PLATFORM_OK;
    }

    /**
     * A button release; after held motion the pointer first rests on the drop point, nudged by a
     * pixel and back so the drop target hears of the final position ({@link DragPacer}).
     */
    private int release(final int button, final long deadlineNs) {
        final boolean dragged = drag.dragging();
        final long settle = drag.settleNs(System.nanoTime());
        if (settle > 0) {
            final int x = InputBackend.pixelOfQ8(pointerXQ8);
            final int y = InputBackend.pixelOfQ8(pointerYQ8);
            int rc = pause(settle / 2, deadlineNs);
            if (rc != ResultCode.PLATFORM_OK) {
                return rc;
            }
            rc = backend.movePointer(x + 1, y);
            if (rc == ResultCode.PLATFORM_OK) {
                rc = backend.flush();
            }
            if (rc == ResultCode.PLATFORM_OK) {
                rc = pause(DragPacer.STEP_NS, deadlineNs);
            }
            if (rc == ResultCode.PLATFORM_OK) {
                rc = backend.movePointer(x, y);
            }
            if (rc == ResultCode.PLATFORM_OK) {
                rc = backend.flush();
            }
            if (rc == ResultCode.PLATFORM_OK) {
                rc = pause(settle / 2, deadlineNs);
            }
            if (rc != ResultCode.PLATFORM_OK) {
                return rc;
            }
        }
        final int rc = backend.button(button, false);
        if (rc == ResultCode.PLATFORM_OK) {
            arrival.released(button);
        }
        // a button still held keeps its own (implicit) grab: the drag ends with the last one
        final boolean last = (ledger.buttons() & (Button.LEFT | Button.MIDDLE | Button.RIGHT)) == 0;
        return rc == ResultCode.PLATFORM_OK && dragged && last ? awaitDragEnd(deadlineNs) : rc;
    }

    /**
     * After a drag's release: waits until no other client holds a pointer grab, i.e. the toolkit
     * has processed the release and ended its drag, so the next action's click is not eaten by the
     * drag ({@link DragPacer}); at most {@link DragPacer#END_WAIT_NS}, then PLATFORM_TIMEOUT.
     */
    private int awaitDragEnd(final long deadlineNs) {
        final long start = System.nanoTime();
        while (backend.pointerGrabbedElsewhere() == 1) { // a round trip: the release reached the server first
            if (System.nanoTime() - start >= DragPacer.END_WAIT_NS) {
                return ResultCode.PLATFORM_TIMEOUT;
            }
            final int rc = pause(DragPacer.END_POLL_NS, deadlineNs);
            if (rc != ResultCode.PLATFORM_OK) {
                return rc;
            }
        }
        return ResultCode.PLATFORM_OK;
    }

    /**
     * Parks {@code ns}: PLATFORM_OK; PLATFORM_TIMEOUT, without parking, when that would pass the
     * deadline; PLATFORM_CANCELLED when something ended the timed plan in hand meanwhile.
     */
    private int pause(final long ns, final long deadlineNs) {
        return waited(timed.waitUntil(System.nanoTime() + ns, deadlineNs));
    }

    private static int waited(final int how) {
        return how == TimedOperation.WAITED ? ResultCode.PLATFORM_OK
            : how == TimedOperation.DEADLINE ? ResultCode.PLATFORM_TIMEOUT : ResultCode.PLATFORM_CANCELLED;
    }

    /**
     * A MOVE with a duration (§5.15): the pointer glides from where it is to the point, one step
     * each {@link TimedOperation#TICK_NS}, each at the position the time since the start gives, so
     * it arrives {@code durationNs} after the start. With a button held the steps are a drag's, so
     * the drag still gets its pause to begin ({@link DragPacer}) and its rest before the release.
     */
    private int glide(final int xQ8, final int yQ8, final long durationNs, final long deadlineNs) {
        final int x0 = InputBackend.pixelOfQ8(pointerXQ8);
        final int y0 = InputBackend.pixelOfQ8(pointerYQ8);
        final int x1 = InputBackend.pixelOfQ8(xQ8);
        final int y1 = InputBackend.pixelOfQ8(yQ8);
        final boolean dragging = (ledger.buttons() & (Button.LEFT | Button.MIDDLE | Button.RIGHT)) != 0;
        final long begin = dragging ? drag.gapNs(System.nanoTime()) : 0; // a drag's pause to begin comes first
        if (System.nanoTime() + begin + durationNs - deadlineNs >= 0) {
            return ResultCode.PLATFORM_TIMEOUT; // it could not arrive in time: nothing moves
        }
        final int begun = begin > 0 ? pause(begin, deadlineNs) : ResultCode.PLATFORM_OK;
        if (begun != ResultCode.PLATFORM_OK) {
            return begun;
        }
        final long start = System.nanoTime();
        long next = start + Math.min(TimedOperation.TICK_NS, durationNs);
        long elapsed = 0;
        while (elapsed < durationNs) {
            final int rc = waited(timed.waitUntil(next, deadlineNs));
            if (rc != ResultCode.PLATFORM_OK) {
                return rc;
            }
            final long now = System.nanoTime();
            elapsed = now - start;
            final int x = TimedOperation.at(x0, x1, elapsed, durationNs);
            final int y = TimedOperation.at(y0, y1, elapsed, durationNs);
            int moved = backend.movePointer(x, y);
            if (moved == ResultCode.PLATFORM_OK) {
                moved = backend.flush();
            }
            if (moved != ResultCode.PLATFORM_OK) {
                return moved;
            }
            pointerXQ8 = x == x1 ? xQ8 : x * RectQ8.ONE;
            pointerYQ8 = y == y1 ? yQ8 : y * RectQ8.ONE;
            if (dragging) {
                drag.moved(now);
            }
            next = Math.max(now, Math.min(next + TimedOperation.TICK_NS, start + durationNs));
        }
        return ResultCode.PLATFORM_OK;
    }

    /**
     * A SCROLL with a duration (§5.15): its wheel steps spread evenly over the time, the first at
     * the start and the last at its end, so the scrolling lasts as long as its lease.
     */
    private int spreadScroll(final int dxQ8, final int dyQ8, final long durationNs, final long deadlineNs) {
        final int stepsX = InputBackend.wheelSteps(dxQ8);
        final int stepsY = InputBackend.wheelSteps(dyQ8);
        final int n = Math.max(1, Math.max(stepsX, stepsY));
        final long start = System.nanoTime();
        if (start + durationNs - deadlineNs >= 0) {
            return ResultCode.PLATFORM_TIMEOUT;
        }
        final int oneX = dxQ8 > 0 ? RectQ8.ONE : -RectQ8.ONE;
        final int oneY = dyQ8 > 0 ? RectQ8.ONE : -RectQ8.ONE;
        for (int i = 0; i < n; i++) {
            final long due = n == 1 ? start : start + durationNs * i / (n - 1);
            final int rc = waited(timed.waitUntil(due, deadlineNs));
            if (rc != ResultCode.PLATFORM_OK) {
                return rc;
            }
            final int x = (int) ((long) stepsX * (i + 1) / n - (long) stepsX * i / n);
            final int y = (int) ((long) stepsY * (i + 1) / n - (long) stepsY * i / n);
            int scrolled = x == 0 && y == 0 ? ResultCode.PLATFORM_OK : backend.scroll(x * oneX, y * oneY);
            if (scrolled == ResultCode.PLATFORM_OK) {
                scrolled = backend.flush();
            }
            if (scrolled != ResultCode.PLATFORM_OK) {
                return scrolled;
            }
        }
        return ResultCode.PLATFORM_OK;
    }

    /**
     * A button press; the plan's first waits out the double-click time of an earlier plan's press
     * nearby ({@link MultiClickGuard}), or fails with PLATFORM_TIMEOUT, before any event, when
     * that wait would pass the deadline.
     */
    private int press(final int button, final long deadlineNs) {
        final int x = InputBackend.pixelOfQ8(pointerXQ8);
        final int y = InputBackend.pixelOfQ8(pointerYQ8);
        if (firstPress) {
            firstPress = false;
            final long now = System.nanoTime();
            final long wait = clicks.waitNs(button, x, y, now, backend.doubleClickTimeMs(), backend.doubleClickDistancePx());
            if (wait > 0) {
                if (now + wait - deadlineNs >= 0) {
                    return ResultCode.PLATFORM_TIMEOUT;
                }
                backend.flush(); // what came before the press (a move) is not held back by the wait
                final int rc = pause(wait, deadlineNs);
                if (rc != ResultCode.PLATFORM_OK) {
                    return rc;
                }
            }
        }
        final int rc = backend.button(button, true);
        if (rc == ResultCode.PLATFORM_OK) {
            clicks.pressed(button, x, y, System.nanoTime());
            arrival.pressed(button);
        }
        return rc;
    }

    /**
     * Waits until the buttons this plan released are up in the platform's pointer ({@link PointerArrival}):
     * PLATFORM_OK; PLATFORM_TIMEOUT when a release is still queued after {@link PointerArrival#WAIT_NS}
     * or at the deadline. Each look is a round trip, so what went out before it has been processed or queued.
     */
    private int awaitPointer(final long deadlineNs) {
        if (!arrival.pending()) {
            return ResultCode.PLATFORM_OK;
        }
        final long until = System.nanoTime() + PointerArrival.WAIT_NS;
        while (true) {
            final int rc = backend.queryPointer(seen);
            if (rc != ResultCode.PLATFORM_OK) {
                arrival.clear();
                return rc;
            }
            if (arrival.arrived(seen)) {
                return ResultCode.PLATFORM_OK;
            }
            if (System.nanoTime() - until >= 0) {
                arrival.clear();
                return ResultCode.PLATFORM_TIMEOUT;
            }
            final int paused = pause(PointerArrival.POLL_NS, deadlineNs);
            if (paused != ResultCode.PLATFORM_OK) {
                arrival.clear();
                return paused;
            }
        }
    }

    /**
     * The focus click of a TEXT action reached the X server, but the window manager and the
     * toolkit move keyboard focus after it, asynchronously: keys sent at once can reach the window
     * focused before. Wait until the target's window is active, at most {@link #FOCUS_WAIT_NS}
     * (a window that takes focus differently, e.g. a modal child, is then typed into anyway).
     */
    private void awaitActive(final long windowId, final long deadlineNs) {
        if (windowId == 0 || backend.activeWindow() == -1) {
            return;
        }
        final long until = Math.min(System.nanoTime() + FOCUS_WAIT_NS, deadlineNs);
        while (backend.activeWindow() != windowId && System.nanoTime() - until < 0) {
            LockSupport.parkNanos(500_000);
        }
    }

    private void complete(final long planId, final int code, final long executed) {
        final int result = code == ResultCode.PLATFORM_OK ? ResultCode.OK : ResultCode.fromPlatform(code);
        final PlanCompletionFlyweight c = completion.wrap(completionBuffer, 0).clear();
        c.planId(planId).result(result).platformError(code == ResultCode.PLATFORM_OK ? 0 : ResultCode.platformErrorFor(result))
            .completedActions(result == ResultCode.OK ? 1 : 0)
            .failedActionIndex(result == ResultCode.OK ? AgentAbi.NO_FAILED_ACTION : 0)
            .commandsExecuted(executed);
        writePhysicalState(c.physicalState());
        while (!side.tryPublishCompletion(c)) {
            LockSupport.parkNanos(10_000); // the owner drains completions every tick
        }
    }

    private void writePhysicalState(final PhysicalStateFlyweight p) {
        p.pointer(pointerXQ8, pointerYQ8)
            .buttons(ledger.buttons() & (Button.LEFT | Button.RIGHT | Button.MIDDLE))
            .modifiers(ledger.modifiers())
            .activeLeaseId(ledger.activeLeaseId())
            .permissionEpoch(1)
            .physicalSequence(ledger.physicalSequence())
            .flags(ledger.flags())
            .userModifiers(userModifiers);
    }
}
