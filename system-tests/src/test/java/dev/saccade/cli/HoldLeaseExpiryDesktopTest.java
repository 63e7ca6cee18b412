package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testdesktop.WithTestDesktop;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Hold lease expiry: an agent that holds a button and then neither releases it nor
 * sends another batch, while staying connected, does not keep it down for ever. The helper
 * (started with a short {@code saccade.helper.lease.max.ms}) releases it once the lease went
 * unrenewed that long, as the X server reports, and the owner's physical state follows.
 */
@WithTestDesktop
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class HoldLeaseExpiryDesktopTest {
    private static final long LEASE_MS = 600;

    @Test
    void aHoldNobodyRenewsIsReleasedWhenItsLeaseExpires(final TestDesktop desktop) throws Exception {
        System.setProperty("saccade.helper.lease.max.ms", Long.toString(LEASE_MS)); // passed on to the helper
        try (DesktopOwner owner = DesktopOwner.start(desktop, "saccade-lease")) {
            final XPointerProbe probe = owner.probe;
            try (AgentClient client = owner.connect()) {
                final long cell = HeldInputReleaseDesktopTest.gridCell(client);
                final long sentAt = System.nanoTime(); // the lease starts within the batch, after this instant
                final ActionCompletionFlyweight held = HeldInputReleaseDesktopTest.batch(client,
                    a -> a.kind(ActionKind.HOLD).targetId(cell).buttonBits(Button.LEFT));
                assertEquals(ResultCode.OK, held.result(), ResultCode.name(held.result()));
                assertTrue(probe.leftHeld(), "the X server holds the button");

                final long released = probe.awaitLeftReleased(System.nanoTime() + TimeUnit.SECONDS.toNanos(10));
                assertTrue(released > 0, "still held 10 s after a " + LEASE_MS + " ms lease");
                final double ms = (released - sentAt) / 1e6;
                System.out.printf("hold lease %d ms -> released %.1f ms after the HOLD was sent%n", LEASE_MS, ms);
                assertTrue(ms >= LEASE_MS, "released before the lease expired: " + ms + " ms after the HOLD was sent");

                // the connection is still there, and the owner reports nothing held, no lease
                HeldInputReleaseDesktopTest.awaitNothingHeld(client);
            }
        } finally {
            System.clearProperty("saccade.helper.lease.max.ms");
        }
    }
}
