package dev.saccade.owner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.owner.scene.SceneStore;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionFlag;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.ActionResultFlyweight;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionValidator;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.PreconditionFlag;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The action batch conformance cases of spec §6 (33–54) against fixture F, through
 * {@link AgentService} with the planner. The executor records the plans the planner asks for:
 * this proves the planning logic; the input helper's tests prove the input on a real X server.
 */
class ActionPlannerTest {
    private SceneStore store;
    private RecordingExecutor executor;
    private AgentService service;
    private AgentSession session;
    private final BytesStore<?, byte[]> response = BytesStore.wrap(new byte[AgentAbi.MAX_MESSAGE_BYTES]);

    @BeforeEach
    void start() {
        store = FixtureF.store();
        FixtureF.publish(store);
        store.adoptPending();
        executor = new RecordingExecutor();
        service = new AgentService(store, executor, null);
        session = new AgentSession().reset(0, 77);
        assertEquals(56, service.onFrame(session, BytesStore.wrap(Requests.hello(1, 0x17)), 0, 48, response, 0,
            response.capacity(), 1));
    }

    @AfterEach
    void stop() {
        store.close();
    }

    private ActionCompletionFlyweight run(final byte[] frame) {
        final BytesStore<?, byte[]> req = BytesStore.wrap(frame);
        store.adoptPending();
        int n = service.onFrame(session, req, 0, frame.length, response, 0, response.capacity(), 1);
        while (n == AgentService.PARKED) {
            store.adoptPending();
            n = service.onParkedTick(session, req, 0, response, 0, response.capacity(), 1);
        }
        assertTrue(n > 0, "answered");
        final byte[] reply = Arrays.copyOf(response.underlyingObject(), n);
        assertEquals(CompletionValidator.VALID,
            new CompletionValidator().validate(Bytes.wrapForRead(reply), 0, n, AgentAbi.ACTION_COMPLETION));
        return new ActionCompletionFlyweight().wrap(BytesStore.wrap(reply), 0);
    }

    private static ActionResultFlyweight row(final ActionCompletionFlyweight c, final int i) {
        return new ActionResultFlyweight().wrap(c.bytes(), 192 + 48L * i);
    }

    private static Batches click(final long target) {
        return Batches.of().action(a -> a.kind(ActionKind.CLICK).targetId(target).buttonBits(Button.LEFT));
    }

    private int single(final Batches b) {
        final ActionCompletionFlyweight c = run(b.build());
        assertEquals(1, c.actionResultCount());
        return row(c, 0).result();
    }

    private Batches live(final Batches b) {
        return b.batch(x -> x.header().flags(0));
    }

    @Test
    void dryRunClickIsCheckedAndEmitsNothing() {
        final ActionCompletionFlyweight c = run(click(12).batch(b -> b.preconditions()
            .flags(PreconditionFlag.GENERATION | PreconditionFlag.PROCESS | PreconditionFlag.WINDOW
                | PreconditionFlag.DISPLAY | PreconditionFlag.TRANSFORM | PreconditionFlag.PERMISSION)
            .generation(42).processId(700).windowId(7).displayId(8).transformEpoch(46).permissionEpoch(9)).build());
        assertEquals(ResultCode.OK, c.result());
        assertEquals(1, c.completedActionCount());
        assertEquals(AgentAbi.NO_FAILED_ACTION, c.failedActionIndex());
        assertEquals(42, c.validatedGeneration());
        assertEquals(12, row(c, 0).resolvedTargetId());
        assertEquals(240, c.totalSize());
        assertEquals(9, c.physicalState().permissionEpoch());
        assertTrue(executor.plans.isEmpty(), "DRY_RUN emits nothing");
    }

    @Test
    void mismatchedPreconditionsAreStaleAndNothingIsPlanned() {
        for (final java.util.function.Consumer<dev.saccade.protocol.PreconditionsFlyweight> p : List.<java.util.function.Consumer<dev.saccade.protocol.PreconditionsFlyweight>>of(
            x -> x.flags(PreconditionFlag.WINDOW).windowId(6),
            x -> x.flags(PreconditionFlag.DISPLAY).displayId(9),
            x -> x.flags(PreconditionFlag.GENERATION).generation(41),
            x -> x.flags(PreconditionFlag.PHYSICAL_STATE).physicalSequence(2))) {
            final ActionCompletionFlyweight c = run(live(click(12)).batch(b -> p.accept(b.preconditions())).build());
            assertEquals(ResultCode.STALE_GENERATION, c.result());
            assertEquals(192, c.totalSize());
            assertEquals(AgentAbi.NO_FAILED_ACTION, c.failedActionIndex());
        }
        assertTrue(executor.plans.isEmpty());
    }

