package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.SwayApp;
import dev.saccade.demodesktop.SwayDesktop;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.ResultCode;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The owner and its real input helper on a headless sway: the helper holds the left
 * button through its virtual pointer and is killed with SIGKILL; the owner starts a replacement
 * helper whose ledger is seeded with the lost one and which releases it over its own virtual
 * devices at its start; the replacement then types into the native zenity entry and presses
 * Enter, and zenity prints exactly the typed text.
 */
@Tag("desktop")
@Timeout(120)
class WaylandHelperKillDesktopTest {
    @Test
    void aKilledHelpersHoldIsReleasedByItsReplacementWhichThenTypes() throws Exception {
        try (SwayDesktop sway = SwayDesktop.start(1024, 768, false)) {
            final SwayApp zenity = sway.launch("zenity", false, "zenity", "--entry", "--title=Helper kill");
            try (DesktopOwner owner = DesktopOwner.onDisplay("wayland:" + sway.waylandSocket(), sway.busAddress(),
                "saccade-wayland-kill")) {
                final Process first = owner.service.inputHelper().process();
                try (AgentClient client = owner.connect()) {
                    owner.hold(client); // LEFT held, leased to this connection
                    first.destroyForcibly(); // SIGKILL: the helper releases nothing itself
                    assertTrue(first.waitFor(10, TimeUnit.SECONDS));
                    HeldInputReleaseDesktopTest.awaitReplacementHelper(owner.service, 0, Duration.ofSeconds(30));
                    assertNotEquals(first.pid(), owner.service.inputHelper().process().pid(), "a new helper process");
                    // The click that the hold began moved the focus to zenity; type there through the replacement.
                    sway.focus(zenity.pid());
                    for (final int usage : new int[] {0x12, 0x0E, 0x28}) { // o, k, Enter
                        final ActionCompletionFlyweight done = keyTap(client, usage);
                        assertEquals(ResultCode.OK, done.result(), ResultCode.name(done.result()));
                        assertEquals(0, done.physicalState().buttons(), "nothing held after the replacement's release");
                    }
                }
            }
            assertEquals(0, zenity.awaitExit(10_000), zenity.toString());
            assertEquals("ok\n", zenity.stdout());
        }
    }

    /** One KEY tap; retried while the owner still reports the executor lost (adopting the replacement). */
    private static ActionCompletionFlyweight keyTap(final AgentClient client, final int usage) throws Exception {
        return HeldInputReleaseDesktopTest.batchOnceAdopted(client, a -> a.kind(ActionKind.KEY).keyUsage(usage),
            Capability.KEYBOARD, Duration.ofSeconds(10));
    }
}
