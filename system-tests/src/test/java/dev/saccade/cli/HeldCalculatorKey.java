package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testsupport.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A key of the Qt calculator held by HOLD as the proof of a release: a Qt button clicks on
 * release, so its digit appears in the calculator's display (read over AT-SPI from the app) only
 * once something let the button go. Shared by the release tests of the Wayland desktops.
 */
final class HeldCalculatorKey {
    /** A timed hold's lease (§5.15): far longer than any release the tests wait for. */
    private static final long LEASE_NS = TimeUnit.SECONDS.toNanos(30);

    private HeldCalculatorKey() {
    }

    /** The target id of the calculator's button {@code label}, once the scene of the owner at {@code endpoint} has it. */
    static long targetId(final Path endpoint, final String label) throws Exception {
        final List<String> ids = Await.probe(() -> Json.targetIds(Json.object(CliRun.atEndpoint(endpoint, "query",
                "--role", "button", "--text", label, "--match", "exact", "--json").stdout)),
            found -> found.size() == 1, Duration.ofSeconds(20), Duration.ofMillis(100),
            found -> "one button " + label + " in the scene, found " + found);
        return Long.parseUnsignedLong(ids.get(0));
    }

    /** What the display shows once {@code digit} was clicked after it showed {@code before}. */
    static String shownAfter(final String before, final String digit) {
        return (before + digit).replaceFirst("^0", "");
    }

    /**
     * HOLD of the left button on {@code target} with a lease time (§5.15) from a client of API
     * 0x00010002; retried while the owner has not adopted its helper's link yet (EXECUTOR_LOST, D5).
     */
    static ActionCompletionFlyweight timedHold(final AgentClient client, final long target, final long leaseNs)
        throws Exception {
        return Await.probe(() -> TimedActionsDesktopTest.timed(client,
                a -> a.kind(ActionKind.HOLD).targetId(target).buttonBits(Button.LEFT).durationNs(leaseNs),
                leaseNs + TimeUnit.SECONDS.toNanos(10)), done -> done.result() != ResultCode.EXECUTOR_LOST,
            Duration.ofSeconds(10), Duration.ofMillis(10), done -> "a hold the owner's helper takes");
    }

    /**
     * An owner in its own JVM on {@code display}, killed with SIGKILL while its agent's 30 s timed
     * hold of the key {@code digit} runs: its helper must see the owner gone and release long
     * before the lease would end (the digit appears within 10 s), then exit.
     */
    static void releasedWhenItsOwnerIsKilled(final String display, final String sessionBus, final String name,
        final String digit, final Supplier<String> readout) throws Exception {
        try (OwnerProcess killed = OwnerProcess.start(display, sessionBus, name)) {
            final long key = targetId(killed.endpoint(), digit);
            final String before = readout.get();
            try (AgentClient client = killed.connectMinor2()) {
                final ActionCompletionFlyweight held = timedHold(client, key, LEASE_NS);
                assertEquals(ResultCode.OK, held.result(), ResultCode.name(held.result()) + "; " + killed.logs());
                assertEquals(Button.LEFT, held.physicalState().buttons());
                assertEquals(before, readout.get(), "nothing clicked while the button is held");
                killed.kill();
                Await.until(() -> shownAfter(before, digit).equals(readout.get()), Duration.ofSeconds(10),
                    () -> "the helper's release clicked " + digit + ": the display shows " + readout.get()
                        + ", before " + before + "; " + killed.logs());
            }
            Await.until(() -> killed.helper().isEmpty(), Duration.ofSeconds(10),
                () -> "the orphaned helper exits; " + killed.logs());
            assertTrue(ProcessLog.read(killed.helperLog).contains("reason=owner_gone"), killed.logs());
        }
    }
}