    @Test
    void liveClickPlansMoveModifiersAndRepeatedClicks() {
        final ActionCompletionFlyweight c = run(live(Batches.of().action(a -> a.kind(ActionKind.CLICK).targetId(12)
            .buttonBits(Button.LEFT).repeatCount(2).modifiers(Modifier.SHIFT | Modifier.CONTROL))).build());
        assertEquals(ResultCode.OK, c.result());
        assertEquals(List.of("plan lease=0", "move 250,300", "modifiers down 3", "down 1", "up 1", "down 1", "up 1",
            "modifiers up 3", "end 0"), executor.lastPlan());
    }

    @Test
    void explicitPointsMustLieInsideTheTarget() {
        final Batches inside = Batches.of().action(a -> a.kind(ActionKind.INVOKE).targetId(11).buttonBits(Button.LEFT)
            .flags(ActionFlag.EXPLICIT_POINTS).point(150, 250));
        assertEquals(ResultCode.OK, single(live(inside)));
        assertEquals("move 150,250", executor.lastPlan().get(1));
        for (final int x : new int[] {99, 400}) {
            final int plans = executor.plans.size();
            assertEquals(ResultCode.TARGET_NOT_FOUND, single(live(Batches.of().action(a -> a.kind(ActionKind.INVOKE)
                .targetId(11).buttonBits(Button.LEFT).flags(ActionFlag.EXPLICIT_POINTS).point(x, 250)))));
            assertEquals(plans, executor.plans.size(), "no dispatch");
        }
    }

    @Test
    void aDragsFirstStepIsTwelvePixelsTowardsTheDropOrAllOfAShorterWay() {
        final int px = dev.saccade.protocol.RectQ8.ONE;
        assertEquals(12 * px, dev.saccade.owner.action.ActionPlanner.stepTowards(100 * px, 400 * px));
        assertEquals(-12 * px, dev.saccade.owner.action.ActionPlanner.stepTowards(400 * px, 100 * px));
        assertEquals(5 * px, dev.saccade.owner.action.ActionPlanner.stepTowards(100 * px, 105 * px));
        assertEquals(0, dev.saccade.owner.action.ActionPlanner.stepTowards(100 * px, 100 * px));
    }

    @Test
    void holdThenReleaseLeavesNothingHeldAndTheLeaseIsTheConnections() {
        final ActionCompletionFlyweight c = run(live(Batches.of()
            .action(a -> a.kind(ActionKind.HOLD).targetId(11).buttonBits(Button.LEFT))
            .action(a -> a.kind(ActionKind.RELEASE).buttonBits(Button.LEFT))).build());
        // the RELEASE is checked against what the batch's own HOLD left held (spec case 37)
        assertEquals(ResultCode.OK, c.result());
        assertEquals(2, c.completedActionCount());
        assertEquals(List.of("plan lease=77", "move 250,300", "down 1", "end 0"), executor.plans.get(0));
        assertEquals(List.of("plan lease=0", "up 1", "end 1"), executor.plans.get(1), "the release ends the lease");
        executor.physical.buttons(Button.LEFT).activeLeaseId(77);
        final ActionCompletionFlyweight released = run(live(Batches.of()
            .action(a -> a.kind(ActionKind.RELEASE).buttonBits(Button.LEFT))).build());
        assertEquals(ResultCode.OK, released.result());
        assertEquals(List.of("plan lease=0", "up 1", "end 0"), executor.lastPlan(), "nothing is left held under the lease");
    }

