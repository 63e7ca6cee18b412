package dev.saccade.owner;

import static dev.saccade.owner.ObserveQueryConformance.helloResult;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.owner.scene.SceneStore;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testsupport.Await;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A calm owner is woken by its clients' sockets (D69). The calm park is set to ten minutes here,
 * so an owner that waited for its park to end would answer nothing within the test's time: every
 * request and every close below is answered only because the connection's readiness woke it; a
 * read parked for a newer generation leaves the owner asleep on its sockets, and still ends at its
 * deadline, with the next scene, or when its client goes.
 */
@Timeout(60)
class CalmOwnerTest {
    private static final long TEN_MINUTES_NS = 600_000_000_000L;
    @TempDir
    Path dir;
    private SceneStore store;
    private OwnerEndpoint endpoint;
    private String before;

    @BeforeEach
    void start() throws Exception {
        before = System.getProperty(OwnerConfiguration.IDLE_CALM_PARK_NS_PROP_NAME);
        System.setProperty(OwnerConfiguration.IDLE_CALM_PARK_NS_PROP_NAME, Long.toString(TEN_MINUTES_NS));
        System.setProperty(OwnerConfiguration.IDLE_QUIESCENT_PARK_NS_PROP_NAME, Long.toString(TEN_MINUTES_NS));
        store = FixtureF.store();
        FixtureF.publish(store);
        endpoint = OwnerEndpoint.serve(dir.resolve("agent.sock"), store, OwnerConfiguration.MAX_CLIENTS_DEFAULT,
            Duration.ofSeconds(1), new AgentService(store, new RecordingExecutor(), null));
    }

    @AfterEach
    void stop() throws Exception {
        endpoint.close();
        store.close();
        System.clearProperty(OwnerConfiguration.IDLE_QUIESCENT_PARK_NS_PROP_NAME);
        if (before == null) {
            System.clearProperty(OwnerConfiguration.IDLE_CALM_PARK_NS_PROP_NAME);
        } else {
            System.setProperty(OwnerConfiguration.IDLE_CALM_PARK_NS_PROP_NAME, before);
        }
    }

    @Test
    void requestsAndClosesWakeACalmOwner() throws Exception {
        final OwnerAgent agent = endpoint.agent();
        final SocketWire second = new SocketWire(dir.resolve("agent.sock"));
        try (SocketWire first = new SocketWire(dir.resolve("agent.sock"))) {
            assertEquals(ResultCode.OK, helloResult(first.exchange(Requests.hello(1, Capability.POLICY))));
            assertEquals(ResultCode.OK, helloResult(second.exchange(Requests.hello(1, Capability.POLICY))));
            for (int round = 0; round < 3; round++) {
                for (final SocketWire w : new SocketWire[] {first, second}) {
                    Await.until(() -> asleep(agent), Duration.ofSeconds(10), () -> "the owner calm with two clients waiting");
                    final long wakes = agent.readiness().socketWakes();
                    final byte[] reply = w.exchange(Requests.observe(2, o -> { }));
                    assertNotNull(reply, "answered");
                    assertEquals(ResultCode.OK, new CompletionFlyweight().wrap(BytesStore.wrap(reply), 0).result());
                    assertTrue(agent.readiness().socketWakes() > wakes, "woken by the socket");
                }
            }
            Await.until(() -> asleep(agent), Duration.ofSeconds(10), () -> "the owner calm again");
            second.close(); // noticed through its readiness too: the slot is free at once
            Await.until(() -> agent.connectedClientsSeen() == 1, Duration.ofSeconds(10),
                () -> "the owner to see the second client gone; connected " + agent.connectedClientsSeen());
            Await.until(() -> asleep(agent), Duration.ofSeconds(10), () -> "the owner calm with one client");
            final byte[] reply = first.exchange(Requests.observe(3, o -> { }));
            assertEquals(ResultCode.OK, new CompletionFlyweight().wrap(BytesStore.wrap(reply), 0).result());
        } finally {
            second.close();
        }
    }

