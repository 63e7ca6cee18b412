package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.testdesktop.WithTestDesktop;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scenario of {@link McpSdkEndToEnd} with the official v2 TypeScript
 * client ({@code @modelcontextprotocol/client} 2.4.0, pinned in
 * {@code src/test/mcp-client-v2/package-lock.json}) pinned to protocol revision 2026-07-28. The
 * client probes with server/discover and fails the connect unless the server offers 2026-07-28;
 * it then sends every request with the _meta envelope and no initialize, rejects any result
 * without resultType, and checks every structuredContent of a result that is not an error
 * against the tool's output schema. The same tools, arguments and results as with the v1 SDK:
 * list, observe, query, a verified click, a stale rejection, the owner killed and restarted
 * mid-session with the lost batch never resent.
 */
@WithTestDesktop(apps = DemoApp.GTK3_DEMO)
class McpSdkV2DesktopIT {
    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    @SuppressWarnings("unchecked")
    void theV2ClientPinnedTo20260728RunsTheSameScenario(final TestDesktop desktop) throws Exception {
        final McpSdkEndToEnd.Run run = McpSdkEndToEnd.run(desktop, "mcp-client-v2", "@modelcontextprotocol/client");
        final Map<String, Object> connected = run.steps().get("initialized");
        assertEquals("2026-07-28", connected.get("protocol"), connected.toString());
        assertEquals("saccade", ((Map<String, Object>) connected.get("server")).get("name"),
            "the serverInfo of server/discover's _meta: " + connected);
        assertTrue(((Map<String, Object>) connected.get("capabilities")).containsKey("tools"), connected.toString());
        // the session process (the probe's sibling has its stderr discarded) spoke 2026-07-28 only
        assertTrue(run.stderr().contains("saccade mcp: event=era protocol=2026-07-28"), run.stderr());
        assertFalse(run.stderr().contains("event=era protocol=2025"), run.stderr());
        McpSdkEndToEnd.assertScenario(run);
    }
}
