package dev.saccade.owner.helper;

import dev.saccade.ipc.link.CompletionHandler;
import dev.saccade.ipc.link.HeldInputLedger;
import dev.saccade.ipc.link.OwnerLifeline;
import dev.saccade.ipc.link.OwnerSide;
import dev.saccade.owner.action.InputExecutor;
import dev.saccade.owner.action.PlanWriter;
import dev.saccade.protocol.Button;
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
 * <p>The helper may be replaced (it was killed; see {@link InputHelperLauncher}): the launcher
 * then hands over a new link and lifeline with {@link #attach(OwnerSide, OwnerLifeline)}, and the
 * owner thread adopts them at its next call, so the object the agent service holds stays the same.
 * While no live helper is attached, {@link #available()} is false; batches wait for one while
 * {@link #expected()}, and answer EXECUTOR_LOST past their deadline or once none will come (D5).
 *
 * <p>Owner thread only, except {@link #attach()}, {@link #attach(OwnerSide, OwnerLifeline)} and
 * {@link #adoptedIncarnation()} (the launcher's thread).
 */
public final class ShmInputExecutor implements InputExecutor, PlanWriter, CompletionHandler {
    /**
     * A helper silent this long is treated as gone: it beats every millisecond or so while busy,
     * once a second in the long parks of an idle helper.
     */
    public static final long HEARTBEAT_TIMEOUT_NS = 2_000_000_000L;
    private static final int DONE_SLOTS = 64;

    /** One helper incarnation's link; the newest is handed to the owner thread through {@link #offered}. */
    private static final class Incarnation {
        final OwnerSide link;
        final OwnerLifeline lifeline;
        final long number;
        volatile boolean attached;

        Incarnation(final OwnerSide link, final OwnerLifeline lifeline, final long number, final boolean attached) {
            this.link = link;
            this.lifeline = lifeline;
            this.number = number;
            this.attached = attached;
        }
    }

    private final HeldInputLedger adoptedLedger = new HeldInputLedger();
    private final HeldInputLedger liveLedger = new HeldInputLedger();
    private final HeldInputLedger ledgerCopy = new HeldInputLedger()
        .wrap(BytesStore.nativeStoreWithFixedCapacity(HeldInputLedger.LENGTH), 0);
    private final PhysicalStateFlyweight outState = new PhysicalStateFlyweight();
    private final PhysicalStateFlyweight adoptedState = new PhysicalStateFlyweight();
    /** Written by the launcher's thread; only ever moves to a newer incarnation. */
    private volatile Incarnation offered;
    /** Whether a helper is on its way while none is available (the launcher's word; D5). */
    private volatile boolean expected = true;
    /** The number of the incarnation the owner thread uses (its older ones are no longer touched). */
    private volatile long adopted;
    /** Owner thread: the incarnation in use. */
    private Incarnation current;
    private final BytesStore<?, Void> staging = BytesStore.nativeStoreWithFixedCapacity(ActionPlanFlyweight.MAX_PLAN_BYTES);
    private final ActionPlanEncoder encoder = new ActionPlanEncoder();
    private final BytesStore<?, Void> lastPhysical = BytesStore.nativeStoreWithFixedCapacity(PhysicalStateFlyweight.LENGTH);
    private final long[] doneIds = new long[DONE_SLOTS];
    private final int[] doneCodes = new int[DONE_SLOTS];
    private long nextPlanId = 1;
    /** Runs on the owner thread after each completed plan; set once before the owner starts. */
    private Runnable afterInput = () -> { };
    private boolean planOpen;
    private static final long BEAT_INTERVAL_NS = 10_000_000L;
    private long lastBeatNs;
    /** Plan ids below this went to a helper that is gone; owner thread. */
    private long lostBelow;
    /** The helper's long park we last rang the doorbell for (once per park); owner thread. */
    private long rungPark;

    public ShmInputExecutor(final OwnerSide link, final OwnerLifeline lifeline) {
        this.current = new Incarnation(link, lifeline, 1, false);
        this.offered = current;
        this.adopted = 1;
        lastPhysical.zeroOut(0, PhysicalStateFlyweight.LENGTH);
        new PhysicalStateFlyweight().wrap(lastPhysical, 0).permissionEpoch(1).physicalSequence(1);
    }

    /** The helper passed the lifeline handshake: plans may flow. */
    public void attach() {
        offered.attached = true;
    }

    /**
     * Launcher's thread: a replacement helper passed its handshake on a new link and lifeline;
     * the owner thread switches to them at its next call.
     *
     * @return the new incarnation's number: once {@link #adoptedIncarnation()} reaches it, the
     *     owner thread no longer touches any older link, which may then be closed.
     */
    public long attach(final OwnerSide link, final OwnerLifeline lifeline) {
        final Incarnation next = new Incarnation(link, lifeline, offered.number + 1, true);
        offered = next;
        return next.number;
    }

    /**
     * Launcher's thread: whether a helper will (re)attach. False once the launcher gave up
     * (a deliberate stop, too many restarts, closing): batches then answer EXECUTOR_LOST at once.
     */
    public void expect(final boolean willAttach) {
        expected = willAttach;
    }

    @Override
    public boolean expected() {
        return expected;
    }

    /**
     * What to do after the helper completed a plan: scrolling, typing or clicking changes what is
     * on screen without an event every source hears (AT-SPI reports no scrolled extents), so the
     * service asks its sources to look again.
     */
    public void afterInput(final Runnable action) {
        afterInput = action;
    }

    /** At most one beat every {@value #BEAT_INTERVAL_NS} ns: a shared cache line, not every tick. */
    @Override
    public void heartbeat(final long nowNs) {
        if (nowNs - lastBeatNs >= BEAT_INTERVAL_NS) {
            lastBeatNs = nowNs;
            incarnation().link.beat(nowNs);
        }
    }

    public boolean attached() {
        return offered.attached;
    }

    /** The incarnation the owner thread uses now (any thread). */
    public long adoptedIncarnation() {
        return adopted;
    }

    /** The owner thread's incarnation, switching to the newest offered one first. */
    private Incarnation incarnation() {
        final Incarnation o = offered;
        if (o != current) {
            current = o;
            adopted = o.number;
            rungPark = 0; // a new helper numbers its parks afresh
            lostBelow = nextPlanId; // plans sent to the lost helper never complete
            // The replacement released what its predecessor held at its start: nothing is held,
            // and its ledger has the physical sequence that release produced.
            final PhysicalStateFlyweight state = adoptedState.wrap(lastPhysical, 0);
            final long sequence = adoptedLedger.wrap(o.link.ledgerStore(), o.link.ledgerOffset()).physicalSequence();
            state.buttons(0).modifiers(0).activeLeaseId(0).flags(0).userModifiers(0)
                .physicalSequence(Math.max(sequence, state.physicalSequence() + 1));
            // The new link's owner heartbeat is still its creation time, seconds old once its
            // helper has started; the next beat is due up to BEAT_INTERVAL_NS after the last one
            // on the old link. Adopted by a batch's first check, the HOLD sent next would find its
            // helper holding with the owner "silent" for seconds, and it would release at once
            // (docs/architecture.md, "Release paths of held input"). So beat the new link now.
            lastBeatNs = System.nanoTime();
            o.link.beat(lastBeatNs);
        }
        return current;
    }

    @Override
    public boolean available() {
        final Incarnation i = incarnation();
        return i.attached && !i.lifeline.pollHelperGone()
            && System.nanoTime() - i.link.helperHeartbeatNs() < HEARTBEAT_TIMEOUT_NS;
    }

    @Override
    public boolean physicalState(final BytesStore<?, ?> out, final long at) {
        final Incarnation inc = incarnation();
        inc.link.pollCompletions(this, DONE_SLOTS);
        out.write(at, lastPhysical, 0, PhysicalStateFlyweight.LENGTH);
        // The helper also releases without a plan (user input, owner silence, topology): what is
        // held now is in the shared ledger, read as one stable copy.
        if (liveLedger.wrap(inc.link.ledgerStore(), inc.link.ledgerOffset()).copyStableTo(ledgerCopy)) {
            outState.wrap(out, at)
                .buttons(ledgerCopy.buttons() & (Button.LEFT | Button.RIGHT | Button.MIDDLE))
                .modifiers(ledgerCopy.modifiers())
                .activeLeaseId(ledgerCopy.activeLeaseId())
                .physicalSequence(ledgerCopy.physicalSequence())
                .flags(ledgerCopy.flags());
        }
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
        final Incarnation inc = incarnation();
        if (length < 0 || !inc.link.tryPublishPlan(staging, 0, length)) {
            return 0; // too big or the ring is full: the batch answers EXECUTOR_LOST, nothing sent
        }
        wakeHelper(inc);
        return nextPlanId++;
    }

    @Override
    public int poll(final long planId) {
        incarnation().link.pollCompletions(this, DONE_SLOTS);
        final int slot = (int) (planId & (DONE_SLOTS - 1));
        if (doneIds[slot] == planId) {
            return doneCodes[slot];
        }
        return planId < lostBelow ? LOST : PENDING;
    }

    @Override
    public int releaseAll() {
        incarnation().link.cancelOperation(); // a timed operation in hand ends now, not after its time (§5.15)
        encoder.wrap(staging, 0, staging.capacity()).header(nextPlanId, Long.MAX_VALUE, 0, 0, 0, 1, 0);
        encoder.releaseAll(0).actionEnd(0);
        final int length = encoder.finish();
        final Incarnation inc = incarnation();
        if (length < 0 || !inc.link.tryPublishPlan(staging, 0, length)) {
            return ResultCode.PLATFORM_BACKEND;
        }
        wakeHelper(inc);
        nextPlanId++;
        return ResultCode.PLATFORM_OK;
    }

    /**
     * After a publish: a helper idle for a while parks for long stretches (nothing held), so ring
     * its doorbell, once per park. A helper that polls (the usual case during a task) costs one
     * fenced read here.
     */
    private void wakeHelper(final Incarnation inc) {
        final long park = inc.link.helperParked();
        if (park != 0 && park != rungPark) {
            rungPark = park;
            inc.lifeline.ringHelper();
        }
    }

    // ---- completions ----

    @Override
    public void onCompletion(final PlanCompletionFlyweight completion) {
        afterInput.run(); // input likely changed what is on screen: sources should look again
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
    public void move(final int xQ8, final int yQ8, final long durationNs) {
        encoder.move(0, xQ8, yQ8, durationNs);
    }

    @Override
    public void buttonDown(final int button, final long leaseNs) {
        encoder.buttonDown(0, button, leaseNs);
    }

    @Override
    public void scroll(final int dxQ8, final int dyQ8, final long durationNs) {
        encoder.scroll(0, dxQ8, dyQ8, durationNs);
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
    public void text(final BytesStore<?, ?> store, final long at, final int length, final long windowId) {
        encoder.text(0, store, at, length, windowId);
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
