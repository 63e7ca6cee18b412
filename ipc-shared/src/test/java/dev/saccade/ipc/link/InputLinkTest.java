package dev.saccade.ipc.link;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.plan.ActionPlanEncoder;
import dev.saccade.protocol.plan.ActionPlanFlyweight;
import dev.saccade.protocol.plan.PlanCommandFlyweight;
import dev.saccade.protocol.plan.PlanCompletionFlyweight;
import dev.saccade.protocol.plan.PlanValidator;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Both ends of the link in one process over a real /dev/shm file: creation, attach checks, records. */
class InputLinkTest {
    private static final int PLAN_RING = 64 << 10;
    private static final int COMPLETION_RING = 16 << 10;

    @TempDir
    Path dir;

    private final Path file = LinkPaths.DEV_SHM.resolve("saccade-input-v1-test-" + UUID.randomUUID());
    private final byte[] nonce = SessionNonce.generate();
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        Files.deleteIfExists(file);
    }

    private OwnerSide owner() throws IOException {
        final OwnerSide owner = OwnerSide.create(file, PLAN_RING, COMPLETION_RING, nonce);
        open.add(owner);
        return owner;
    }

    private HelperSide helper(final long ownerPid) throws IOException {
        final HelperSide helper = HelperSide.open(file, nonce, ownerPid);
        open.add(helper);
        return helper;
    }

    private LinkRefusedException.Reason refusal(final byte[] withNonce, final long ownerPid) {
        return assertThrows(LinkRefusedException.class, () -> helper(ownerPid).close(), "attach must be refused")
            .reason();
    }

    @Test
    void controlBlockOffsetsAreTheDocumentedOnes() {
        assertEquals(0, LinkFileDescriptor.MAGIC_OFFSET);
        assertEquals(8, LinkFileDescriptor.LAYOUT_VERSION_OFFSET);
        assertEquals(12, LinkFileDescriptor.CONTROL_BLOCK_LENGTH_OFFSET);
        assertEquals(16, LinkFileDescriptor.SESSION_NONCE_OFFSET);
        assertEquals(32, LinkFileDescriptor.OWNER_PID_OFFSET);
        assertEquals(40, LinkFileDescriptor.PLAN_RING_CAPACITY_OFFSET);
        assertEquals(44, LinkFileDescriptor.COMPLETION_RING_CAPACITY_OFFSET);
        assertEquals(48, LinkFileDescriptor.FILE_LENGTH_OFFSET);
        assertEquals(56, LinkFileDescriptor.CREATED_NS_OFFSET);
        assertEquals(128, LinkFileDescriptor.HELPER_PID_OFFSET);
        assertEquals(256, LinkFileDescriptor.OWNER_HEARTBEAT_NS_OFFSET);
        assertEquals(384, LinkFileDescriptor.HELPER_HEARTBEAT_NS_OFFSET);
        assertEquals(512, LinkFileDescriptor.LEDGER_OFFSET);
        assertEquals(512, LinkFileDescriptor.LEDGER_LENGTH);
        assertEquals(1024, LinkFileDescriptor.HELPER_PARKED_OFFSET);
        assertEquals(4096, LinkFileDescriptor.CONTROL_BLOCK_LENGTH);
        assertEquals(4096, LinkFileDescriptor.PLAN_RING_OFFSET);
        assertEquals(4096 + (2 << 20) + 256, LinkFileDescriptor.completionRingOffset(2 << 20));
        assertEquals(4096 + (2 << 20) + 256 + (64 << 10) + 256 + 3584,
            LinkFileDescriptor.fileLength(2 << 20, 64 << 10), "rounded up to a page");
        assertEquals(0x3150_4E49_4343_4153L, LinkFileDescriptor.MAGIC);
        assertEquals("SACCINP1", new String(java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN)
            .putLong(LinkFileDescriptor.MAGIC).array(), java.nio.charset.StandardCharsets.US_ASCII));
    }

    @Test
    void ownerCreatesThePrivateFileAndFillsTheControlBlockVersionLast() throws Exception {
        final OwnerSide owner = owner();
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS)));
        assertEquals(RuntimeDirectory.currentUid(), (Integer) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS));
        assertEquals(LinkFileDescriptor.fileLength(PLAN_RING, COMPLETION_RING), Files.size(file));
        final BytesStore<?, ?> s = owner.store();
        assertEquals(LinkFileDescriptor.MAGIC, s.readLong(0));
        assertEquals(1, s.readInt(8));
        assertEquals(4096, s.readInt(12));
        final byte[] stored = new byte[16];
        for (int i = 0; i < 16; i++) {
            stored[i] = s.readByte(16 + i);
        }
        assertArrayEquals(nonce, stored);
        assertEquals(ProcessHandle.current().pid(), s.readLong(32));
        assertEquals(PLAN_RING, s.readInt(40));
        assertEquals(COMPLETION_RING, s.readInt(44));
        assertEquals(Files.size(file), s.readLong(48));
        assertTrue(s.readLong(56) > 0, "created_ns");
        assertEquals(0, owner.helperPid());
    }

    @Test
    void helperAttachesAndBothSeeEachOthersPidsHeartbeatsAndTheLedger() throws Exception {
        final OwnerSide owner = owner();
        final HelperSide helper = helper(ProcessHandle.current().pid());
        assertEquals(ProcessHandle.current().pid(), owner.helperPid());
        assertEquals(ProcessHandle.current().pid(), helper.ownerPid());
        assertTrue(owner.helperHeartbeatNs() > 0, "the helper beats once at attach");
        owner.beat(123_456_789L);
        assertEquals(123_456_789L, helper.ownerHeartbeatNs());
        helper.beat(987_654_321L);
        assertEquals(987_654_321L, owner.helperHeartbeatNs());
        assertEquals(512, helper.ledgerOffset());
        helper.ledgerStore().writeLong(helper.ledgerOffset() + LinkFileDescriptor.LEDGER_LENGTH - 8, 0x0BADF00DL);
        assertEquals(0x0BADF00DL, owner.ledgerStore().readVolatileLong(owner.ledgerOffset() + 504));
        assertEquals(0, owner.store().readLong(1024), "the ledger ends at 1024");
    }

    /** The long-park word the owner reads after publishing, and the helper's check for a plan. */
    @Test
    void aHelperAnnouncesItsLongParkAndCallsItOffWhenAPlanIsWaiting() throws Exception {
        final OwnerSide owner = owner();
        final HelperSide helper = helper(ProcessHandle.current().pid());
        assertEquals(0, owner.helperParked(), "a fresh link: the helper polls");
        assertTrue(helper.beginLongPark(7));
        assertEquals(7, owner.helperParked(), "the owner sees which park to ring for");
        helper.endLongPark();
        assertEquals(0, owner.helperParked());
        final ActionPlanEncoder encoder = new ActionPlanEncoder();
        encoder.wrap(BytesStore.wrap(new byte[256]), 0, 256).header(1, 5, 6, 7, 0, 1, 0).move(0, 256, 512).actionEnd(0)
            .finish();
        assertTrue(owner.tryPublishPlan(encoder.plan()));
        assertFalse(helper.beginLongPark(8), "a plan is waiting: no park");
        assertEquals(0, owner.helperParked(), "the word is cleared again");
    }

    @Test
    void helperRefusesAnotherSessionsNonce() throws Exception {
        owner();
        final byte[] other = nonce.clone();
        other[15] ^= 0x40;
        final LinkRefusedException e = assertThrows(LinkRefusedException.class, () -> HelperSide.open(file, other, 0));
        assertEquals(LinkRefusedException.Reason.NONCE_MISMATCH, e.reason());
    }

    @Test
    void helperRefusesAnotherOwner() throws Exception {
        owner();
        assertEquals(LinkRefusedException.Reason.OWNER_MISMATCH, refusal(nonce, ProcessHandle.current().pid() + 1));
    }

    @Test
    void helperRefusesAFileStillBeingCreatedOrNotThere() throws Exception {
        assertEquals(LinkRefusedException.Reason.NOT_READY, refusal(nonce, 0));
        final OwnerSide owner = owner();
        owner.store().writeOrderedInt(LinkFileDescriptor.LAYOUT_VERSION_OFFSET, 0);
        assertEquals(LinkRefusedException.Reason.NOT_READY, refusal(nonce, 0));
    }

    @Test
    void helperRefusesAForeignMagicAVersionItDoesNotSpeakAndABadLayout() throws Exception {
        final OwnerSide owner = owner();
        owner.store().writeLong(LinkFileDescriptor.MAGIC_OFFSET, 42);
        assertEquals(LinkRefusedException.Reason.BAD_MAGIC, refusal(nonce, 0));
        owner.store().writeLong(LinkFileDescriptor.MAGIC_OFFSET, LinkFileDescriptor.MAGIC);
        owner.store().writeOrderedInt(LinkFileDescriptor.LAYOUT_VERSION_OFFSET, 2);
        assertEquals(LinkRefusedException.Reason.BAD_VERSION, refusal(nonce, 0));
        owner.store().writeOrderedInt(LinkFileDescriptor.LAYOUT_VERSION_OFFSET, 1);
        owner.store().writeInt(LinkFileDescriptor.PLAN_RING_CAPACITY_OFFSET, 1 << 20);
        assertEquals(LinkRefusedException.Reason.BAD_LAYOUT, refusal(nonce, 0), "capacities larger than the file");
        owner.store().writeInt(LinkFileDescriptor.PLAN_RING_CAPACITY_OFFSET, PLAN_RING + 8);
        assertEquals(LinkRefusedException.Reason.BAD_LAYOUT, refusal(nonce, 0), "not a power of two");
        owner.store().writeInt(LinkFileDescriptor.PLAN_RING_CAPACITY_OFFSET, PLAN_RING);
        assertEquals(0, owner.helperPid(), "no refused helper left its pid");
        helper(0);
    }

    @Test
    void helperRefusesAFileOthersCanReadAndASymlink() throws Exception {
        owner();
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertEquals(LinkRefusedException.Reason.UNSAFE_FILE, refusal(nonce, 0));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        final Path link = dir.resolve("link");
        Files.createSymbolicLink(link, file);
        final LinkRefusedException e = assertThrows(LinkRefusedException.class, () -> HelperSide.open(link, nonce, 0));
        assertEquals(LinkRefusedException.Reason.UNSAFE_FILE, e.reason());
    }

    @Test
    void aSecondHelperCannotAttach() throws Exception {
        owner();
        helper(0);
        assertEquals(LinkRefusedException.Reason.ALREADY_ATTACHED, refusal(nonce, 0));
    }

    @Test
    void ownerReplacesAStaleFileOfOursButNeverASymlinkAndUnlinksOnlyItsOwnFile() throws Exception {
        final Path target = dir.resolve("victim");
        Files.writeString(target, "keep");
        Files.createSymbolicLink(file, target);
        final LinkRefusedException e = assertThrows(LinkRefusedException.class,
            () -> OwnerSide.create(file, PLAN_RING, COMPLETION_RING, nonce));
        assertEquals(LinkRefusedException.Reason.UNSAFE_FILE, e.reason());
        assertEquals("keep", Files.readString(target));
        Files.delete(file);

        Files.writeString(file, "stale");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        final OwnerSide first = OwnerSide.create(file, PLAN_RING, COMPLETION_RING, nonce);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        final OwnerSide second = OwnerSide.create(file, PLAN_RING, COMPLETION_RING, SessionNonce.generate());
        first.close();
        assertTrue(Files.exists(file), "the first owner must not unlink the second's file");
        second.close();
        assertFalse(Files.exists(file, LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void plansAndCompletionsCrossValidatedAndInvalidRecordsAreReported() throws Exception {
        final OwnerSide owner = owner();
        final HelperSide helper = helper(0);
        final BytesStore<?, byte[]> buffer = BytesStore.wrap(new byte[1024]);
        final ActionPlanEncoder encoder = new ActionPlanEncoder();
        final int size = encoder.wrap(buffer, 0, buffer.capacity()).header(77, 5, 6, 7, 0, 1, 0)
            .move(0, 256, 512).buttonDown(0, 1).buttonUp(0, 1).actionEnd(0).finish();
        assertTrue(owner.tryPublishPlan(encoder.plan()));
        // A damaged copy: an unknown op in command 1.
        buffer.writeShort(ActionPlanFlyweight.COMMANDS_OFFSET + PlanCommandFlyweight.LENGTH, (short) 99);
        buffer.writeLong(0, 78);
        assertTrue(owner.tryPublishPlan(buffer, 0, size));

        final List<String> seen = new ArrayList<>();
        final PlanCompletionFlyweight completion =
            new PlanCompletionFlyweight().wrap(BytesStore.wrap(new byte[PlanCompletionFlyweight.LENGTH]), 0);
        assertEquals(2, helper.pollPlans(new PlanHandler() {
            @Override
            public void onPlan(final ActionPlanFlyweight plan) {
                seen.add("plan " + plan.planId() + " commands " + plan.commandCount() + " x " + plan.command(0).a());
                completion.clear().planId(plan.planId()).completedActions(1).commandsExecuted(plan.commandCount())
                    .failedActionIndex(0xFFFF_FFFFL);
                completion.physicalState().pointer(256, 512).physicalSequence(1);
                assertTrue(helper.tryPublishCompletion(completion));
            }

            @Override
            public void onInvalidPlan(final long planId, final int verdict) {
                seen.add("invalid " + planId + " " + PlanValidator.reason(verdict));
                LinkTestPlans.refuse(planId, verdict, completion);
                assertTrue(helper.tryPublishCompletion(completion));
            }
        }, 10));
        assertEquals(List.of("plan 77 commands 4 x 256", "invalid 78 unknown op"), seen);
        assertEquals(1, helper.invalidPlans());

        // A damaged completion: result outside the ABI.
        completion.clear().planId(79).result(7);
        assertTrue(helper.tryPublishCompletion(completion));
        seen.clear();
        assertEquals(3, owner.pollCompletions(new CompletionHandler() {
            @Override
            public void onCompletion(final PlanCompletionFlyweight c) {
                seen.add("completion " + c.planId() + " result " + c.result() + " x " + c.physicalState().pointerXQ8());
            }

            @Override
            public void onInvalidCompletion(final long planId, final int verdict) {
                seen.add("invalid completion " + planId + " " + PlanValidator.reason(verdict));
            }
        }, 10));
        assertEquals(List.of("completion 77 result 0 x 256", "completion 78 result " + ResultCode.INVALID_MESSAGE + " x 0",
            "invalid completion 79 result or platform_error outside the ABI"), seen);
        assertEquals(1, owner.invalidCompletions());
    }

    @Test
    void pollingAndPublishingAllocateNothing() throws Exception {
        final OwnerSide owner = owner();
        final HelperSide helper = helper(0);
        final BytesStore<?, byte[]> buffer = BytesStore.wrap(new byte[1024]);
        final ActionPlanEncoder encoder = new ActionPlanEncoder();
        final PlanCompletionFlyweight completion =
            new PlanCompletionFlyweight().wrap(BytesStore.wrap(new byte[PlanCompletionFlyweight.LENGTH]), 0);
        final long[] sum = {0};
        final PlanHandler plans = new PlanHandler() {
            @Override
            public void onPlan(final ActionPlanFlyweight plan) {
                completion.planId(plan.planId()).commandsExecuted(plan.commandCount());
                helper.tryPublishCompletion(completion);
            }

            @Override
            public void onInvalidPlan(final long planId, final int verdict) {
                sum[0] = -1_000_000;
            }
        };
        final CompletionHandler completions = new CompletionHandler() {
            @Override
            public void onCompletion(final PlanCompletionFlyweight c) {
                sum[0] += c.commandsExecuted();
            }

            @Override
            public void onInvalidCompletion(final long planId, final int verdict) {
                sum[0] = -1_000_000;
            }
        };
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final int rounds = 200_000;
        // Warm-up (class loading, lazy initialisation in Chronicle, JIT): a few KB in the first pass only.
        for (int pass = 0; pass < 3; pass++) {
            runCycles(owner, helper, encoder, buffer, plans, completions, pass * rounds + 1, (pass + 1) * rounds);
        }
        final long before = threads.getCurrentThreadAllocatedBytes();
        runCycles(owner, helper, encoder, buffer, plans, completions, 3 * rounds + 1, 4 * rounds);
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        System.out.printf("link: %d bytes allocated over %d plan round trips%n", allocated, rounds);
        assertEquals(4L * rounds * 4, sum[0], "every plan answered");
        assertEquals(0, allocated, "bytes allocated over " + rounds + " plan round trips");
    }

    /** One plan round trip per i: encode, publish, beat, poll (twice, once empty), answer, drain. */
    private static void runCycles(final OwnerSide owner, final HelperSide helper, final ActionPlanEncoder encoder,
        final BytesStore<?, byte[]> buffer, final PlanHandler plans, final CompletionHandler completions,
        final int from, final int to) {
        for (int i = from; i <= to; i++) {
            encoder.wrap(buffer, 0, buffer.capacity()).header(i, i, 1, 1, 0, 1, 0).move(0, i, i)
                .buttonDown(0, 1).buttonUp(0, 1).actionEnd(0).finish();
            owner.tryPublishPlan(encoder.plan());
            owner.beat(i);
            helper.pollPlans(plans, 8);
            helper.pollPlans(plans, 8);
            helper.beat(i);
            owner.pollCompletions(completions, 8);
            owner.pollCompletions(completions, 8);
        }
    }
}
