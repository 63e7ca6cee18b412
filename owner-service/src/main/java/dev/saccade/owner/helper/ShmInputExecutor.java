package dev.saccade.owner.helper;

import dev.saccade.ipc.link.CompletionHandler;
import dev.saccade.ipc.link.OwnerLifeline;
import dev.saccade.ipc.link.OwnerSide;
import dev.saccade.owner.action.InputExecutor;
import dev.saccade.owner.action.PlanWriter;
import dev.saccade.protocol.PhysicalStateFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.plan.ActionPlanEncoder;
import dev.saccade.protocol.plan.ActionPlanFlyweight;
import dev.saccade.protocol.plan.PlanCompletionFlyweight;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Plans over the shared-memory link to the input helper. Each plan carries one batch action
 * (plan-local action index 0); its completion carries the helper's physical state, kept here as
 * the state the next batch is checked against. Available only while the helper is attached, its
 * lifeline open and its heartbeat fresh.
 *
 * <p>Owner thread only, except {@link #attach()} (the launcher's thread).
 */
public final class ShmInputExecutor implements InputExecutor, PlanWriter, CompletionHandler {
    /** A helper silent this long is treated as gone (it beats every few milliseconds). */
    public static final long HEARTBEAT_TIMEOUT_NS = 1_000_000_000L;
    private static final int DONE_SLOTS = 64;

    private final OwnerSide link;
    private final OwnerLifeline lifeline;
    private final BytesStore<?, Void> staging = BytesStore.nativeStoreWithFixedCapacity(ActionPlanFlyweight.MAX_PLAN_BYTES);
    private final ActionPlanEncoder encoder = new ActionPlanEncoder();
    private final BytesStore<?, Void> lastPhysical = BytesStore.nativeStoreWithFixedCapacity(PhysicalStateFlyweight.LENGTH);
    private final long[] doneIds = new long[DONE_SLOTS];
    private final int[] doneCodes = new int[DONE_SLOTS];
    private volatile boolean attached;
    private long nextPlanId = 1;
    private boolean planOpen;

    public ShmInputExecutor(final OwnerSide link, final OwnerLifeline lifeline) {
        this.link = link;
        this.lifeline = lifeline;
        lastPhysical.zeroOut(0, PhysicalStateFlyweight.LENGTH);
        new PhysicalStateFlyweight().wrap(lastPhysical, 0).permissionEpoch(1).physicalSequence(1);
    }

    /** The helper passed the lifeline handshake: plans may flow. */
    public void attach() {
        attached = true;
    }

    public boolean attached() {
        return attached;
    }

    @Override
    public boolean available() {
        return attached && !lifeline.pollHelperGone()
            && System.nanoTime() - link.helperHeartbeatNs() < HEARTBEAT_TIMEOUT_NS;
    }

    @Override
    public boolean physicalState(final BytesStore<?, ?> out, final long at) {
        link.pollCompletions(this, DONE_SLOTS);
        out.write(at, lastPhysical, 0, PhysicalStateFlyweight.LENGTH);
        return true;
    }

    @Override
    public PlanWriter beginPlan(final long deadlineNs, final long validatedGeneration, final long permissionEpoch,
        final long leaseId) {
        encoder.wrap(staging, 0, staging.capacity())
            .header(nextPlanId, deadlineNs, validatedGeneration, permissionEpoch, leaseId, 1,
                leaseId != 0 ? ActionPlanFlyweight.KEEP_HELD : 0);
        planOpen = true;
        return this;
    }

    @Override
    public long submit() {
        if (!planOpen) {
            return 0;
        }
        planOpen = false;
        final int length = encoder.finish();
        if (length < 0 || !link.tryPublishPlan(staging, 0, length)) {
            return 0; // too big or the ring is full: the batch answers EXECUTOR_LOST, nothing sent
        }
        return nextPlanId++;
    }

    @Override
    public int poll(final long planId) {
        link.pollCompletions(this, DONE_SLOTS);
        final int slot = (int) (planId & (DONE_SLOTS - 1));
        return doneIds[slot] == planId ? doneCodes[slot] : PENDING;
    }

    @Override
    public int releaseAll() {
        encoder.wrap(staging, 0, staging.capacity()).header(nextPlanId, Long.MAX_VALUE, 0, 0, 0, 1, 0);
        encoder.releaseAll(0).actionEnd(0);
        final int length = encoder.finish();
        if (length < 0 || !link.tryPublishPlan(staging, 0, length)) {
            return ResultCode.PLATFORM_BACKEND;
        }
        nextPlanId++;
        return ResultCode.PLATFORM_OK;
    }

    // ---- completions ----

    @Override
    public void onCompletion(final PlanCompletionFlyweight completion) {
        final long id = completion.planId();
        final int slot = (int) (id & (DONE_SLOTS - 1));
        doneIds[slot] = id;
        doneCodes[slot] = completion.result() == ResultCode.OK ? ResultCode.PLATFORM_OK : completion.platformError();
        lastPhysical.write(0, completion.bytes(), completion.physicalState().offset(), PhysicalStateFlyweight.LENGTH);
    }

    @Override
    public void onInvalidCompletion(final long planId, final int verdict) {
        if (planId != 0) {
            final int slot = (int) (planId & (DONE_SLOTS - 1));
            doneIds[slot] = planId;
            doneCodes[slot] = ResultCode.PLATFORM_BACKEND; // a misbehaving helper
        }
    }

    // ---- the plan's commands (one action per plan: plan-local index 0) ----

    @Override
    public void move(final int xQ8, final int yQ8) {
        encoder.move(0, xQ8, yQ8);
    }

    @Override
    public void buttonDown(final int button) {
        encoder.buttonDown(0, button);
    }

    @Override
    public void buttonUp(final int button) {
        encoder.buttonUp(0, button);
    }

    @Override
    public void modifiersDown(final int modifiers) {
        if (modifiers != 0) {
            encoder.modifiersDown(0, modifiers);
        }
    }

    @Override
    public void modifiersUp(final int modifiers) {
        if (modifiers != 0) {
            encoder.modifiersUp(0, modifiers);
        }
    }

    @Override
    public void keyDown(final int usage) {
        encoder.keyDown(0, usage);
    }

    @Override
    public void keyUp(final int usage) {
        encoder.keyUp(0, usage);
    }

    @Override
    public void scroll(final int dxQ8, final int dyQ8) {
        encoder.scroll(0, dxQ8, dyQ8);
    }

    @Override
    public void text(final BytesStore<?, ?> store, final long at, final int length) {
        encoder.text(0, store, at, length);
    }

    @Override
    public void windowActivate(final long windowId) {
        encoder.windowActivate(0, windowId);
    }

    @Override
    public void windowCycle(final boolean backward) {
        encoder.windowCycle(0, backward);
    }

    @Override
    public void actionEnd(final int index) {
        encoder.actionEnd(0);
    }
}
