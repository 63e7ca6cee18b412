package dev.saccade.cli;

import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.testdesktop.WithTestDesktop;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The MCP adapter's end-to-end proof with the official MCP TypeScript SDK ({@code @modelcontextprotocol/sdk},
 * pinned in {@code src/test/mcp-client/package-lock.json}): {@code client.mjs} runs {@code Client}
 * with {@code StdioClientTransport} spawning the distribution's {@code bin/saccade mcp} in the
 * 2025 era (initialize), and the scenario of {@link McpSdkEndToEnd}: it lists the tools, observes,
 * queries the Run button by its text, clicks it with the generation precondition and
 * verifyNextGeneration and sees the demo's new window in a later observe; a stale generation is
 * {@code isError: true} with the typed result. The owner is then killed with SIGKILL and started
 * again: the adapter sees the closed connection before its next action and sends it once over a new
 * one (mcp §9); nothing runs twice (the demo's window stays open until a later click on Run toggles
 * it closed), and the old generation is stale.
 */
@WithTestDesktop(apps = DemoApp.GTK3_DEMO)
class McpSdkDesktopIT {
    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void theOfficialSdkObservesQueriesAndClicksAndNoActionRunsTwiceAcrossARestart(final TestDesktop desktop)
        throws Exception {
        McpSdkEndToEnd.assertScenario(McpSdkEndToEnd.run(desktop, "mcp-client", "@modelcontextprotocol/sdk"));
    }
}
