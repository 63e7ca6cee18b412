package dev.saccade.pcp;

import static dev.saccade.pcp.PcpSocketTest.result;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.saccade.testsupport.Await;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Over PCP's real socket: connections that sit idle cannot lock PCP out.
 * With every connection taken, a new client is served by closing the connection idle longest;
 * a connection that subscribed to events (its connection is its state) is never the one closed.
 */
@Timeout(60)
class PcpIdleConnectionsTest {
    @TempDir
    Path temp;
    private PcpFixture fixture;
    private final List<PcpClient> clients = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        fixture = new PcpFixture(temp, null, c -> { });
    }

    @AfterEach
    void stop() throws Exception {
        for (final PcpClient c : clients) {
            c.close();
        }
        fixture.close();
    }

    private PcpClient connect() throws Exception {
        final PcpClient c = PcpClient.connect(fixture.socket(), Duration.ofSeconds(10));
        clients.add(c);
        return c;
    }

    @Test
    void aFullServerClosesTheLongestIdleConnectionForANewClient() throws Exception {
        final PcpClient subscriber = connect();
        result(subscriber.call("subscribe.events", JsonTree.object("event_types", List.of("surface.focus_changed")), null));
        final List<PcpClient> idle = new ArrayList<>();
        for (int i = 1; i < PcpConfiguration.MAX_CONNECTIONS_DEFAULT; i++) {
            final PcpClient c = connect();
            result(c.call("health.check", null, null)); // each is served once, then sits idle
            idle.add(c);
        }
        // every connection is taken now; the oldest idle one has waited past the eviction bound by the time
        // a new client has been refused a few times at most
        final Map<String, Object> served = Await.retrying(() -> {
            final PcpClient late = connect();
            try {
                return late.call("health.check", null, null);
            } catch (final IOException refused) { // closed at accept: nobody idle long enough yet
                clients.remove(late);
                late.close();
                throw refused;
            }
        }, IOException.class, Duration.ofSeconds(10), Duration.ZERO, "a new client served");
        result(served);
        assertEquals(1, fixture.endpoint.server().evictedConnections());
        result(subscriber.call("health.check", null, null)); // the subscriber kept its connection
        try {
            idle.get(0).call("health.check", null, null);
            throw new AssertionError("the longest idle connection should have been closed");
        } catch (final IOException closed) {
            // evicted, as pcp §9 says
        }
        result(idle.get(1).call("health.check", null, null));
    }
}