    @Test
    void aButtonHeldEarlierInTheBatchCannotBePressedAgain() {
        final int plans = executor.plans.size();
        for (final int kind : new int[] {ActionKind.HOLD, ActionKind.CLICK, ActionKind.INVOKE}) {
            final ActionCompletionFlyweight c = run(live(Batches.of().batch(x -> x.policy(AgentAbi.POLICY_CONTINUE_ON_FAILURE))
                .action(a -> a.kind(ActionKind.HOLD).targetId(11).buttonBits(Button.LEFT))
                .action(a -> a.kind(kind).targetId(12).buttonBits(Button.LEFT))
                .action(a -> a.kind(ActionKind.CLICK).targetId(12).buttonBits(Button.RIGHT))
                .action(a -> a.kind(ActionKind.RELEASE).buttonBits(Button.LEFT))).build());
            assertEquals(ResultCode.INVALID_MESSAGE, row(c, 1).result(), ActionKind.name(kind) + " of the held button");
            assertEquals(ResultCode.OK, row(c, 2).result(), "another button may be clicked meanwhile");
            assertEquals(ResultCode.OK, row(c, 3).result(), "and the held one released");
        }
        assertEquals(plans + 9, executor.plans.size(), "no plan for a refused press");
        executor.physical.buttons(Button.LEFT).activeLeaseId(77); // held by an earlier batch of ours
        for (final Batches b : List.of(click(12),
            Batches.of().action(a -> a.kind(ActionKind.DRAG_DROP).targetId(12).secondaryTargetId(11).buttonBits(Button.LEFT)),
            Batches.of().action(a -> a.kind(ActionKind.HOLD).targetId(12).buttonBits(Button.LEFT)))) {
            assertEquals(ResultCode.INVALID_MESSAGE, single(live(b)));
        }
        assertEquals(plans + 9, executor.plans.size());
    }

    @Test
    void dryRunChecksEachActionAgainstWhatTheEarlierOnesWouldLeaveHeld() {
        final ActionCompletionFlyweight c = run(Batches.of().batch(x -> x.policy(AgentAbi.POLICY_CONTINUE_ON_FAILURE))
            .action(a -> a.kind(ActionKind.HOLD).targetId(11).buttonBits(Button.LEFT))
            .action(a -> a.kind(ActionKind.HOLD).targetId(12).buttonBits(Button.LEFT))
            .action(a -> a.kind(ActionKind.RELEASE).buttonBits(Button.LEFT))
            .action(a -> a.kind(ActionKind.RELEASE).buttonBits(Button.LEFT)).build());
        assertEquals(ResultCode.OK, row(c, 0).result());
        assertEquals(ResultCode.INVALID_MESSAGE, row(c, 1).result());
        assertEquals(ResultCode.OK, row(c, 2).result());
        assertEquals(ResultCode.INVALID_MESSAGE, row(c, 3).result(), "released already");
        assertTrue(executor.plans.isEmpty(), "DRY_RUN emits nothing");
    }

    @Test
    void anotherConnectionsLeaseMakesInputRowsStaleButAbortStillReleases() {
        executor.physical.buttons(Button.LEFT).activeLeaseId(5);
        assertEquals(ResultCode.STALE_GENERATION, single(live(click(12))));
        assertEquals(ResultCode.OK, single(live(Batches.of().action(a -> a.kind(ActionKind.ABORT)))));
        assertEquals(1, executor.releases);
        assertEquals(ResultCode.OK, single(Batches.of().action(a -> a.kind(ActionKind.ABORT))));
        assertEquals(1, executor.releases, "DRY_RUN ABORT does nothing (D8)");
    }

    @Test
    void disconnectOfTheLeaseOwnerReleasesHeldInput() {
        executor.physical.buttons(Button.LEFT).activeLeaseId(77);
        service.onDisconnect(session);
        assertEquals(1, executor.releases);
        final AgentSession other = new AgentSession().reset(0, 78);
        service.onFrame(other, BytesStore.wrap(Requests.hello(1, 0x17)), 0, 48, response, 0, response.capacity(), 1);
        executor.physical.activeLeaseId(5);
        service.onDisconnect(other);
        assertEquals(1, executor.releases, "another connection's lease is untouched");
    }