    @Test
    void aParkedReadOfACalmOwnerEndsAtItsDeadlineOrWithTheNextScene() throws Exception {
        final OwnerAgent agent = endpoint.agent();
        try (SocketWire w = new SocketWire(dir.resolve("agent.sock"))) {
            assertEquals(ResultCode.OK, helloResult(w.exchange(Requests.hello(1, Capability.POLICY))));
            final long start = System.nanoTime();
            w.sendRaw(parked(2, 42, 300_000_000L));
            Await.until(() -> asleep(agent), Duration.ofSeconds(10), () -> "the owner calm while the read waits");
            final byte[] timedOut = w.readReply();
            final long elapsedMs = (System.nanoTime() - start) / 1_000_000;
            assertEquals(ResultCode.TIMEOUT, new CompletionFlyweight().wrap(BytesStore.wrap(timedOut), 0).result());
            assertTrue(elapsedMs >= 300 && elapsedMs < 3_000, "answered at its deadline: " + elapsedMs + " ms");

            w.sendRaw(parked(3, 42, 60_000_000_000L));
            Await.until(() -> asleep(agent), Duration.ofSeconds(10), () -> "the owner calm while the read waits");
            FixtureF.publish(store);
            final CompletionFlyweight c = new CompletionFlyweight().wrap(BytesStore.wrap(w.readReply()), 0);
            assertEquals(ResultCode.OK, c.result());
            assertEquals(43, c.generation().generation(), "the next scene");

            w.sendRaw(parked(4, 43, 60_000_000_000L));
            Await.until(() -> asleep(agent), Duration.ofSeconds(10), () -> "the owner calm while the read waits");
        }
        Await.until(() -> agent.connectedClientsSeen() == 0, Duration.ofSeconds(10),
            () -> "the owner to see a client gone in the middle of its parked read");
    }

    @Test
    void sleepingOnTheSocketsAllocatesNothingOnTheOwnerThread() throws Exception {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final OwnerAgent agent = endpoint.agent();
        final byte[] observe = Requests.observe(2, o -> o.maximumTargets(1));
        try (SocketWire w = new SocketWire(dir.resolve("agent.sock"))) {
            assertEquals(ResultCode.OK, helloResult(w.exchange(Requests.hello(1, Capability.POLICY))));
            for (int i = 0; i < 3_000; i++) { // warm-up: each round a sleep on the socket and a wake by it
                Await.until(() -> asleep(agent), Duration.ofSeconds(10), () -> "the owner asleep on its socket");
                w.exchange(observe);
            }
            final long ownerId = endpoint.runner().thread().getId();
            long allocated = -1;
            // as OwnerAllocationTest: a late deoptimization may allocate once; a real allocation shows every window
            for (int window = 0; window < 3 && allocated != 0; window++) {
                final long wakes = agent.readiness().socketWakes();
                final long before = threads.getThreadAllocatedBytes(ownerId);
                for (int i = 0; i < 1_000; i++) {
                    Await.until(() -> asleep(agent), Duration.ofSeconds(10), () -> "the owner asleep on its socket");
                    w.exchange(observe);
                }
                allocated = threads.getThreadAllocatedBytes(ownerId) - before;
                assertTrue(agent.readiness().socketWakes() - wakes >= 1_000, "each request woke a sleeping owner");
            }
            assertEquals(0, allocated, "bytes the owner thread allocated over 1,000 sleeps and wakes");
        }
    }

    /** The owner sleeps on its clients' sockets, not within its 1 ms park cap. */
    private static boolean asleep(final OwnerAgent agent) {
        return agent.readiness() != null && agent.readiness().sleeping();
    }

    /** An observe parked for a generation after {@code after}, for at most {@code timeoutNs}, framed. */
    private static byte[] parked(final long requestId, final long after, final long timeoutNs) {
        final byte[] frame = Requests.observe(requestId, o -> o.freshness().policy(FreshnessPolicy.AFTER_GENERATION)
            .afterGeneration(after).timeoutNs(timeoutNs));
        final byte[] framed = new byte[4 + frame.length];
        System.arraycopy(SocketWire.prefix(frame.length), 0, framed, 0, 4);
        System.arraycopy(frame, 0, framed, 4, frame.length);
        return framed;
    }
}
