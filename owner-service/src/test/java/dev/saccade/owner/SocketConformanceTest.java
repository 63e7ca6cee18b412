package dev.saccade.owner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.protocol.Capability;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testsupport.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The observe and query conformance cases over the real Unix-socket endpoint and the real owner
 * thread, plus what only a transport can show: framing limits, parked reads that leave other
 * clients served, and neutralization on disconnect.
 */
class SocketConformanceTest extends ObserveQueryConformance {
    @TempDir
    Path dir;
    private Path socketPath;
    private OwnerHarness owner;
    private OwnerAgent agent;

    @Override
    protected void startService() throws Exception {
        socketPath = dir.resolve("agent.sock");
        owner = OwnerHarness.start(socketPath, store, 8);
        agent = owner.agent;
    }

    @Override
    protected Wire connect() throws Exception {
        return new SocketWire(socketPath);
    }

    @Override
    protected void stopService() throws Exception {
        owner.close();
    }

    @Test
    void framesOutsideSixteenToOneMebibyteDisconnectAndTheLimitsPass() throws Exception {
        try (SocketWire w = new SocketWire(socketPath)) {
            w.sendRaw(SocketWire.prefix(15));
            w.sendRaw(new byte[15]);
            assertNull(w.readReply(), "15 bytes must disconnect without a reply");
        }
        try (SocketWire w = new SocketWire(socketPath)) {
            w.sendRaw(SocketWire.prefix(1_048_577));
            assertNull(w.readReply(), "1,048,577 bytes must disconnect");
        }
        // 16 and 1,048,576 pass framing: as Hello attempts they are answered INVALID_MESSAGE.
        try (SocketWire w = new SocketWire(socketPath)) {
            assertEquals(ResultCode.INVALID_MESSAGE, helloResult(w.exchange(new byte[16])));
            assertEquals(ResultCode.INVALID_MESSAGE, helloResult(w.exchange(new byte[1_048_576])));
        }
    }

    @Test
    void aParkedReadDoesNotDelayOtherClients() throws Exception {
        try (SocketWire parked = new SocketWire(socketPath); Wire other = connect()) {
            assertEquals(ResultCode.OK, helloResult(parked.exchange(Requests.hello(1, Capability.OBSERVE))));
            assertEquals(ResultCode.OK, helloResult(other.exchange(Requests.hello(2, Capability.OBSERVE))));
            final byte[] waiting = Requests.observe(5, o -> o.freshness().policy(FreshnessPolicy.AFTER_GENERATION)
                .afterGeneration(42).timeoutNs(10_000_000_000L));
            parked.sendRaw(SocketWire.prefix(waiting.length));
            parked.sendRaw(waiting);
            for (int i = 0; i < 50; i++) {
                assertEquals(42, completion(other.exchange(Requests.observe(6, o -> { }))).generation().generation());
            }
            assertEquals(0, parked.input().available(), "the parked read must not have been answered yet");
            final long published = System.nanoTime();
            FixtureF.publish(store);
            final byte[] reply = parked.readReply();
            final long latencyUs = (System.nanoTime() - published) / 1_000;
            assertEquals(43, completion(reply).generation().generation());
            assertTrue(latencyUs < 500_000, "answered " + latencyUs + " µs after publication");
        }
    }

    @Test
    void aClientThatLeavesWhileItsReadIsParkedFreesItsSlotBeforeTheDeadline() throws Exception {
        try (SocketWire leaving = new SocketWire(socketPath)) {
            assertEquals(ResultCode.OK, helloResult(leaving.exchange(Requests.hello(1, Capability.OBSERVE))));
            final byte[] waiting = Requests.observe(5, o -> o.freshness().policy(FreshnessPolicy.AFTER_GENERATION)
                .afterGeneration(42).timeoutNs(3_600_000_000_000L)); // an hour
            leaving.sendRaw(SocketWire.prefix(waiting.length));
            leaving.sendRaw(waiting);
            awaitClients(2);
        }
        awaitClients(1); // the suite's own client only
    }

    private void awaitClients(final int n) {
        Await.until(() -> agent.connectedClientsSeen() == n, Duration.ofSeconds(5),
            () -> n + " clients; seen " + agent.connectedClientsSeen());
    }

    @Test
    void everyAuthenticatedDisconnectNeutralizesOnceAndUnauthenticatedOnesDoNot() throws Exception {
        final long before = neutralizedOnOwner();
        try (Wire unauthenticated = connect()) {
            assertEquals(ResultCode.INVALID_MESSAGE, helloResult(unauthenticated.exchange(new byte[16])));
        }
        try (Wire a = connect()) {
            assertEquals(ResultCode.OK, helloResult(a.exchange(Requests.hello(1, Capability.OBSERVE))));
        }
        try (Wire b = connect()) {
            assertEquals(ResultCode.OK, helloResult(b.exchange(Requests.hello(1, Capability.OBSERVE))));
            assertNull(b.exchange(Requests.hello(1, Capability.OBSERVE)), "Hello after authentication is U");
        }
        Await.until(() -> neutralizedOnOwner() == before + 2, Duration.ofSeconds(5),
            () -> (before + 2) + " neutralized on the owner; seen " + neutralizedOnOwner());
    }

    @Test
    void closingTheServiceUnlinksItsEndpointAndNeutralizesConnectedClients() throws Exception {
        final long before = neutralizedOnOwner();
        try (Wire a = connect()) {
            assertEquals(ResultCode.OK, helloResult(a.exchange(Requests.hello(1, Capability.OBSERVE))));
            owner.close();
            assertEquals(before + 2, agent.service().neutralized(), "this client and the suite's own");
            assertTrue(Files.notExists(socketPath), "endpoint unlinked at shutdown");
            assertNull(a.exchange(Requests.observe(1, o -> { })));
        }
        // let the suite's @AfterEach find a service to stop
        startService();
        wire = connect();
        assertEquals(ResultCode.OK, helloResult(wire.exchange(Requests.hello(7, Capability.POLICY))));
    }

    /** Read from the test thread: a racy but monotonic counter, polled to a deadline. */
    private long neutralizedOnOwner() {
        return agent.service().neutralized();
    }
}
