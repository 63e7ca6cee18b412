package dev.saccade.owner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.owner.action.SemanticInvoker;
import dev.saccade.owner.scene.SceneStore;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.ActionResultFlyweight;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.TargetCapability;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The focus gate's planning (D21): which plans TEXT and keys get for what the application
 * answers about its focus. The answers are scripted (pure logic); the desktop proof that text
 * lands in the aimed field is {@code cli}'s {@code FocusedTypingDesktopTest}.
 */
class FocusGateTest {
    private static final int NOT_FOCUSED = SemanticInvoker.FOCUSABLE;
    private static final int FOCUSED = SemanticInvoker.FOCUSABLE | SemanticInvoker.FOCUSED;

    private SceneStore store;
    private RecordingExecutor executor;
    private AgentService service;
    private AgentSession session;
    private final ArrayDeque<Integer> answers = new ArrayDeque<>();
    private int asked;
    private long nowNs = 1_000_000_000L;
    private final BytesStore<?, byte[]> response = BytesStore.wrap(new byte[AgentAbi.MAX_MESSAGE_BYTES]);

    @BeforeEach
    void start() {
        store = FixtureF.store();
        // both targets take text: the key guard follows clicks on editable targets
        FixtureF.publish(store, t -> t.capabilityBits(0x143 | TargetCapability.TEXT), packet -> new dev.saccade.protocol.TargetFlyweight()
            .wrap(packet.bytes(), packet.recordAt(0)).capabilityBits(0x143 | TargetCapability.TEXT));
        store.adoptPending();
        executor = new RecordingExecutor();
        service = new AgentService(store, executor, new SemanticInvoker() {
            @Override
            public boolean handles(final long targetId) {
                return targetId == 11 || targetId == 12;
            }

            @Override
            public CompletableFuture<Integer> invoke(final long targetId, final long deadlineNs) {
                return CompletableFuture.completedFuture(ResultCode.PLATFORM_UNSUPPORTED);
            }

            @Override
            public CompletableFuture<Integer> focusState(final long targetId, final long deadlineNs) {
                asked++;
                return CompletableFuture.completedFuture(answers.size() > 1 ? answers.poll() : answers.peek());
            }
        });
        session = new AgentSession().reset(0, 77);
        assertEquals(56, service.onFrame(session, BytesStore.wrap(Requests.hello(1, 0x17)), 0, 48, response, 0,
            response.capacity(), nowNs));
    }

    @AfterEach
    void stop() {
        store.close();
    }

    /** One action's row, the owner's clock moving 1 ms per tick. */
    private int single(final Batches b) {
        final byte[] frame = b.batch(x -> x.header().flags(0)).build();
        final BytesStore<?, byte[]> req = BytesStore.wrap(frame);
        int n = service.onFrame(session, req, 0, frame.length, response, 0, response.capacity(), nowNs);
        while (n == AgentService.PARKED) {
            nowNs += 1_000_000L;
            n = service.onParkedTick(session, req, 0, response, 0, response.capacity(), nowNs);
        }
        assertTrue(n > 0, "answered");
        final ActionCompletionFlyweight c = new ActionCompletionFlyweight().wrap(response, 0);
        assertEquals(1, c.actionResultCount());
        return new ActionResultFlyweight().wrap(response, ActionCompletionFlyweight.LENGTH).result();
    }

    private static Batches text(final String s) {
        final byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        return Batches.of().payload(utf8).action(a -> a.kind(ActionKind.TEXT).targetId(11).buttonBits(Button.LEFT)
            .payloadSize(utf8.length));
    }

    @Test
    void textWaitsForTheFocusAfterItsClickThenTypes() {
        answers.addAll(List.of(NOT_FOCUSED, NOT_FOCUSED, NOT_FOCUSED, FOCUSED));
        assertEquals(ResultCode.OK, single(text("abc")));
        assertEquals(List.of(List.of("plan lease=0", "move 250,300", "down 1", "up 1", "end 0"),
            List.of("plan lease=0", "text abc", "end 0")), executor.plans);
        assertEquals(4, asked, "before the click, then until focused");
    }

    @Test
    void textOnAFocusedTargetIsTypedWithoutAFocusClick() {
        answers.add(FOCUSED);
        assertEquals(ResultCode.OK, single(text("abc")));
        assertEquals(List.of(List.of("plan lease=0", "text abc", "end 0")), executor.plans);
    }

