package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.owner.OwnerService;
import dev.saccade.protocol.ActionBatchFlyweight;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.ObserveRequestFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Nothing an agent does can leave input held: a button held by HOLD is released, as the
 * X server itself reports, when its connection goes away, on ABORT from another connection, and
 * when the input helper is told to stop (SIGTERM).
 */
@WithTestDesktop
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HeldInputReleaseDesktopTest {
    private DesktopOwner owner;
    private OwnerService service;
    private XPointerProbe probe;
    private TestDesktop desktop;

    @BeforeEach
    void start(final TestDesktop testDesktop) throws Exception {
        desktop = testDesktop;
        owner = DesktopOwner.start(testDesktop, "saccade-release");
        service = owner.service;
        probe = owner.probe;
    }

    @AfterEach
    void stop() throws Exception {
        if (owner != null) {
            owner.close();
        }
    }

    @Test
    void aClientThatDisconnectsMidHoldLeavesNothingHeld() throws Exception {
        try (AgentClient client = connect()) {
            hold(client);
            assertTrue(probe.leftHeld(), "the X server holds the button");
        }
        assertTrue(probe.awaitLeftReleased(System.nanoTime() + TimeUnit.SECONDS.toNanos(5)) > 0,
            "released when its connection went away");
    }

    @Test
    void abortFromAnotherConnectionReleasesAnotherConnectionsHold() throws Exception {
        try (AgentClient holder = connect(); AgentClient other = connect()) {
            hold(holder);
            assertTrue(probe.leftHeld());
            // a click from the other connection is refused: the lease is the holder's
            final long cell = gridCell(other);
            final ActionCompletionFlyweight refused = batch(other, a -> a.kind(ActionKind.CLICK).targetId(cell)
                .buttonBits(Button.LEFT));
            assertEquals(ResultCode.STALE_GENERATION, refused.result());
            assertTrue(probe.leftHeld(), "nothing of the refused click reached X");
            final ActionCompletionFlyweight abort = batch(other, a -> a.kind(ActionKind.ABORT));
            assertEquals(ResultCode.OK, abort.result());
            assertTrue(probe.awaitLeftReleased(System.nanoTime() + TimeUnit.SECONDS.toNanos(5)) > 0, "ABORT released it");
        }
    }

    @Test
    void realUserInputReleasesSyntheticInputAndTheOwnerReportsIt() throws Exception {
        final Process list = desktop.configure(new ProcessBuilder("xinput", "list", "--id-only", "Xvfb keyboard")).start();
        final long keyboard = Long.parseLong(new String(list.getInputStream().readAllBytes()).trim());
        assertTrue(list.waitFor(10, TimeUnit.SECONDS));
        try (AgentClient client = connect()) {
            hold(client);
            final ActionCompletionFlyweight before = query(client);
            assertTrue(probe.leftHeld());
            try (dev.saccade.helper.backend.xtest.XvfbDeviceInput user =
                     dev.saccade.helper.backend.xtest.XvfbDeviceInput.open(desktop.display(), keyboard)) {
                user.key(50, true); // a real device's Shift: the user touched the keyboard
                user.key(50, false);
            }
            assertTrue(probe.awaitLeftReleased(System.nanoTime() + TimeUnit.SECONDS.toNanos(5)) > 0,
                "the user's input released the synthetic hold");
            // no plan ran, yet the owner's view follows the shared ledger
            final ActionCompletionFlyweight after = Await.probe(() -> query(client),
                q -> (q.physicalState().flags() & dev.saccade.protocol.PhysicalFlag.USER_OVERRIDE) != 0,
                Duration.ofSeconds(5), q -> "USER_OVERRIDE reported; flags 0x" + Integer.toHexString(q.physicalState().flags()));
            assertEquals(0, after.physicalState().buttons());
            assertEquals(0, after.physicalState().activeLeaseId());
            assertTrue(after.physicalState().physicalSequence() > before.physicalState().physicalSequence(),
                "physical_sequence advanced");
        }
    }

    private static ActionCompletionFlyweight query(final AgentClient client) throws Exception {
        final ActionCompletionFlyweight c = batch(client, a -> a.kind(ActionKind.QUERY_PHYSICAL_STATE), Capability.OBSERVE);
        assertEquals(ResultCode.OK, c.result(), ResultCode.name(c.result()));
        return c;
    }

    @Test
    void aDisplayTopologyChangeReleasesHeldInput() throws Exception {
        try (AgentClient client = connect()) {
            hold(client);
            assertTrue(probe.leftHeld());
            final Process xrandr = desktop.configure(new ProcessBuilder("xrandr", "--setmonitor", "saccade-left",
                "960/254x1080/286+0+0", "none")).redirectErrorStream(true).start();
            try {
                assertTrue(xrandr.waitFor(10, TimeUnit.SECONDS) && xrandr.exitValue() == 0, "xrandr --setmonitor");
                assertTrue(probe.awaitLeftReleased(System.nanoTime() + TimeUnit.SECONDS.toNanos(5)) > 0,
                    "released when the monitor layout changed");
            } finally {
                desktop.configure(new ProcessBuilder("xrandr", "--delmonitor", "saccade-left")).start()
                    .waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void sigtermToTheHelperReleasesWhatItHolds() throws Exception {
        try (AgentClient client = connect()) {
            hold(client);
            assertTrue(probe.leftHeld());
            final long start = System.nanoTime();
            service.inputHelper().process().destroy(); // SIGTERM
            final long released = probe.awaitLeftReleased(start + TimeUnit.SECONDS.toNanos(5));
            assertTrue(released > 0, "released on SIGTERM");
            System.out.printf("helper SIGTERM -> button released in %.1f ms%n", (released - start) / 1e6);
            assertTrue(service.inputHelper().process().waitFor(5, TimeUnit.SECONDS), "the helper exits");
            // and the owner answers batches EXECUTOR_LOST from now on (D5)
            final long cell = gridCell(client);
            final ActionCompletionFlyweight lost = batch(client, a -> a.kind(ActionKind.CLICK).targetId(cell)
                .buttonBits(Button.LEFT));
            assertEquals(ResultCode.EXECUTOR_LOST, lost.result());
        }
    }

    // ---- helpers ----

    private AgentClient connect() throws Exception {
        return owner.connect();
    }

    private void hold(final AgentClient client) throws Exception {
        owner.hold(client);
    }

    /** A grid cell in the middle of the empty desktop. */
    static long gridCell(final AgentClient client) throws Exception {
        return gridCell(client, 70);
    }

    /** Grid cell {@code index} (row-major, 70 is in the middle) of the empty desktop. */
    static long gridCell(final AgentClient client, final int index) throws Exception {
        final CompletionFlyweight c = observeGrid(client);
        assertTrue(c.targetCount() > index);
        return new TargetFlyweight().wrap(c.bytes(), c.offset() + c.targetsOffset() + (long) index * c.targetStride())
            .targetId();
    }

    /** The grid cell whose safe point lies nearest desktop pixel (x, y). */
    static long gridCellNear(final AgentClient client, final int x, final int y) throws Exception {
        final CompletionFlyweight c = observeGrid(client);
        final TargetFlyweight t = new TargetFlyweight();
        long best = 0;
        long bestDistance = Long.MAX_VALUE;
        for (int i = 0; i < c.targetCount(); i++) {
            t.wrap(c.bytes(), c.offset() + c.targetsOffset() + (long) i * c.targetStride());
            final long dx = (t.safePointXQ8() >> 8) - x;
            final long dy = (t.safePointYQ8() >> 8) - y;
            if (dx * dx + dy * dy < bestDistance) {
                bestDistance = dx * dx + dy * dy;
                best = t.targetId();
            }
        }
        return best;
    }

    private static CompletionFlyweight observeGrid(final AgentClient client) throws Exception {
        final BytesStore<?, ?> req = client.requestStore();
        final long at = client.requestOffset();
        req.zeroOut(at, at + ObserveRequestFlyweight.LENGTH);
        final ObserveRequestFlyweight o = new ObserveRequestFlyweight().wrap(req, at);
        o.header().set(ObserveRequestFlyweight.LENGTH, AgentAbi.OBSERVE_REQUEST, 0);
        o.requestId(9).requestedCapabilityBits(Capability.OBSERVE).maximumTargets(200).targetStride(88)
            .totalCapacity(AgentAbi.MAX_MESSAGE_BYTES);
        o.scope().kind(ScopeKind.DESKTOP).sourceMode(SourceMode.GRID);
        o.freshness().policy(FreshnessPolicy.LATEST_VALID);
        client.send(ObserveRequestFlyweight.LENGTH);
        final var reply = client.receive(AgentAbi.OBSERVE_COMPLETION);
        return new CompletionFlyweight().wrap(reply.bytes(), reply.offset());
    }

    /**
     * The owner's physical state once it reports nothing held and no lease, as {buttons, lease}.
     * The helper clears its ledger only after the release was flushed (HeldInputRecorder's order
     * contract: the ledger holds a superset of what the platform holds), so the X server can show
     * the release a moment before the ledger, and so the owner's report, does.
     */
    static long[] awaitNothingHeld(final AgentClient client) throws Exception {
        return Await.probe(() -> {
            final ActionCompletionFlyweight c = batch(client, a -> a.kind(ActionKind.QUERY_PHYSICAL_STATE),
                Capability.OBSERVE);
            assertEquals(ResultCode.OK, c.result(), ResultCode.name(c.result()));
            return new long[] {c.physicalState().buttons(), c.physicalState().activeLeaseId()};
        }, s -> s[0] == 0 && s[1] == 0, Duration.ofSeconds(2), Duration.ofMillis(5),
            s -> "the owner reports nothing held; buttons " + s[0] + ", lease " + s[1]);
    }

    static ActionCompletionFlyweight batch(final AgentClient client, final Consumer<ActionFlyweight> action)
        throws Exception {
        return batch(client, action, Capability.POINTER);
    }

    /**
     * {@link #batch} again while the owner answers EXECUTOR_LOST, for up to {@code timeout}: until
     * the owner thread has adopted a new helper link (D5) a batch meets no executor.
     */
    static ActionCompletionFlyweight batchOnceAdopted(final AgentClient client, final Consumer<ActionFlyweight> action,
        final int requested, final Duration timeout) throws Exception {
        return Await.probe(() -> batch(client, action, requested), done -> done.result() != ResultCode.EXECUTOR_LOST,
            timeout, Duration.ofMillis(10), done -> "a batch the owner's helper takes; last " + ResultCode.name(done.result()));
    }

    /** Waits until {@code service} has restarted its input helper more than {@code restartsBefore} times and attached it. */
    static void awaitReplacementHelper(final OwnerService service, final long restartsBefore, final Duration timeout)
        throws Exception {
        Await.probe(() -> service.inputHelper().restarts() > restartsBefore
                && service.inputHelper().awaitAttached(Duration.ofMillis(100)), Boolean::booleanValue, timeout,
            attached -> "a replacement input helper attached; restarts " + service.inputHelper().restarts()
                + " (before " + restartsBefore + ")");
    }

    static ActionCompletionFlyweight batch(final AgentClient client, final Consumer<ActionFlyweight> action,
        final int requested) throws Exception {
        final BytesStore<?, ?> req = client.requestStore();
        final long at = client.requestOffset();
        final int total = ActionBatchFlyweight.LENGTH + ActionFlyweight.LENGTH;
        req.zeroOut(at, at + total);
        final ActionBatchFlyweight b = new ActionBatchFlyweight().wrap(req, at);
        b.header().set(ActionBatchFlyweight.LENGTH, AgentAbi.ACTION_BATCH, 0);
        b.requestId(5).requestedCapabilityBits(requested).policy(AgentAbi.POLICY_STOP_ON_FAILURE)
            .deadlineNs(System.nanoTime() + TimeUnit.SECONDS.toNanos(10)).actionCount(1)
            .actionStride(ActionFlyweight.LENGTH).actionsOffset(ActionBatchFlyweight.LENGTH)
            .payloadOffset(total).payloadSize(0).totalSize(total);
        action.accept(new ActionFlyweight().wrap(req, at + ActionBatchFlyweight.LENGTH));
        client.send(total);
        final var reply = client.receive(AgentAbi.ACTION_COMPLETION);
        final BytesStore<?, byte[]> copy = BytesStore.wrap(new byte[reply.length()]);
        copy.write(0, reply.bytes(), reply.offset(), reply.length());
        return new ActionCompletionFlyweight().wrap(copy, 0);
    }
}