    @Test
    void shapeCapabilityAndPlanRulesGiveTheirRows() {
        assertEquals(ResultCode.ACTION_UNSUPPORTED, single(Batches.of().action(a -> a.kind(ActionKind.HOLD).targetId(11)
            .buttonBits(Button.LEFT).durationNs(1))));
        assertEquals(ResultCode.ACTION_UNSUPPORTED, single(Batches.of().action(a -> a.kind(ActionKind.KEY).keyUsage(4)
            .flags(ActionFlag.EXPLICIT_POINTS))));
        assertEquals(ResultCode.ACTION_UNSUPPORTED, single(Batches.of().action(a -> a.kind(ActionKind.ABORT).targetId(5))));
        assertEquals(ResultCode.ACTION_UNSUPPORTED, single(Batches.of().action(a -> a.kind(17))));
        assertEquals(ResultCode.ACTION_UNSUPPORTED, single(Batches.of().payload(new byte[] {1})
            .action(a -> a.kind(ActionKind.CLICK).targetId(12).buttonBits(1).payloadSize(1))));
        assertEquals(ResultCode.INVALID_MESSAGE, single(Batches.of().action(a -> a.kind(ActionKind.CLICK).targetId(12)
            .buttonBits(Button.LEFT).repeatCount(17))));
        assertEquals(ResultCode.INVALID_MESSAGE, single(Batches.of().action(a -> a.kind(ActionKind.CLICK).targetId(12)
            .buttonBits(0x3))));
        assertEquals(ResultCode.INVALID_MESSAGE, single(Batches.of().action(a -> a.kind(ActionKind.KEY).keyUsage(0))));
        assertEquals(ResultCode.INVALID_MESSAGE, single(Batches.of().action(a -> a.kind(ActionKind.SCROLL).targetId(12))));
        assertEquals(ResultCode.INVALID_MESSAGE, single(Batches.of().action(a -> a.kind(ActionKind.CLICK).targetId(12)
            .buttonBits(Button.LEFT).modifiers(0x10))));
        assertEquals(ResultCode.INVALID_MESSAGE, single(Batches.of().action(a -> a.kind(ActionKind.RELEASE)
            .buttonBits(Button.LEFT))));
        assertEquals(ResultCode.OK, single(Batches.of().action(a -> a.kind(ActionKind.CLICK).targetId(12)
            .buttonBits(Button.LEFT).repeatCount(0))), "repeat 0 acts as 1");
        // case 43: TEXT needs KEYBOARD and POINTER in the batch's requested set
        assertEquals(ResultCode.CAPABILITY_DENIED, single(Batches.of().payload(new byte[] {'a'})
            .batch(b -> b.requestedCapabilityBits(Capability.KEYBOARD))
            .action(a -> a.kind(ActionKind.TEXT).targetId(11).buttonBits(Button.LEFT).payloadSize(1))));
    }

    @Test
    void targetsMustExistBeActionableAndNotSecure() {
        assertEquals(ResultCode.TARGET_NOT_FOUND, single(click(99)));
        FixtureF.publish(store, t12 -> t12.flags(TargetFlag.ACTIONABLE | TargetFlag.SECURE), p -> { });
        assertEquals(ResultCode.SECURE_SURFACE, single(click(12)));
        for (final int flags : new int[] {TargetFlag.ACTIONABLE | TargetFlag.DISABLED,
            TargetFlag.ACTIONABLE | TargetFlag.OCCLUDED, 0}) {
            FixtureF.publish(store, t12 -> t12.flags(flags), p -> { });
            assertEquals(ResultCode.TARGET_NOT_FOUND, single(click(12)));
        }
        FixtureF.publish(store, t12 -> t12.capabilityBits(TargetCapability.POINTER_MOVE), p -> { });
        assertEquals(ResultCode.TARGET_NOT_FOUND, single(click(12)));
    }

    @Test
    void continueOnFailureRunsOnAndStopDoesNot() {
        final Batches two = Batches.of()
            .action(a -> a.kind(ActionKind.CLICK).targetId(99).buttonBits(Button.LEFT))
            .action(a -> a.kind(ActionKind.CLICK).targetId(12).buttonBits(Button.LEFT));
        final ActionCompletionFlyweight cont = run(two.batch(b -> b.policy(AgentAbi.POLICY_CONTINUE_ON_FAILURE)).build());
        assertEquals(2, cont.actionResultCount());
        assertEquals(1, cont.completedActionCount());
        assertEquals(0, cont.failedActionIndex());
        assertEquals(ResultCode.TARGET_NOT_FOUND, cont.result());
        final ActionCompletionFlyweight stop = run(Batches.of()
            .action(a -> a.kind(ActionKind.CLICK).targetId(99).buttonBits(Button.LEFT))
            .action(a -> a.kind(ActionKind.CLICK).targetId(12).buttonBits(Button.LEFT)).build());
        assertEquals(1, stop.actionResultCount());
    }

