package dev.saccade.cli;

import static dev.saccade.cli.McpProcess.INITIALIZE;
import static dev.saccade.cli.McpProcess.tool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.testsupport.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Idle adapters, with real {@code saccade mcp} processes: more adapters than the owner has
 * slots all get served. Each keeps its connection after a tool call; when every slot is taken
 * the owner closes the longest-idle one for the adapter that waits (agent-abi §1.1), and that
 * adapter connects again on its next call instead of writing on the closed connection. An
 * adapter idle past its release time gives its connection back by itself.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class McpIdleAdaptersTest {
    private static final int SLOTS = 2;

    @TempDir
    Path dir;

    @Test
    void moreAdaptersThanSlotsAreAllServedAndAnEvictedOneReconnects() throws Exception {
        final Path socket = dir.resolve("agent.sock");
        final InProcessOwner owner = InProcessOwner.start(socket, SLOTS);
        try {
            owner.publishDialog();
            final List<McpProcess> adapters = new ArrayList<>();
            try {
                for (int i = 0; i < SLOTS + 2; i++) {
                    final McpProcess mcp = McpProcess.start(socket);
                    adapters.add(mcp);
                    mcp.call(INITIALIZE);
                    assertServed(mcp, 2, "adapter " + i);
                }
                int id = 3;
                for (int round = 0; round < 2; round++) {
                    for (int i = 0; i < adapters.size(); i++) {
                        assertServed(adapters.get(i), id++, "round " + round + ", adapter " + i);
                    }
                }
                for (final McpProcess mcp : adapters) {
                    assertEquals(List.of(), mcp.finish());
                    assertEquals(0, mcp.exitCode());
                }
            } finally {
                for (final McpProcess mcp : adapters) {
                    mcp.close();
                }
            }
        } finally {
            owner.stop();
        }
    }

    @Test
    void anIdleAdapterGivesItsConnectionBackAndConnectsAgainOnItsNextCall() throws Exception {
        final Path socket = dir.resolve("agent.sock");
        final InProcessOwner owner = InProcessOwner.start(socket, SLOTS);
        try (McpProcess mcp = McpProcess.start(socket, "-Dsaccade.mcp.idle.release.ms=300")) {
            owner.publishDialog();
            mcp.call(INITIALIZE);
            for (int round = 0; round < 2; round++) {
                assertServed(mcp, 2 + round, "round " + round);
                Await.until(() -> owner.connectedClients() == 0, Duration.ofSeconds(10), Duration.ofMillis(10),
                    () -> "the idle adapter to drop its connection; owner clients: " + owner.connectedClients());
            }
            assertEquals(List.of(), mcp.finish());
            assertEquals(0, mcp.exitCode());
        } finally {
            owner.stop();
        }
    }

    private static void assertServed(final McpProcess mcp, final int id, final String who) throws Exception {
        final String reply = mcp.call(tool(id, "saccade_observe", "{}"));
        assertTrue(!reply.contains("\"isError\":true") && reply.contains("\"structuredContent\":{\"generation\""), who + ": " + reply);
    }
}
