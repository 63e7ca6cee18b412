package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.protocol.ActionBatchFlyweight;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionFlag;
import dev.saccade.protocol.ActionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.PreconditionFlag;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testdesktop.WithTestDesktop;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Refused batches emit nothing: with the real input helper running, batches that
 * would click a far grid cell but fail a check get their typed answer (or a disconnect) and the
 * X server's pointer stays where a previous live move left it, with no button down.
 */
@WithTestDesktop
class RefusedBatchesEmitNothingDesktopTest {
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void everyRefusedBatchLeavesThePointerAndButtonsAlone(final TestDesktop desktop) throws Exception {
        try (DesktopOwner owner = DesktopOwner.start(desktop, "saccade-refused")) {
            final XPointerProbe probe = owner.probe;
            try (AgentClient client = owner.connect()) {
                final long near = HeldInputReleaseDesktopTest.gridCell(client);
                ok(HeldInputReleaseDesktopTest.batch(client, a -> a.kind(ActionKind.POINTER_MOVE).targetId(near)));
                final int[] before = probe.state();
                final long far = farCell(client);

                assertEquals(ResultCode.STALE_GENERATION, result(client, b -> b.preconditions()
                    .flags(PreconditionFlag.GENERATION).generation(1), a -> click(a, far)));
                assertEquals(ResultCode.TARGET_NOT_FOUND, row(client, a -> click(a, far)
                    .flags(ActionFlag.EXPLICIT_POINTS).point(0, 0)));
                assertEquals(ResultCode.ACTION_UNSUPPORTED, row(client, a -> click(a, far).durationNs(1)));
                assertEquals(ResultCode.CAPABILITY_DENIED, result(client,
                    b -> b.requestedCapabilityBits(Capability.POINTER | Capability.CLIPBOARD), a -> click(a, far)));
                assertArrayEquals(before, probe.state(), "no typed refusal moved the pointer or pressed a button");
            }
            // 65 actions: the service closes the connection (§4.4 #2) and emits nothing
            try (AgentClient client = owner.connect()) {
                final int[] before = probe.state();
                assertThrows(Exception.class, () -> sendBatch(client, 65, b -> { }, a -> click(a, 1)));
                assertArrayEquals(before, probe.state(), "the oversized batch emitted nothing");
            }
        }
    }

    private static ActionFlyweight click(final ActionFlyweight a, final long target) {
        return a.kind(ActionKind.CLICK).targetId(target).buttonBits(Button.LEFT);
    }

    private static void ok(final ActionCompletionFlyweight c) {
        assertEquals(ResultCode.OK, c.result(), ResultCode.name(c.result()));
    }

    /** The bottom-right cell of the same display's 16 × 9 grid (TargetIds.gridCell's layout). */
    private static long farCell(final AgentClient client) throws Exception {
        return (HeldInputReleaseDesktopTest.gridCell(client) & ~0xFFFF_FFFFL) | (8L << 16) | 15;
    }

    private static int result(final AgentClient client, final Consumer<ActionBatchFlyweight> batch,
        final Consumer<ActionFlyweight> action) throws Exception {
        return sendBatch(client, 1, batch, action).result();
    }

    private static int row(final AgentClient client, final Consumer<ActionFlyweight> action) throws Exception {
        final ActionCompletionFlyweight c = sendBatch(client, 1, b -> { }, action);
        assertEquals(1, c.actionResultCount());
        return new dev.saccade.protocol.ActionResultFlyweight().wrap(c.bytes(), c.offset() + 192).result();
    }

    private static ActionCompletionFlyweight sendBatch(final AgentClient client, final int actions,
        final Consumer<ActionBatchFlyweight> batch, final Consumer<ActionFlyweight> action) throws Exception {
        final BytesStore<?, ?> req = client.requestStore();
        final long at = client.requestOffset();
        final int total = ActionBatchFlyweight.LENGTH + actions * ActionFlyweight.LENGTH;
        req.zeroOut(at, at + total);
        final ActionBatchFlyweight b = new ActionBatchFlyweight().wrap(req, at);
        b.header().set(ActionBatchFlyweight.LENGTH, AgentAbi.ACTION_BATCH, 0);
        b.requestId(5).requestedCapabilityBits(Capability.POINTER).policy(AgentAbi.POLICY_STOP_ON_FAILURE)
            .deadlineNs(System.nanoTime() + TimeUnit.SECONDS.toNanos(10)).actionCount(actions)
            .actionStride(ActionFlyweight.LENGTH).actionsOffset(ActionBatchFlyweight.LENGTH)
            .payloadOffset(total).payloadSize(0).totalSize(total);
        for (int i = 0; i < actions; i++) {
            action.accept(new ActionFlyweight().wrap(req, at + ActionBatchFlyweight.LENGTH + (long) i * ActionFlyweight.LENGTH));
        }
        batch.accept(b);
        client.send(total);
        final var reply = client.receive(AgentAbi.ACTION_COMPLETION);
        final BytesStore<?, byte[]> copy = BytesStore.wrap(new byte[reply.length()]);
        copy.write(0, reply.bytes(), reply.offset(), reply.length());
        return new ActionCompletionFlyweight().wrap(copy, 0);
    }
}
