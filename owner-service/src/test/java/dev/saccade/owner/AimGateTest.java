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
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.TargetFlyweight;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A click aimed again after the pointer reached the target's window (D54): the plans a CLICK
 * gets for what the application answers about where its target lies once it saw the pointer.
 * The answers are scripted (pure logic); the desktop proof, a value typed into the cell clicked,
 * is {@code cli}'s {@code LibreOfficeDocumentsDesktopTest}.
 */
class AimGateTest {
    private SceneStore store;
    private RecordingExecutor executor;
    private AgentService service;
    private AgentSession session;
    private static final int PX = 256;
    /** Where the application says T11 lies once the pointer came, in pixels. */
    private int[] answer;
    private boolean aims = true;
    private final List<Long> askedAtNs = new ArrayList<>();
    private long nowNs = 1_000_000_000L;
    private final BytesStore<?, byte[]> response = BytesStore.wrap(new byte[AgentAbi.MAX_MESSAGE_BYTES]);

    @BeforeEach
    void start() {
        store = FixtureF.store();
        // T11 at 100,200 300x400 pixels (Q8 in the scene), its safe point at 250,300
        FixtureF.publish(store, t -> { }, packet -> new TargetFlyweight().wrap(packet.bytes(), packet.recordAt(0))
            .bounds(100 * PX, 200 * PX, 300 * PX, 400 * PX).safePoint(250 * PX, 300 * PX));
        store.adoptPending();
        executor = new RecordingExecutor();
        service = new AgentService(store, executor, new SemanticInvoker() {
            @Override
            public boolean handles(final long targetId) {
                return targetId == 11;
            }

            @Override
            public CompletableFuture<Integer> invoke(final long targetId, final long deadlineNs) {
                return CompletableFuture.completedFuture(ResultCode.PLATFORM_UNSUPPORTED);
            }

            @Override
            public boolean aimsAfterMove(final long targetId) {
                return aims;
            }

            @Override
            public CompletableFuture<int[]> extents(final long targetId, final long deadlineNs) {
                askedAtNs.add(nowNs);
                return CompletableFuture.completedFuture(answer);
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

    /** A click on T11, the owner's clock moving 1 ms per tick; its row's result. */
    private int click() {
        final byte[] frame = Batches.of().action(a -> a.kind(ActionKind.CLICK).targetId(11).buttonBits(Button.LEFT))
            .batch(x -> x.header().flags(0)).build();
        final BytesStore<?, byte[]> req = BytesStore.wrap(frame);
        final long began = nowNs;
        int n = service.onFrame(session, req, 0, frame.length, response, 0, response.capacity(), nowNs);
        while (n == AgentService.PARKED) {
            nowNs += 1_000_000L;
            n = service.onParkedTick(session, req, 0, response, 0, response.capacity(), nowNs);
        }
        assertTrue(n > 0, "answered");
        askedAtNs.replaceAll(t -> t - began);
        return new ActionResultFlyweight().wrap(response, ActionCompletionFlyweight.LENGTH).result();
    }

    @Test
    void aTargetThatMovedOnceThePointerCameIsPressedWhereItIsNow() {
        answer = new int[] {100, 725, 300, 400}; // its window was 525 px lower than the application had said
        assertEquals(ResultCode.OK, click());
        assertEquals(List.of(List.of("plan lease=0", "move 64000,76800", "end 0"),
            List.of("plan lease=0", "move 64000,236800", "down 1", "up 1", "end 0")), executor.plans);
        assertEquals(1, askedAtNs.size());
        assertTrue(askedAtNs.get(0) >= 25_000_000L, "asked a frame after the move: " + askedAtNs);
    }

    @Test
    void aTargetStillUnderTheScenesPointIsPressedThere() {
        answer = new int[] {110, 210, 300, 400};
        assertEquals(ResultCode.OK, click());
        assertEquals(List.of("plan lease=0", "move 64000,76800", "down 1", "up 1", "end 0"), executor.lastPlan());
    }

    @Test
    void anotherSizeOrNoAnswerLeavesTheScenesPoint() {
        answer = new int[] {100, 725, 30, 40}; // not the object the scene saw
        assertEquals(ResultCode.OK, click());
        assertEquals(List.of("plan lease=0", "move 64000,76800", "down 1", "up 1", "end 0"), executor.lastPlan());
        answer = null; // the application could not say
        assertEquals(ResultCode.OK, click());
        assertEquals(List.of("plan lease=0", "move 64000,76800", "down 1", "up 1", "end 0"), executor.lastPlan());
    }

    @Test
    void anApplicationThatKnowsWhereItsWindowIsGetsOnePlanAndNoQuestion() {
        aims = false;
        answer = new int[] {100, 725, 300, 400};
        assertEquals(ResultCode.OK, click());
        assertEquals(List.of(List.of("plan lease=0", "move 64000,76800", "down 1", "up 1", "end 0")), executor.plans);
        assertTrue(askedAtNs.isEmpty());
    }
}
