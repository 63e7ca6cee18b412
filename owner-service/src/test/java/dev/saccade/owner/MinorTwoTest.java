package dev.saccade.owner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.desktop.TargetIds;
import dev.saccade.owner.action.SemanticInvoker;
import dev.saccade.owner.scene.SceneStore;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionFlag;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.ActionResultFlag;
import dev.saccade.protocol.ActionResultFlyweight;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.HeaderFlyweight;
import dev.saccade.protocol.PreconditionFlag;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TargetState;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * API 0x00010002 on the real AgentService and planner (agent-abi §5.3, §5.14, D39–D42): the
 * Hello's version binds the connection; a WINDOW read names a background window with its own
 * owner and dispositions; explicit-window actions run through accessibility behind, are refused
 * at coordinates unless allowed, and after an activation act only on a fresh scene of the same
 * window — never on another window, never at the old coordinates. A 0x00010001 connection sees
 * none of it (conformance cases 58–61 of agent-abi §6).
 */
class MinorTwoTest {
    private static final long FRONT = 7;
    private static final long BACK = 9;
    private static final long BACK_PROCESS = 900;
    private static final long BUTTON = TargetIds.ACCESSIBILITY_NAMESPACE | 1;
    private static final long CELL = TargetIds.GRID_NAMESPACE | 2;

    private SceneStore store;
    private RecordingExecutor executor;
    private AgentService service;
    private final List<String> invoked = new ArrayList<>();
    private long nowNs = 1_000_000_000L;
    private final BytesStore<?, byte[]> response = BytesStore.wrap(new byte[AgentAbi.MAX_MESSAGE_BYTES]);

    @BeforeEach
    void start() {
        store = FixtureF.store();
        publish(FRONT, BACK_PROCESS, 0, true);
        executor = new RecordingExecutor();
        service = new AgentService(store, executor, new SemanticInvoker() {
            @Override
            public boolean handles(final long targetId) {
                return targetId == BUTTON;
            }

            @Override
            public CompletableFuture<Integer> invoke(final long targetId, final long deadlineNs) {
                invoked.add("invoke " + targetId);
                return CompletableFuture.completedFuture(ResultCode.PLATFORM_OK);
            }
        });
    }

    @AfterEach
    void stop() {
        store.close();
    }

    /**
     * Fixture F (window 7 active, process 700) plus background window 9 of {@code backProcess}
     * holding an accessible button (covered by window 7) and a grid cell {@code cellShift} px right.
     */
    private void publish(final long active, final long backProcess, final int cellShift, final boolean backPresent) {
        FixtureF.publish(store, t -> { }, p -> {
            if (active != FRONT) {
                p.state(active == BACK ? BACK_PROCESS : 700, active, 8, 9, 500, 500, 400, 300);
            }
            if (!backPresent) {
                return;
            }
            p.addTarget().targetId(TargetIds.window(BACK)).windowId(BACK).displayId(8).bounds(500, 500, 400, 300)
                .safePoint(700, 650).role(Role.WINDOW).sourceBits(SourceBit.GRID)
                .capabilityBits(TargetCapability.WINDOW_ACTIVATE).flags(TargetFlag.ACTIONABLE)
                .states(TargetState.windowFacts(false, backProcess)).order(2);
            p.addTarget().targetId(BUTTON).parentId(TargetIds.window(BACK)).windowId(BACK).displayId(8)
                .bounds(520, 520, 80, 30).safePoint(560, 535).role(Role.BUTTON).sourceBits(SourceBit.ACCESSIBILITY)
                .capabilityBits(TargetCapability.CLICK | TargetCapability.INVOKE | TargetCapability.POINTER_MOVE)
                .flags(TargetFlag.ACTIONABLE | (active == BACK ? 0 : TargetFlag.OCCLUDED)).order(3);
            p.addTarget().targetId(CELL).windowId(BACK).displayId(8).bounds(600 + cellShift, 600, 40, 40)
                .safePoint(620 + cellShift, 620).role(Role.UNKNOWN).sourceBits(SourceBit.GRID)
                .capabilityBits(TargetCapability.CLICK | TargetCapability.POINTER_MOVE)
                .flags(TargetFlag.ACTIONABLE | (active == BACK ? 0 : TargetFlag.OCCLUDED)).order(4);
        });
        store.adoptPending();
    }

    private AgentSession session(final int version) {
        final AgentSession session = new AgentSession().reset(0, 77);
        final byte[] hello = Requests.hello(1, 0x17);
        BytesStore.wrap(hello).writeInt(HeaderFlyweight.API_VERSION_OFFSET, version);
        assertEquals(56, service.onFrame(session, BytesStore.wrap(hello), 0, 48, response, 0, response.capacity(), nowNs));
        assertEquals(version, response.readInt(HeaderFlyweight.API_VERSION_OFFSET), "the Hello's version echoed");
        return session;
    }

