package dev.saccade.owner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.owner.action.SemanticInvoker;
import dev.saccade.owner.scene.SceneStore;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionFlag;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.ActionResultFlag;
import dev.saccade.protocol.ActionResultFlyweight;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.HelloFlag;
import dev.saccade.protocol.HelloRequestFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TargetState;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The semantic kinds SET_VALUE and SELECT and the window facts (§2, §5.8, D25) on the real
 * AgentService and planner: only a connection that asked for them gets them; the planner checks
 * them like INVOKE and hands them to the semantic invoker, never to the input helper; a client
 * of the base ABI sees what it saw before (conformance case 57 of agent-abi §6).
 */
class SemanticActionsTest {
    private SceneStore store;
    private RecordingExecutor executor;
    private AgentService service;
    private final List<String> calls = new ArrayList<>();
    private long nowNs = 1_000_000_000L;
    private final BytesStore<?, byte[]> response = BytesStore.wrap(new byte[AgentAbi.MAX_MESSAGE_BYTES]);

    @BeforeEach
    void start() {
        store = FixtureF.store();
        // T11 an editable accessible field, T12 a window of process 4321, minimized
        FixtureF.publish(store, t -> t.role(Role.WINDOW).states(TargetState.windowFacts(true, 4321)),
            packet -> new TargetFlyweight().wrap(packet.bytes(), packet.recordAt(0))
                .capabilityBits(0x143 | TargetCapability.TEXT));
        store.adoptPending();
        executor = new RecordingExecutor();
        service = new AgentService(store, executor, new SemanticInvoker() {
            @Override
            public boolean handles(final long targetId) {
                return targetId == 11;
            }

            @Override
            public CompletableFuture<Integer> invoke(final long targetId, final long deadlineNs) {
                return done("invoke " + targetId);
            }

            @Override
            public CompletableFuture<Integer> setText(final long targetId, final String text, final long deadlineNs) {
                return done("text " + targetId + " " + text);
            }

            @Override
            public CompletableFuture<Integer> setNumber(final long targetId, final double value, final long deadlineNs) {
                return done("number " + targetId + " " + value);
            }

            @Override
            public CompletableFuture<Integer> select(final long targetId, final long deadlineNs) {
                return done("select " + targetId);
            }

            @Override
            public CompletableFuture<Integer> selectChild(final long targetId, final int childIndex, final long deadlineNs) {
                return done("select " + targetId + " child " + childIndex);
            }
        });
    }

    private CompletableFuture<Integer> done(final String call) {
        calls.add(call);
        return CompletableFuture.completedFuture(ResultCode.PLATFORM_OK);
    }

    @AfterEach
    void stop() {
        store.close();
    }

    private AgentSession session(final int helloFlags) {
        final AgentSession session = new AgentSession().reset(0, 77);
        final byte[] hello = Requests.hello(1, 0x17);
        BytesStore.wrap(hello).writeInt(HelloRequestFlyweight.FLAGS_OFFSET, helloFlags);
        assertEquals(56, service.onFrame(session, BytesStore.wrap(hello), 0, 48, response, 0, response.capacity(), nowNs));
        return session;
    }

    /** One action's row (result and flags). */
    private ActionResultFlyweight single(final AgentSession session, final Batches b) {
        final byte[] frame = b.batch(x -> x.header().flags(0)).build();
        final BytesStore<?, byte[]> req = BytesStore.wrap(frame);
        int n = service.onFrame(session, req, 0, frame.length, response, 0, response.capacity(), nowNs);
        while (n == AgentService.PARKED) {
            nowNs += 1_000_000L;
            n = service.onParkedTick(session, req, 0, response, 0, response.capacity(), nowNs);
        }
        assertTrue(n > 0, "answered");
        assertEquals(1, new ActionCompletionFlyweight().wrap(response, 0).actionResultCount());
        return new ActionResultFlyweight().wrap(response, ActionCompletionFlyweight.LENGTH);
    }

    private static Batches action(final int kind, final long target, final int flags, final String payload) {
        final byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
        return Batches.of().payload(bytes).action(a -> a.kind(kind).targetId(target).flags(flags).payloadSize(bytes.length));
    }