    @Test
    void focusThatNeverArrivesIsFocusChangedAndNothingIsTyped() {
        answers.add(NOT_FOCUSED);
        final long before = nowNs;
        assertEquals(ResultCode.FOCUS_CHANGED, single(text("abc")));
        assertEquals(List.of(List.of("plan lease=0", "move 250,300", "down 1", "up 1", "end 0")), executor.plans);
        assertTrue(nowNs - before >= 2_000_000_000L, "waited the focus wait out");
    }

    @Test
    void aTargetItsApplicationNoLongerHasIsNotFoundAndNothingIsTyped() {
        answers.add(ResultCode.PLATFORM_NOT_FOUND);
        assertEquals(ResultCode.TARGET_NOT_FOUND, single(text("abc")));
        assertTrue(executor.plans.isEmpty());
    }

    @Test
    void anApplicationThatCannotSayGetsTheClickAndTheTextInOnePlan() {
        answers.add(ResultCode.PLATFORM_UNSUPPORTED);
        assertEquals(ResultCode.OK, single(text("abc")));
        assertEquals(List.of(List.of("plan lease=0", "move 250,300", "down 1", "up 1", "text abc", "end 0")),
            executor.plans);
    }

    @Test
    void aTargetThatNeverHoldsTheFocusItselfGetsTheClickAndTheTextInOnePlan() {
        answers.add(0); // editable, not focusable: a document body whose paragraph takes the focus
        assertEquals(ResultCode.OK, single(text("abc")));
        assertEquals(List.of(List.of("plan lease=0", "move 250,300", "down 1", "up 1", "text abc", "end 0")),
            executor.plans);
        assertEquals(1, asked);
    }

    @Test
    void aKeyAfterAClickWaitsForTheClickedTargetsFocusOrFails() {
        answers.addAll(List.of(NOT_FOCUSED, FOCUSED));
        assertEquals(ResultCode.OK, single(Batches.of().action(a -> a.kind(ActionKind.CLICK).targetId(12).buttonBits(Button.LEFT))));
        assertEquals(ResultCode.OK, single(Batches.of().action(a -> a.kind(ActionKind.KEY_CHORD).keyUsage(0x04)
            .modifiers(Modifier.CONTROL))));
        assertEquals(2, asked);
        assertEquals(List.of("plan lease=0", "modifiers down 2", "key down 0x4", "key up 0x4", "modifiers up 2", "end 0"),
            executor.lastPlan());
        assertEquals(ResultCode.OK, single(Batches.of().action(a -> a.kind(ActionKind.KEY).keyUsage(0x04))));
        assertEquals(2, asked, "the focus arrived: later keys do not ask");

        answers.clear();
        answers.add(NOT_FOCUSED);
        assertEquals(ResultCode.OK, single(Batches.of().action(a -> a.kind(ActionKind.CLICK).targetId(12).buttonBits(Button.LEFT))));
        final int plans = executor.plans.size();
        assertEquals(ResultCode.FOCUS_CHANGED, single(Batches.of().action(a -> a.kind(ActionKind.KEY).keyUsage(0x04))));
        assertEquals(plans, executor.plans.size(), "no key sent");
    }

    @Test
    void aWindowActivationBetweenTheClickAndTheKeyEndsTheWait() {
        answers.add(NOT_FOCUSED);
        assertEquals(ResultCode.OK, single(Batches.of().action(a -> a.kind(ActionKind.CLICK).targetId(12).buttonBits(Button.LEFT))));
        assertEquals(ResultCode.OK, single(Batches.of().action(a -> a.kind(ActionKind.WINDOW_CYCLE))));
        assertEquals(ResultCode.OK, single(Batches.of().action(a -> a.kind(ActionKind.KEY).keyUsage(0x04))));
        assertEquals(0, asked, "no question: the focus went where the cycle put it");
    }

    @Test
    void aKeyAfterAClickOnATargetThatTakesNoFocusGoesAtOnce() {
        answers.add(0);
        assertEquals(ResultCode.OK, single(Batches.of().action(a -> a.kind(ActionKind.CLICK).targetId(12).buttonBits(Button.LEFT))));
        assertEquals(ResultCode.OK, single(Batches.of().action(a -> a.kind(ActionKind.KEY).keyUsage(0x04))));
        assertEquals(1, asked);
    }
}