    private int send(final AgentSession session, final byte[] frame, final int version) {
        BytesStore.wrap(frame).writeInt(HeaderFlyweight.API_VERSION_OFFSET, version);
        final BytesStore<?, byte[]> req = BytesStore.wrap(frame);
        int n = service.onFrame(session, req, 0, frame.length, response, 0, response.capacity(), nowNs);
        for (int ticks = 0; n == AgentService.PARKED && ticks < 50; ticks++) {
            nowNs += 1_000_000L;
            n = service.onParkedTick(session, req, 0, response, 0, response.capacity(), nowNs);
        }
        return n;
    }

    private CompletionFlyweight observeWindow(final AgentSession session, final long window, final int version) {
        final int n = send(session, Requests.observe(2, o -> {
            o.scope().kind(ScopeKind.WINDOW).stableId(window);
            o.maximumTargets(100);
        }), version);
        assertTrue(n > 0, "answered");
        return new CompletionFlyweight().wrap(response, 0);
    }

    private ActionResultFlyweight act(final AgentSession session, final boolean dryRun, final int kind, final long target,
        final int flags) {
        final byte[] frame = Batches.of().action(a -> a.kind(kind).targetId(target).flags(flags).buttonBits(1))
            .batch(b -> {
                b.header().flags(dryRun ? AgentAbi.FLAG_DRY_RUN : 0);
                b.preconditions().flags(PreconditionFlag.WINDOW | PreconditionFlag.PROCESS).windowId(BACK)
                    .processId(BACK_PROCESS);
            }).build();
        assertTrue(send(session, frame, session.apiVersion()) > 0, "answered");
        assertEquals(session.apiVersion(), response.readInt(HeaderFlyweight.API_VERSION_OFFSET));
        assertEquals(1, new ActionCompletionFlyweight().wrap(response, 0).actionResultCount());
        return new ActionResultFlyweight().wrap(response, ActionCompletionFlyweight.LENGTH);
    }

    @Test
    void aBaseConnectionSeesNoneOfMinorTwo() {
        final AgentSession base = session(AgentAbi.API_VERSION);
        final CompletionFlyweight c = observeWindow(base, BACK, AgentAbi.API_VERSION);
        assertEquals(ResultCode.OK, c.result());
        assertEquals(0, c.targetCount(), "scope 5 is a kind without a name for 0x00010001");
        assertEquals(AgentAbi.API_VERSION, c.header().apiVersion());
        send(base, Batches.of().action(a -> a.kind(ActionKind.INVOKE).targetId(BUTTON).buttonBits(1)
            .flags(ActionFlag.EXPLICIT_WINDOW)).build(), AgentAbi.API_VERSION);
        assertEquals(ResultCode.ACTION_UNSUPPORTED,
            new ActionResultFlyweight().wrap(response, ActionCompletionFlyweight.LENGTH).result(), "flag 0x8 is not its");
        assertEquals(AgentService.CLOSE, send(base, Requests.observe(3, o -> { }), AgentAbi.API_VERSION_1_2),
            "a frame of another version than the Hello's closes the connection");
    }

    @Test
    void aWindowReadNamesTheBackgroundWindowItsOwnerAndOneDispositionPerTarget() {
        final AgentSession s = session(AgentAbi.API_VERSION_1_2);
        final CompletionFlyweight c = observeWindow(s, BACK, AgentAbi.API_VERSION_1_2);
        assertEquals(ResultCode.OK, c.result());
        assertEquals(AgentAbi.API_VERSION_1_2, c.header().apiVersion());
        assertEquals(3, c.targetCount(), "the window's own target, the button, the cell");
        assertEquals(BACK, c.generation().windowId());
        assertEquals(BACK_PROCESS, c.generation().processId());
        assertEquals(FixtureF.SCENE, c.generation().generation());
        assertEquals(BACK, c.scope().stableId());
        assertEquals(500, c.scope().rectXQ8(), "the echoed rect is the window's bounds");
        final TargetFlyweight t = new TargetFlyweight();
        final int[] expected = {TargetFlag.ACTIVATION_REQUIRED, TargetFlag.BACKGROUND_ACTIONABLE, TargetFlag.ACTIVATION_REQUIRED};
        for (int i = 0; i < 3; i++) {
            t.wrap(response, c.targetsOffset() + (long) i * c.targetStride());
            assertEquals(BACK, t.windowId());
            assertEquals(expected[i], t.flags() & TargetFlag.DISPOSITIONS, "target " + i);
        }
        assertEquals(ResultCode.TARGET_NOT_FOUND, observeWindow(s, 1234, AgentAbi.API_VERSION_1_2).result(),
            "a window the scene does not have");
    }

