package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.owner.OwnerService;
import dev.saccade.owner.helper.InputHelperLauncher;
import dev.saccade.protocol.ActionBatchFlyweight;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A kill -9 of the helper itself, released within 50 ms: the X server does not release
 * XTest input of a client that dies, so when the input helper is killed while it holds a button,
 * the owner releases it over its own X connection from the helper's shared ledger, then starts a
 * replacement helper, which works.
 */
@WithTestDesktop
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class HelperKillDesktopTest {
    /** The goal is 50 ms; asserted with room for a loaded CI machine, the number is printed. */
    private static final double ASSERTED_MS = 500;

    private DesktopOwner owner;
    private OwnerService service;
    private XPointerProbe probe;

    @BeforeEach
    void start(final TestDesktop testDesktop) throws Exception {
        owner = DesktopOwner.start(testDesktop, "saccade-helper-kill");
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
    void killingTheHelperReleasesWhatItHeldAndAReplacementTakesOver() throws Exception {
        final Process first = service.inputHelper().process();
        try (AgentClient client = connect()) {
            hold(client);
            assertTrue(probe.leftHeld(), "the X server holds the button");

            final long killedAt = System.nanoTime();
            first.destroyForcibly(); // SIGKILL: the helper releases nothing itself
            final long released = probe.awaitLeftReleased(killedAt + TimeUnit.SECONDS.toNanos(5));
            assertTrue(released > 0, "the button is still held 5 s after the helper was killed");
            final double ms = (released - killedAt) / 1e6;
            // Spins, without failing: only the printed figure waits for the launcher's note, which
            // follows the release; the release itself is what the test asserts.
            final long logDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            while (service.inputHelper().lastLossReleaseNs() < 0 && Await.before(logDeadline)) {
                Thread.onSpinWait(); // the launcher notes its release time just after the release
            }
            System.out.printf("helper SIGKILL -> button released in %.1f ms (owner-side X release took %.2f ms)%n",
                ms, service.inputHelper().lastLossReleaseNs() / 1e6);
            assertTrue(ms < ASSERTED_MS, "released " + ms + " ms after the kill");

            // a replacement attaches, on a new link, and the same client's next HOLD works again
            final long replacingSince = System.nanoTime();
            HeldInputReleaseDesktopTest.awaitReplacementHelper(service, 0, Duration.ofSeconds(30));
            System.out.printf("replacement helper attached %.0f ms after the release%n",
                (System.nanoTime() - replacingSince) / 1e6);
            assertNotEquals(first.pid(), service.inputHelper().process().pid(), "a new helper process");
            assertTrue(service.inputHelper().process().isAlive());
            assertFalse(probe.leftHeld(), "the replacement's start-up release left nothing held");
            hold(client);
            assertTrue(probe.leftHeld(), "the replacement holds the button");
        }
        // the client closed mid-hold: its lease is released through the replacement helper
        final long closedAt = System.nanoTime();
        final long released = probe.awaitLeftReleased(closedAt + TimeUnit.SECONDS.toNanos(5));
        assertTrue(released > 0, "released by the replacement when the client went away");
        System.out.printf("replacement: client close -> button released in %.1f ms%n", (released - closedAt) / 1e6);
    }

    /**
     * The helper killed mid-batch: a batch that holds the left button and then taps a
     * key 240 times is in the helper's hands when the X server first reports the button down;
     * the helper is killed right then. The batch answers EXECUTOR_LOST with fewer actions
     * completed than sent, and the owner releases the button. A kill can land just after the
     * last tap (the batch then completes OK): that attempt is undone and repeated, within the
     * launcher's restart budget.
     */
    @Test
    void killingTheHelperMidBatchAnswersExecutorLostAndLeavesNothingHeld() throws Exception {
        final int actions = 16;
        int midBatch = 0;
        try (AgentClient client = connect()) {
            for (int attempt = 0; attempt < InputHelperLauncher.MAX_RESTARTS_PER_MINUTE && midBatch == 0; attempt++) {
                final long restartsBefore = service.inputHelper().restarts();
                final Process helper = service.inputHelper().process();
                final long cell = HeldInputReleaseDesktopTest.gridCell(client);
                sendHoldThenKeys(client, cell, actions);
                // busy-spins so the kill follows the HOLD's arrival at once, within the batch's keys
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!probe.leftHeld()) {
                    assertTrue(Await.before(deadline), "the batch's HOLD never reached the X server");
                }
                helper.destroyForcibly(); // SIGKILL, mid-batch
                final AgentClient.Reply reply = client.receive(AgentAbi.ACTION_COMPLETION);
                final ActionCompletionFlyweight done = new ActionCompletionFlyweight().wrap(reply.bytes(), reply.offset());
                final int result = done.result();
                final long completed = done.completedActionCount();
                assertTrue(probe.awaitLeftReleased(System.nanoTime() + TimeUnit.SECONDS.toNanos(5)) > 0,
                    "the button is released after the helper was killed (batch " + ResultCode.name(result) + ")");
                if (result == ResultCode.EXECUTOR_LOST) {
                    assertTrue(completed < actions, "completed " + completed + " of " + actions);
                    midBatch++;
                } else {
                    assertEquals(ResultCode.OK, result, ResultCode.name(result)); // the kill came after the last tap
                }
                HeldInputReleaseDesktopTest.awaitReplacementHelper(service, restartsBefore, Duration.ofSeconds(30));
                hold(client); // the replacement works, and then lets go
                assertEquals(ResultCode.OK, HeldInputReleaseDesktopTest.batch(client,
                    a -> a.kind(ActionKind.RELEASE).buttonBits(Button.LEFT)).result());
                assertTrue(probe.awaitLeftReleased(System.nanoTime() + TimeUnit.SECONDS.toNanos(5)) > 0);
            }
        }
        assertTrue(midBatch > 0, "no kill landed mid-batch in " + InputHelperLauncher.MAX_RESTARTS_PER_MINUTE
            + " attempts");
    }

    /**
     * A helper that hangs with its lifeline open (here SIGSTOP: it neither beats nor reads plans)
     * is killed by the owner after 3 s of silence; the loss path then releases the button it held
     * and starts a replacement, which works.
     */
    @Test
    void aHungHelperIsKilledItsInputReleasedAndReplaced() throws Exception {
        final Process hung = service.inputHelper().process();
        try (AgentClient client = connect()) {
            hold(client);
            assertTrue(probe.leftHeld());
            final long stoppedAt = System.nanoTime();
            final Process stop = new ProcessBuilder("kill", "-STOP", Long.toString(hung.pid())).start();
            assertTrue(stop.waitFor(5, TimeUnit.SECONDS) && stop.exitValue() == 0, "kill -STOP");
            final long released = probe.awaitLeftReleased(stoppedAt + TimeUnit.SECONDS.toNanos(20));
            assertTrue(released > 0, "the button is still held 20 s after the helper hung");
            final double ms = (released - stoppedAt) / 1e6;
            System.out.printf("helper SIGSTOP -> killed and its button released by the owner in %.0f ms%n", ms);
            assertTrue(ms >= 2_900, "released before the helper's silence could be noticed: " + ms + " ms");
            assertTrue(hung.waitFor(10, TimeUnit.SECONDS), "the hung helper was killed");
            HeldInputReleaseDesktopTest.awaitReplacementHelper(service, 0, Duration.ofSeconds(30));
            hold(client);
            assertTrue(probe.leftHeld(), "the replacement holds the button");
        }
    }

    /** HOLD LEFT on {@code cell}, then {@code actions - 1} KEY actions of 16 Shift taps each; not awaited. */
    private static void sendHoldThenKeys(final AgentClient client, final long cell, final int actions) throws Exception {
        final BytesStore<?, ?> req = client.requestStore();
        final long at = client.requestOffset();
        final int total = ActionBatchFlyweight.LENGTH + actions * ActionFlyweight.LENGTH;
        req.zeroOut(at, at + total);
        final ActionBatchFlyweight b = new ActionBatchFlyweight().wrap(req, at);
        b.header().set(ActionBatchFlyweight.LENGTH, AgentAbi.ACTION_BATCH, 0);
        b.requestId(77).requestedCapabilityBits(Capability.POINTER | Capability.KEYBOARD)
            .policy(AgentAbi.POLICY_STOP_ON_FAILURE).deadlineNs(System.nanoTime() + TimeUnit.SECONDS.toNanos(20))
            .actionCount(actions).actionStride(ActionFlyweight.LENGTH).actionsOffset(ActionBatchFlyweight.LENGTH)
            .payloadOffset(total).payloadSize(0).totalSize(total);
        final ActionFlyweight a = new ActionFlyweight();
        a.wrap(req, at + ActionBatchFlyweight.LENGTH).kind(ActionKind.HOLD).targetId(cell).buttonBits(Button.LEFT);
        for (int i = 1; i < actions; i++) {
            a.wrap(req, at + ActionBatchFlyweight.LENGTH + (long) i * ActionFlyweight.LENGTH)
                .kind(ActionKind.KEY).keyUsage(SHIFT_USAGE).repeatCount(16);
        }
        client.send(total);
    }

    /** HID keyboard page: Left Shift, a key that types nothing wherever the focus is. */
    private static final int SHIFT_USAGE = 0xE1;

    // ---- helpers ----

    private AgentClient connect() throws Exception {
        return owner.connect();
    }

    private void hold(final AgentClient client) throws Exception {
        owner.hold(client);
    }
}