    @Test
    void theSemanticKindsRunThroughTheInvokerWithTheSemanticRowFlag() {
        final AgentSession s = session(HelloFlag.SEMANTIC_ACTIONS);
        ActionResultFlyweight row = single(s, action(ActionKind.SET_VALUE, 11, 0, "hello"));
        assertEquals(ResultCode.OK, row.result());
        assertEquals(ActionResultFlag.SEMANTIC, row.flags());
        assertEquals(ResultCode.OK, single(s, action(ActionKind.SET_VALUE, 11, ActionFlag.VALUE_NUMBER, "-4.5e1")).result());
        assertEquals(ResultCode.OK, single(s, action(ActionKind.SELECT, 11, 0, "")).result());
        assertEquals(ResultCode.OK, single(s, action(ActionKind.SELECT, 11, 0, "3")).result());
        assertEquals(List.of("text 11 hello", "number 11 -45.0", "select 11", "select 11 child 3"), calls);
        assertTrue(executor.plans.isEmpty(), "no input: " + executor.plans);
    }

    @Test
    void theSemanticKindsAreCheckedLikeAnyAction() {
        final AgentSession s = session(HelloFlag.SEMANTIC_ACTIONS);
        assertEquals(ResultCode.INVALID_MESSAGE, single(s, action(ActionKind.SET_VALUE, 11, ActionFlag.VALUE_NUMBER, "NaN")).result());
        assertEquals(ResultCode.INVALID_MESSAGE, single(s, action(ActionKind.SET_VALUE, 11, ActionFlag.VALUE_NUMBER, "0x10")).result());
        assertEquals(ResultCode.INVALID_MESSAGE, single(s, action(ActionKind.SELECT, 11, 0, "-1")).result());
        assertEquals(ResultCode.TARGET_NOT_FOUND, single(s, action(ActionKind.SET_VALUE, 99, 0, "x")).result());
        assertEquals(ResultCode.ACTION_UNSUPPORTED, single(s, action(ActionKind.SELECT, 11, ActionFlag.VALUE_NUMBER, "")).result());
        // T12 is no accessible object: nothing to call, and no input instead
        assertEquals(ResultCode.ACTION_UNSUPPORTED, single(s, action(ActionKind.SELECT, 12, 0, "")).result());
        assertTrue(calls.isEmpty(), calls::toString);
        assertTrue(executor.plans.isEmpty(), executor.plans::toString);
    }

    @Test
    void withoutTheHelloFlagTheKindsHaveNoNameAndRowsNoFlags() {
        final AgentSession s = session(HelloFlag.EXTENDED_ROLES | HelloFlag.TARGET_STATES);
        assertEquals(ResultCode.ACTION_UNSUPPORTED, single(s, action(ActionKind.SET_VALUE, 11, 0, "hello")).result());
        assertEquals(ResultCode.ACTION_UNSUPPORTED, single(s, action(ActionKind.SELECT, 11, 0, "")).result());
        final ActionResultFlyweight invoked = single(s, Batches.of().action(a -> a.kind(ActionKind.INVOKE).targetId(11).buttonBits(1)));
        assertEquals(ResultCode.OK, invoked.result());
        assertEquals(0, invoked.flags(), "the base ABI's rows carry flags 0");
        assertEquals(List.of("invoke 11"), calls);
    }

    @Test
    void windowFactsGoOnlyToAConnectionThatAskedForThem() throws Exception {
        assertEquals(0, windowStates(session(0)));
        assertEquals(0, windowStates(session(HelloFlag.TARGET_STATES)), "target states hold no window facts");
        final int facts = windowStates(session(HelloFlag.WINDOW_FACTS));
        assertEquals(TargetState.MINIMIZED, facts & TargetState.MINIMIZED);
        assertEquals(4321, TargetState.processId(facts));
    }

    private int windowStates(final AgentSession session) throws Exception {
        final byte[] observe = Requests.observe(2, o -> o.maximumTargets(10));
        assertTrue(service.onFrame(session, BytesStore.wrap(observe), 0, observe.length, response, 0, response.capacity(),
            nowNs) > 0);
        final CompletionFlyweight c = new CompletionFlyweight().wrap(response, 0);
        return new TargetFlyweight().wrap(response, c.targetsOffset() + c.targetStride()).states();
    }
}
