package dev.saccade.owner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.owner.scene.SceneStore;
import dev.saccade.protocol.FilterFlag;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TextMatch;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Steady-state request processing allocates nothing on the owner thread (spec case 55 for
 * observe and query): after 100,000 requests of warm-up, a window of 100,000 observes and
 * queries over the real socket leaves the owner thread's allocated-bytes counter where it was.
 */
class OwnerAllocationTest {
    private static final int WARM_UP = 100_000;
    private static final int MEASURED = 100_000;
    private static final int WINDOWS = 3;

    @TempDir
    Path dir;

    @Test
    @Timeout(300)
    void observeAndQueryAllocateNothingOnTheOwnerThread() throws Exception {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final byte[][] requests = {
            Requests.observe(1, o -> { }),
            Requests.observe(2, o -> o.scope().kind(ScopeKind.ACTIVE_WINDOW).sourceMode(SourceMode.PIXEL)),
            Requests.observe(3, o -> o.maximumTargets(1).targetStride(96)),
            Requests.queryText(TextMatch.SUBSTRING, "tto"),
            Requests.query(FilterFlag.ROLE, f -> f.role(Role.LINK)),
            Requests.query(4, "Button", q -> q.generation(0), f -> f.flags(FilterFlag.RELATION).relation(6).relationTargetId(11)),
        };
        try (SceneStore store = FixtureF.store()) {
            FixtureF.publish(store);
            try (OwnerHarness owner = OwnerHarness.start(dir.resolve("agent.sock"), store, 8);
                 SocketWire client = new SocketWire(dir.resolve("agent.sock"))) {
                ObserveQueryConformance.helloResult(client.exchange(Requests.hello(1, 0x17)));
                for (int i = 0; i < WARM_UP; i++) {
                    client.exchange(requests[i % requests.length]);
                }
                final long ownerId = owner.runner.thread().getId();
                long allocated = -1;
                // A late JIT deoptimization can rematerialize a few scalar-replaced objects once; a
                // real per-request allocation shows in every window.
                for (int window = 0; window < WINDOWS && allocated != 0; window++) {
                    final long before = threads.getThreadAllocatedBytes(ownerId);
                    for (int i = 0; i < MEASURED; i++) {
                        client.exchange(requests[i % requests.length]);
                    }
                    allocated = threads.getThreadAllocatedBytes(ownerId) - before;
                    System.out.printf("owner thread allocated %d bytes over %d requests (%.4f per request)%n",
                        allocated, MEASURED, allocated / (double) MEASURED);
                    assertTrue(allocated < MEASURED, "the owner thread allocates per request: " + allocated + " bytes");
                }
                assertEquals(0, allocated, "bytes allocated on the owner thread over " + MEASURED + " requests");
            }
        }
    }
}
