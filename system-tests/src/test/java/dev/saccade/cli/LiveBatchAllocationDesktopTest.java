package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testdesktop.WithTestDesktop;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Spec case 55 for batches, with every real part: live POINTER_MOVE batches through the planner,
 * the shared-memory link and the input helper (XTest), with the accessibility source asked to
 * look again after each plan, allocate nothing on the owner thread after warm-up.
 */
@WithTestDesktop
class LiveBatchAllocationDesktopTest {
    private static final int WARM_UP = 20_000;
    private static final int MEASURED = 5_000;
    private static final int WINDOWS = 3;

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void liveBatchesAllocateNothingOnTheOwnerThread(final TestDesktop desktop) throws Exception {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (DesktopOwner desktopOwner = DesktopOwner.withAccessibility(desktop, "saccade-batch-alloc")) {
            try (AgentClient client = desktopOwner.connect()) {
                final long cell = HeldInputReleaseDesktopTest.gridCell(client);
                for (int i = 0; i < WARM_UP; i++) {
                    move(client, cell);
                }
                final long owner = desktopOwner.service.runner().thread().getId();
                long allocated = -1;
                for (int w = 0; w < WINDOWS && allocated != 0; w++) {
                    final long before = threads.getThreadAllocatedBytes(owner);
                    for (int i = 0; i < MEASURED; i++) {
                        move(client, cell);
                    }
                    allocated = threads.getThreadAllocatedBytes(owner) - before;
                    System.out.printf("owner thread allocated %d bytes over %d live batches%n", allocated, MEASURED);
                    assertTrue(allocated < MEASURED, "the owner thread allocates per batch: " + allocated + " bytes");
                }
                assertEquals(0, allocated, "bytes allocated on the owner thread over " + MEASURED + " live batches");
            }
        }
    }

    private static void move(final AgentClient client, final long cell) throws Exception {
        assertEquals(ResultCode.OK, HeldInputReleaseDesktopTest.batch(client,
            a -> a.kind(ActionKind.POINTER_MOVE).targetId(cell)).result());
    }
}