    @Test
    void aFocusChangeBetweenActionsStopsTheBatchWithoutARowForTheNext() {
        executor.onSubmit = () -> FixtureF.publish(store, t -> { }, p -> p.state(701, 70, 8, 9, 10, 20, 1000, 800));
        final ActionCompletionFlyweight c = run(live(Batches.of()
            .action(a -> a.kind(ActionKind.CLICK).targetId(12).buttonBits(Button.LEFT))
            .action(a -> a.kind(ActionKind.CLICK).targetId(12).buttonBits(Button.LEFT))).build());
        assertEquals(ResultCode.FOCUS_CHANGED, c.result());
        assertEquals(1, c.failedActionIndex());
        assertEquals(1, c.actionResultCount());
        assertEquals(1, executor.plans.size(), "the second action never dispatched");

        FixtureF.publish(store); // back to fixture F's foreground
        executor.onSubmit = () -> FixtureF.publish(store); // same foreground, a newer scene epoch
        final ActionCompletionFlyweight stale = run(live(Batches.of()
            .action(a -> a.kind(ActionKind.CLICK).targetId(12).buttonBits(Button.LEFT))
            .action(a -> a.kind(ActionKind.CLICK).targetId(12).buttonBits(Button.LEFT))).build());
        assertEquals(ResultCode.STALE_GENERATION, stale.result(), "a new scene epoch between actions");
        assertEquals(1, stale.failedActionIndex());
    }

