package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.protocol.ActionBatchFlyweight;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.ActionResultFlyweight;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testdesktop.WithTestDesktop;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Each action of a batch is checked against the buttons the batch's
 * own earlier actions left held (§5.9), and a button this connection holds is never pressed a
 * second time (D13). The proof is the X server's own pointer state and the rows the socket answers.
 */
@WithTestDesktop
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HeldButtonsInOneBatchDesktopTest {
    private DesktopOwner owner;

    @BeforeEach
    void start(final TestDesktop desktop) throws Exception {
        owner = DesktopOwner.start(desktop, "saccade-held-batch");
    }

    @AfterEach
    void stop() throws Exception {
        if (owner != null) {
            owner.close();
        }
    }

    @Test
    void holdThenReleaseInOneBatchLeavesNothingHeld() throws Exception {
        try (AgentClient client = owner.connect()) {
            final long cell = HeldInputReleaseDesktopTest.gridCell(client);
            final ActionCompletionFlyweight c = batch(client, List.of(
                a -> a.kind(ActionKind.HOLD).targetId(cell).buttonBits(Button.LEFT),
                a -> a.kind(ActionKind.RELEASE).buttonBits(Button.LEFT)));
            assertEquals(ResultCode.OK, c.result(), ResultCode.name(c.result()));
            assertEquals(2, c.completedActionCount());
            assertEquals(ResultCode.OK, row(c, 0));
            assertEquals(ResultCode.OK, row(c, 1));
            assertEquals(0, c.physicalState().buttons());
            assertEquals(0, c.physicalState().activeLeaseId(), "nothing held, no lease");
            assertFalse(owner.probe.leftHeld(), "the X server holds no button");
        }
    }

    @Test
    void aSecondHoldOfTheHeldButtonInTheSameBatchIsRefused() throws Exception {
        try (AgentClient client = owner.connect()) {
            final long a1 = HeldInputReleaseDesktopTest.gridCell(client, 70);
            final long b1 = HeldInputReleaseDesktopTest.gridCell(client, 71);
            final ActionCompletionFlyweight c = batch(client, List.of(
                a -> a.kind(ActionKind.HOLD).targetId(a1).buttonBits(Button.LEFT),
                a -> a.kind(ActionKind.HOLD).targetId(b1).buttonBits(Button.LEFT)));
            assertEquals(ResultCode.OK, row(c, 0));
            assertEquals(ResultCode.INVALID_MESSAGE, row(c, 1), "HOLD of a held button (§5.9)");
            assertEquals(1, c.completedActionCount());
            assertTrue(owner.probe.leftHeld());
            final int[] at = owner.probe.state();
            final ActionCompletionFlyweight released = batch(client, List.of(
                a -> a.kind(ActionKind.RELEASE).buttonBits(Button.LEFT)));
            assertEquals(ResultCode.OK, released.result());
            assertEquals(0, released.physicalState().buttons());
            assertFalse(owner.probe.leftHeld(), "one release lets go of the one press");
            assertEquals(at[0], owner.probe.state()[0], "the refused HOLD did not move the pointer");
        }
    }

    @Test
    void aClickOrDragWithTheHeldButtonSendsNothing() throws Exception {
        try (AgentClient client = owner.connect()) {
            owner.hold(client);
            final long cell = HeldInputReleaseDesktopTest.gridCell(client, 71);
            final long drop = HeldInputReleaseDesktopTest.gridCell(client, 72);
            final int[] before = owner.probe.state();
            for (final Consumer<ActionFlyweight> press : List.<Consumer<ActionFlyweight>>of(
                a -> a.kind(ActionKind.CLICK).targetId(cell).buttonBits(Button.LEFT),
                a -> a.kind(ActionKind.DRAG_DROP).targetId(cell).secondaryTargetId(drop).buttonBits(Button.LEFT))) {
                final ActionCompletionFlyweight c = batch(client, List.of(press));
                assertEquals(ResultCode.INVALID_MESSAGE, c.result(), ResultCode.name(c.result()));
                assertTrue(owner.probe.leftHeld(), "no second press and no release reached X");
                assertEquals(before[0], owner.probe.state()[0], "nor a move");
                assertEquals(Button.LEFT, c.physicalState().buttons(), "still held under the lease");
            }
            final ActionCompletionFlyweight right = batch(client, List.of(
                a -> a.kind(ActionKind.CLICK).targetId(cell).buttonBits(Button.RIGHT),
                a -> a.kind(ActionKind.RELEASE).buttonBits(Button.LEFT)));
            assertEquals(ResultCode.OK, right.result(), "another button may be clicked while one is held");
            assertFalse(owner.probe.leftHeld());
        }
    }

    private static int row(final ActionCompletionFlyweight c, final int i) {
        return new ActionResultFlyweight().wrap(c.bytes(), c.actionResultsOffset() + (long) i * c.actionResultStride())
            .result();
    }

    /** A live CONTINUE_ON_FAILURE batch of {@code actions}; a copy of its completion. */
    private static ActionCompletionFlyweight batch(final AgentClient client, final List<Consumer<ActionFlyweight>> actions)
        throws Exception {
        final BytesStore<?, ?> req = client.requestStore();
        final long at = client.requestOffset();
        final int total = ActionBatchFlyweight.LENGTH + actions.size() * ActionFlyweight.LENGTH;
        req.zeroOut(at, at + total);
        final ActionBatchFlyweight b = new ActionBatchFlyweight().wrap(req, at);
        b.header().set(ActionBatchFlyweight.LENGTH, AgentAbi.ACTION_BATCH, 0);
        b.requestId(6).requestedCapabilityBits(Capability.POINTER).policy(AgentAbi.POLICY_CONTINUE_ON_FAILURE)
            .deadlineNs(System.nanoTime() + TimeUnit.SECONDS.toNanos(10)).actionCount(actions.size())
            .actionStride(ActionFlyweight.LENGTH).actionsOffset(ActionBatchFlyweight.LENGTH)
            .payloadOffset(total).payloadSize(0).totalSize(total);
        for (int i = 0; i < actions.size(); i++) {
            actions.get(i).accept(new ActionFlyweight().wrap(req, at + ActionBatchFlyweight.LENGTH + (long) i * ActionFlyweight.LENGTH));
        }
        client.send(total);
        final var reply = client.receive(AgentAbi.ACTION_COMPLETION);
        final BytesStore<?, byte[]> copy = BytesStore.wrap(new byte[reply.length()]);
        copy.write(0, reply.bytes(), reply.offset(), reply.length());
        return new ActionCompletionFlyweight().wrap(copy, 0);
    }
}
