package dev.saccade.owner;

import static dev.saccade.owner.ObserveQueryConformance.helloResult;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.owner.scene.SceneStore;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.HeaderFlyweight;
import dev.saccade.protocol.ResultCode;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a real owner endpoint and real sockets: idle connections cannot lock
 * clients out. The default serves 32 agents at once; a connection that never says Hello gives its
 * slot back after the Hello timeout (§1.3); when every slot is taken and a client waits, the
 * connection idle longest that holds no input lease is closed to make room (§1.1).
 */
@Timeout(60)
class IdleConnectionsTest {
    @TempDir
    Path dir;
    private SceneStore store;
    private RecordingExecutor executor;
    private OwnerEndpoint endpoint;
    private final List<SocketWire> wires = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        store = FixtureF.store();
        FixtureF.publish(store);
        executor = new RecordingExecutor();
        endpoint = OwnerEndpoint.serve(dir.resolve("agent.sock"), store, OwnerConfiguration.MAX_CLIENTS_DEFAULT,
            Duration.ofSeconds(1), new AgentService(store, executor, null));
    }

    @AfterEach
    void stop() throws Exception {
        for (final SocketWire w : wires) {
            w.close();
        }
        endpoint.close();
        store.close();
    }

    private SocketWire connect() throws Exception {
        final SocketWire w = new SocketWire(dir.resolve("agent.sock"));
        wires.add(w);
        return w;
    }

    private SocketWire agent() throws Exception {
        final SocketWire w = connect();
        assertEquals(ResultCode.OK, helloResult(w.exchange(Requests.hello(1, Capability.POLICY))));
        return w;
    }

    private static void observeOk(final SocketWire w) throws Exception {
        final byte[] reply = w.exchange(Requests.observe(2, o -> { }));
        assertNotNull(reply, "answered");
        assertEquals(AgentAbi.OBSERVE_COMPLETION, BytesStore.wrap(reply).readInt(HeaderFlyweight.MESSAGE_KIND_OFFSET));
        assertEquals(ResultCode.OK, new CompletionFlyweight().wrap(BytesStore.wrap(reply), 0).result());
    }

    @Test
    void theDefaultServesThirtyTwoAgentsAtOnce() throws Exception {
        assertTrue(OwnerConfiguration.MAX_CLIENTS_DEFAULT >= 32);
        final List<SocketWire> agents = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            agents.add(agent());
        }
        for (final SocketWire a : agents) {
            observeOk(a); // every one is served while all are connected
        }
        assertEquals(0, endpoint.agent().evictions());
    }

    @Test
    void connectionsThatNeverSayHelloGiveTheirSlotsBack() throws Exception {
        final List<SocketWire> silent = new ArrayList<>();
        for (int i = 0; i < OwnerConfiguration.MAX_CLIENTS_DEFAULT; i++) {
            silent.add(connect()); // every slot taken by a connection that sends nothing
        }
        final long start = System.nanoTime();
        final SocketWire late = connect();
        late.soTimeout(10_000);
        assertEquals(ResultCode.OK, helloResult(late.exchange(Requests.hello(1, Capability.OBSERVE))),
            "served once the silent ones time out");
        final double waitedMs = (System.nanoTime() - start) / 1e6;
        assertTrue(waitedMs < OwnerConfiguration.HELLO_TIMEOUT_MS_DEFAULT + 2_000, "waited " + waitedMs + " ms");
        for (final SocketWire s : silent) {
            assertNull(s.readReply(), "closed without a byte written");
        }
        System.out.printf("32 silent connections: a new client served after %.0f ms%n", waitedMs);
    }

    @Test
    void aFullTableEvictsTheLongestIdleConnectionThatHoldsNoInput() throws Exception {
        final List<SocketWire> agents = new ArrayList<>();
        for (int i = 0; i < OwnerConfiguration.MAX_CLIENTS_DEFAULT; i++) {
            agents.add(agent());
        }
        // the first connection (lease id 1) holds input: it is never the one evicted
        executor.physical.buttons(1).activeLeaseId(1);
        final long start = System.nanoTime();
        final SocketWire late = connect();
        late.soTimeout(10_000);
        assertEquals(ResultCode.OK, helloResult(late.exchange(Requests.hello(1, Capability.OBSERVE))));
        observeOk(late);
        final double waitedMs = (System.nanoTime() - start) / 1e6;
        assertTrue(waitedMs < 5_000, "waited " + waitedMs + " ms");
        observeOk(agents.get(0)); // the lease holder kept its connection
        agents.get(1).soTimeout(2_000);
        assertNull(agents.get(1).readReply(), "the longest idle without a lease was closed");
        for (int i = 2; i < agents.size(); i++) {
            agents.get(i).soTimeout(50);
            try {
                assertNull(agents.get(i).readReply(), "agent " + i);
                throw new AssertionError("agent " + i + " was closed too");
            } catch (final SocketTimeoutException stillOpen) {
                // open and quiet: only one connection made room
            }
        }
        assertEquals(1, endpoint.agent().evictions());
        System.out.printf("full table: a new client served after %.0f ms by evicting the longest idle%n", waitedMs);
    }
}