    @Test
    void textIsAFocusClickThenStrictUtf8WithinItsSlice() {
        // cases 49–53 assume targets with the needed capability: T11 takes text here
        FixtureF.publish(store, t -> { }, packet -> new dev.saccade.protocol.TargetFlyweight()
            .wrap(packet.bytes(), packet.recordAt(0)).capabilityBits(0x143 | TargetCapability.TEXT));
        final byte[] hello = "hello".getBytes(StandardCharsets.UTF_8);
        assertEquals(ResultCode.OK, single(live(Batches.of().payload(hello).action(a -> a.kind(ActionKind.TEXT)
            .targetId(11).buttonBits(Button.LEFT).payloadSize(5)))));
        assertEquals(List.of("plan lease=0", "move 250,300", "down 1", "up 1", "text hello", "end 0"), executor.lastPlan());
        assertEquals(ResultCode.INVALID_MESSAGE, single(Batches.of().payload(new byte[16_385]).action(a -> a.kind(ActionKind.TEXT)
            .targetId(11).buttonBits(Button.LEFT).payloadSize(16_385))));
        assertEquals(ResultCode.ACTION_UNSUPPORTED, single(Batches.of().payload(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80})
            .action(a -> a.kind(ActionKind.TEXT).targetId(11).buttonBits(Button.LEFT).payloadSize(3))));
        assertEquals(ResultCode.INVALID_MESSAGE, single(Batches.of().payload(hello).action(a -> a.kind(ActionKind.TEXT)
            .targetId(11).buttonBits(Button.LEFT).payloadOffset(3).payloadSize(3))));
    }

    @Test
    void keysPressModifiersAroundTheKeyAndRefuseUnlistedUsages() {
        assertEquals(ResultCode.OK, single(live(Batches.of().action(a -> a.kind(ActionKind.KEY).keyUsage(0x04)
            .modifiers(Modifier.SHIFT)))));
        assertEquals(List.of("plan lease=0", "modifiers down 1", "key down 0x4", "key up 0x4", "modifiers up 1", "end 0"),
            executor.lastPlan());
        assertEquals(ResultCode.ACTION_UNSUPPORTED, single(Batches.of().action(a -> a.kind(ActionKind.KEY).keyUsage(0x32))));
    }

    @Test
    void directKindsAndWindowActions() {
        executor.physical.pointer(123, 456).physicalSequence(17);
        final ActionCompletionFlyweight q = run(Batches.of().batch(b -> b.requestedCapabilityBits(Capability.OBSERVE))
            .action(a -> a.kind(ActionKind.QUERY_PHYSICAL_STATE)).build());
        assertEquals(ResultCode.OK, q.result());
        assertEquals(123, q.physicalState().pointerXQ8());
        assertEquals(17, q.physicalState().physicalSequence());
        assertEquals(ResultCode.OK, single(live(Batches.of().batch(b -> b.requestedCapabilityBits(Capability.WINDOW))
            .action(a -> a.kind(ActionKind.WINDOW_CYCLE).flags(ActionFlag.CYCLE_BACKWARD)))));
        assertEquals(List.of("plan lease=0", "cycle backward", "end 0"), executor.lastPlan());
        final int plans = executor.plans.size();
        assertEquals(ResultCode.OK, single(Batches.of().action(a -> a.kind(ActionKind.WINDOW_CYCLE))));
        assertEquals(plans, executor.plans.size(), "DRY_RUN cycles nothing");
        FixtureF.publish(store, t12 -> t12.capabilityBits(TargetCapability.WINDOW_ACTIVATE), p -> { });
        assertEquals(ResultCode.OK, single(live(Batches.of().action(a -> a.kind(ActionKind.WINDOW_ACTIVATE).targetId(12)))));
        assertEquals("activate 7", executor.lastPlan().get(1), "window 0 means the active window");
    }

    @Test
    void aHelperLostMidBatchAnswersExecutorLost() {
        executor.holdPlans = true;
        executor.onSubmit = () -> executor.available = false;
        final ActionCompletionFlyweight c = run(live(click(12)).build());
        assertEquals(ResultCode.EXECUTOR_LOST, c.result());
        assertEquals(ResultCode.EXECUTOR_LOST, row(c, 0).result());
        executor.available = false;
        assertEquals(ResultCode.EXECUTOR_LOST, run(click(12).build()).result(), "no helper: D5");
    }

    @Test
    void aBatchWaitsForAnExpectedHelperWithinItsDeadline() {
        executor.available = false;
        executor.expected = true;
        final byte[] frame = live(click(12)).batch(b -> b.deadlineNs(1_000)).build();
        final BytesStore<?, byte[]> req = BytesStore.wrap(frame);
        store.adoptPending();
        assertEquals(AgentService.PARKED, service.onFrame(session, req, 0, frame.length, response, 0, response.capacity(), 1));
        assertEquals(AgentService.PARKED, service.onParkedTick(session, req, 0, response, 0, response.capacity(), 500),
            "still no helper, deadline ahead: it waits");
        assertTrue(executor.plans.isEmpty(), "nothing sent while it waits");
        executor.available = true; // the helper is back
        final int n = service.onParkedTick(session, req, 0, response, 0, response.capacity(), 600);
        assertTrue(n > 0);
        final ActionCompletionFlyweight done = new ActionCompletionFlyweight()
            .wrap(BytesStore.wrap(Arrays.copyOf(response.underlyingObject(), n)), 0);
        assertEquals(ResultCode.OK, done.result(), ResultCode.name(done.result()));
        assertEquals(1, executor.plans.size(), "the batch ran once the helper attached");

        executor.available = false; // lost again; this time none comes before the deadline
        assertEquals(AgentService.PARKED, service.onFrame(session, req, 0, frame.length, response, 0, response.capacity(), 700));
        final int lost = service.onParkedTick(session, req, 0, response, 0, response.capacity(), 1_000);
        assertEquals(ResultCode.EXECUTOR_LOST, new ActionCompletionFlyweight()
            .wrap(BytesStore.wrap(Arrays.copyOf(response.underlyingObject(), lost)), 0).result());

        assertEquals(AgentService.PARKED, service.onFrame(session, req, 0, frame.length, response, 0, response.capacity(), 1));
        executor.expected = false; // the launcher gave up: no helper will come
        final int gaveUp = service.onParkedTick(session, req, 0, response, 0, response.capacity(), 2);
        assertEquals(ResultCode.EXECUTOR_LOST, new ActionCompletionFlyweight()
            .wrap(BytesStore.wrap(Arrays.copyOf(response.underlyingObject(), gaveUp)), 0).result());
        assertEquals(1, executor.plans.size(), "nothing ran in either");
    }

    @Test
    void verifyNextGenerationIsPendingUntilANewerSceneExists() {
        final ActionCompletionFlyweight pending = run(live(click(12))
            .batch(b -> b.header().flags(AgentAbi.FLAG_VERIFY_NEXT_GENERATION)).build());
        assertEquals(ResultCode.TIMEOUT, pending.result());
        assertEquals(1, pending.completedActionCount());
        assertEquals(AgentAbi.NO_FAILED_ACTION, pending.failedActionIndex());
        executor.onSubmit = () -> FixtureF.publish(store, t -> { }, p -> { });
        // the action's own publication makes 43 visible at the end, not between actions
        final ActionCompletionFlyweight verified = run(live(click(12))
            .batch(b -> b.header().flags(AgentAbi.FLAG_VERIFY_NEXT_GENERATION)).build());
        assertEquals(ResultCode.OK, verified.result());
        assertEquals(AgentAbi.FLAG_NEXT_GENERATION_AVAILABLE, verified.header().flags());
        assertTrue(verified.nextGeneration().generation() > 42);
    }
}
