package dev.saccade.owner.helper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.ipc.link.HeldInputLedger;
import dev.saccade.ipc.link.OwnerLifeline;
import dev.saccade.ipc.link.OwnerSide;
import dev.saccade.ipc.link.SessionNonce;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.PhysicalStateFlyweight;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;

/** A replacement helper's link is handed to the same executor and adopted by the owner thread. */
class ShmInputExecutorTest {
    @Test
    void theOwnerThreadAdoptsAReplacementLinkAndForgetsWhatTheLostHelperHeld() throws Exception {
        withTwoLinks((first, line1, second, line2) -> {
            final ShmInputExecutor executor = new ShmInputExecutor(first, line1);
            assertFalse(executor.attached());
            assertFalse(executor.available(), "no helper attached yet");
            executor.attach();
            assertTrue(executor.attached());
            assertEquals(1, executor.adoptedIncarnation());

            final HeldInputLedger ledger = new HeldInputLedger().wrap(second.ledgerStore(), second.ledgerOffset()).init();
            ledger.buttonDown(Button.LEFT);
            ledger.markReleased(); // what the replacement does at its start
            ledger.markReleased();
            assertEquals(3, ledger.physicalSequence());

            // a plan in flight when the helper died
            executor.beginPlan(Long.MAX_VALUE, 1, 1, 0).move(256, 256);
            final long inFlight = executor.submit();
            assertTrue(inFlight > 0);
            assertEquals(dev.saccade.owner.action.InputExecutor.PENDING, executor.poll(inFlight));

            assertEquals(2, executor.attach(second, line2));
            assertEquals(1, executor.adoptedIncarnation(), "adopted only by the owner thread's next call");
            assertFalse(executor.available(), "no heartbeat from the replacement yet");
            assertEquals(2, executor.adoptedIncarnation());
            final BytesStore<?, ?> out = BytesStore.nativeStoreWithFixedCapacity(PhysicalStateFlyweight.LENGTH);
            assertTrue(executor.physicalState(out, 0));
            final PhysicalStateFlyweight state = new PhysicalStateFlyweight().wrap(out, 0);
            assertEquals(0, state.buttons());
            assertEquals(0, state.activeLeaseId());
            assertEquals(3, state.physicalSequence(), "the replacement's ledger sequence");
            second.ledgerStore().writeOrderedLong(dev.saccade.ipc.link.LinkFileDescriptor.HELPER_HEARTBEAT_NS_OFFSET,
                System.nanoTime());
            assertTrue(executor.available(), "handed over after its handshake and beating: available");
            assertEquals(dev.saccade.owner.action.InputExecutor.LOST, executor.poll(inFlight),
                "a plan sent to the lost helper never completes: the batch answers EXECUTOR_LOST");
        });
    }

    /**
     * A replacement's link carries its creation time as the owner's heartbeat, seconds old once
     * the new helper has started. Adopted by a call that is not the heartbeat (a batch's first
     * check), it must get a fresh beat at once: otherwise the HOLD sent on it next finds the
     * helper holding with the owner silent for seconds, and the helper releases it (OwnerKillIT,
     * HelperKillDesktopTest: "HOLD OK, the X server shows the button up").
     */
    @Test
    void aReplacementLinkIsBeatenTheMomentTheOwnerThreadAdoptsIt() throws Exception {
        withTwoLinks((first, line1, second, line2) -> {
            final ShmInputExecutor executor = new ShmInputExecutor(first, line1);
            executor.attach();
            executor.heartbeat(System.nanoTime()); // beaten on the first link: the next beat is not due yet
            final long created = ownerBeat(second);
            executor.attach(second, line2);
            final long adoptedAfter = System.nanoTime();
            assertTrue(adoptedAfter - created > 0);
            executor.available(); // the owner thread's next call adopts the replacement's link
            assertEquals(2, executor.adoptedIncarnation());
            assertTrue(ownerBeat(second) - adoptedAfter >= 0,
                "the owner's heartbeat on the adopted link is its creation time, " + (adoptedAfter - ownerBeat(second))
                    + " ns before the adoption");
        });
    }

    private static long ownerBeat(final OwnerSide link) {
        return link.ledgerStore().readVolatileLong(dev.saccade.ipc.link.LinkFileDescriptor.OWNER_HEARTBEAT_NS_OFFSET);
    }

    /** A first helper's link and lifeline, and a replacement's. */
    private interface TwoLinks {
        void run(OwnerSide first, OwnerLifeline line1, OwnerSide second, OwnerLifeline line2) throws Exception;
    }

    private static void withTwoLinks(final TwoLinks body) throws Exception {
        final Path dir = Files.createTempDirectory("saccade-exec",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final byte[] nonce1 = SessionNonce.generate();
        final byte[] nonce2 = SessionNonce.generate();
        try (OwnerSide first = OwnerSide.create(dir.resolve("link1"), 1 << 16, 1 << 16, nonce1);
             OwnerLifeline line1 = OwnerLifeline.bind(dir.resolve("l1.sock"), nonce1);
             OwnerSide second = OwnerSide.create(dir.resolve("link2"), 1 << 16, 1 << 16, nonce2);
             OwnerLifeline line2 = OwnerLifeline.bind(dir.resolve("l2.sock"), nonce2)) {
            body.run(first, line1, second, line2);
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