    @Test
    void anExplicitInvokeRunsBehindAndAClickThereNeedsActivation() {
        final AgentSession s = session(AgentAbi.API_VERSION_1_2);
        final ActionResultFlyweight invoke = act(s, false, ActionKind.INVOKE, BUTTON, ActionFlag.EXPLICIT_WINDOW);
        assertEquals(ResultCode.OK, invoke.result());
        assertEquals(ActionResultFlag.BACKGROUND_ACCESSIBILITY, invoke.flags());
        final ActionResultFlyweight click = act(s, false, ActionKind.CLICK, BUTTON, ActionFlag.EXPLICIT_WINDOW);
        assertEquals(ResultCode.OK, click.result(), "a plain left click of an accessible object runs its action");
        assertEquals(List.of("invoke " + BUTTON, "invoke " + BUTTON), invoked);
        assertEquals(ResultCode.ACTIVATION_REQUIRED, act(s, false, ActionKind.CLICK, CELL, ActionFlag.EXPLICIT_WINDOW).result());
        final ActionResultFlyweight dry = act(s, true, ActionKind.CLICK, CELL, ActionFlag.EXPLICIT_WINDOW | ActionFlag.ALLOW_ACTIVATION);
        assertEquals(ResultCode.OK, dry.result());
        assertEquals(ActionResultFlag.WOULD_ACTIVATE, dry.flags());
        assertEquals(ResultCode.TARGET_NOT_FOUND, act(s, false, ActionKind.CLICK, 11, ActionFlag.EXPLICIT_WINDOW).result(),
            "a target of another window is never resolved");
        assertTrue(executor.plans.isEmpty(), "nothing activated, nothing sent: " + executor.plans);
    }

    @Test
    void activationWaitsForAFreshSceneAndClicksAtItsCoordinates() {
        final AgentSession s = session(AgentAbi.API_VERSION_1_2);
        // the window comes to the front, and its cell 10 px further right, when the activation is done
        executor.onSubmit = () -> {
            if (executor.plans.size() == 1) {
                publish(BACK, BACK_PROCESS, 10 * 256, true);
            }
        };
        final ActionResultFlyweight row = act(s, false, ActionKind.CLICK, CELL,
            ActionFlag.EXPLICIT_WINDOW | ActionFlag.ALLOW_ACTIVATION);
        assertEquals(ResultCode.OK, row.result());
        assertEquals(ActionResultFlag.WINDOW_ACTIVATED, row.flags());
        assertEquals(2, executor.plans.size(), executor.plans::toString);
        assertEquals(List.of("plan lease=0", "activate " + BACK, "end 0"), executor.plans.get(0), "the activation alone");
        assertEquals("move " + (620 + 10 * 256) + ",620", executor.plans.get(1).get(1), "the fresh scene's point");
    }

    @Test
    void aWindowThatClosesOrChangesOwnerAfterActivationGetsNoInput() {
        final AgentSession s = session(AgentAbi.API_VERSION_1_2);
        executor.onSubmit = () -> publish(FRONT, BACK_PROCESS, 0, false);
        assertEquals(ResultCode.OUTCOME_UNCONFIRMED, act(s, false, ActionKind.CLICK, CELL,
            ActionFlag.EXPLICIT_WINDOW | ActionFlag.ALLOW_ACTIVATION).result());
        assertEquals(1, executor.plans.size(), "only the activation: " + executor.plans);

        publish(FRONT, BACK_PROCESS, 0, true);
        executor.onSubmit = () -> publish(BACK, 901, 0, true);
        assertEquals(ResultCode.OUTCOME_UNCONFIRMED, act(s, false, ActionKind.CLICK, CELL,
            ActionFlag.EXPLICIT_WINDOW | ActionFlag.ALLOW_ACTIVATION).result());
        assertEquals(2, executor.plans.size(), "only the second activation: " + executor.plans);
    }

    @Test
    void aCoveringWindowInTheFreshSceneRefusesTheInput() {
        final AgentSession s = session(AgentAbi.API_VERSION_1_2);
        // active, but the cell still covered (another window above it)
        executor.onSubmit = () -> FixtureF.publish(store, t -> { }, p -> {
            p.state(BACK_PROCESS, BACK, 8, 9, 500, 500, 400, 300);
            p.addTarget().targetId(TargetIds.window(BACK)).windowId(BACK).displayId(8).bounds(500, 500, 400, 300)
                .role(Role.WINDOW).sourceBits(SourceBit.GRID).flags(TargetFlag.ACTIONABLE)
                .states(TargetState.windowFacts(false, BACK_PROCESS));
            p.addTarget().targetId(CELL).windowId(BACK).displayId(8).bounds(600, 600, 40, 40).safePoint(620, 620)
                .sourceBits(SourceBit.GRID).capabilityBits(TargetCapability.CLICK)
                .flags(TargetFlag.ACTIONABLE | TargetFlag.OCCLUDED);
        });
        final ActionResultFlyweight row = act(s, false, ActionKind.CLICK, CELL,
            ActionFlag.EXPLICIT_WINDOW | ActionFlag.ALLOW_ACTIVATION);
        assertEquals(ResultCode.TARGET_NOT_FOUND, row.result());
        assertEquals(1, executor.plans.size(), "only the activation: " + executor.plans);
    }
}
