package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.testsupport.Await;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The end-to-end run both official MCP TypeScript SDK checks share ({@link McpSdkDesktopIT} with
 * the v1 SDK, {@link McpSdkV2DesktopIT} with the v2 client pinned to 2026-07-28): the SDK's client
 * directory ({@code src/test/mcp-client*}, pinned by its package-lock) is copied under
 * {@code target/} with the shared {@code scenario.mjs} and installed there by {@code npm ci} when
 * missing; {@code node client.mjs} spawns the distribution's {@code bin/saccade mcp} through the
 * SDK's stdio transport, against an owner ({@code bin/saccade owner run}, with its real input
 * helper) on the test desktop with gtk3-demo. On the scenario's "restart-owner" step the owner
 * is killed with SIGKILL and started again. {@link #assertScenario} holds what both SDKs must see.
 */
final class McpSdkEndToEnd {
    private static final Path DIST = Path.of(System.getProperty("saccade.dist.dir"));
    static final Path LAUNCHER = DIST.resolve("bin/saccade");
    private static final Path SOURCES = Path.of("src/test");
    private static final String SCENARIO = "scenario.mjs";

    /** The steps the client printed, by name, and everything it and the adapter wrote to stderr. */
    record Run(Map<String, Map<String, Object>> steps, String stderr) {
    }

    private McpSdkEndToEnd() {
    }

    /**
     * Runs {@code client.mjs} of {@code src/test/<client>}; {@code sdk} is the package directory
     * under node_modules whose presence means the client is installed.
     */
    static Run run(final TestDesktop desktop, final String client, final String sdk) throws Exception {
        final Path clientDir = DIST.resolveSibling(client);
        installClient(SOURCES.resolve(client), clientDir, sdk);
        final Path runtime = Files.createTempDirectory("saccade-mcp-e2e",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final Path endpoint = runtime.resolve("saccade-agent-v1.sock");
        final Path clientErr = runtime.resolve("client.err");
        Process owner = startOwner(desktop, runtime, 1);
        Process node = null;
        try {
            node = new ProcessBuilder("node", "client.mjs", LAUNCHER.toString(), endpoint.toString())
                .directory(clientDir.toFile()).redirectError(clientErr.toFile()).start();
            final BufferedReader out = new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
            final OutputStream in = node.getOutputStream();
            final Map<String, Map<String, Object>> steps = new LinkedHashMap<>();
            for (String line; (line = out.readLine()) != null; ) {
                System.out.println("client: " + line);
                final Map<String, Object> step = Json.object(line.getBytes(StandardCharsets.UTF_8));
                steps.put((String) step.get("step"), step);
                if ("restart-owner".equals(step.get("step"))) {
                    owner.destroyForcibly(); // SIGKILL: the adapter's connection dies with it
                    assertTrue(owner.waitFor(10, TimeUnit.SECONDS));
                    owner = startOwner(desktop, runtime, 2);
                    awaitRunButton(endpoint);
                    in.write("go\n".getBytes(StandardCharsets.US_ASCII));
                    in.flush();
                }
            }
            assertTrue(node.waitFor(30, TimeUnit.SECONDS));
            final String stderr = Files.readString(clientErr);
            assertEquals(0, node.exitValue(), stderr);
            assertTrue(steps.containsKey("done"), "client finished: " + steps.keySet() + "\n" + stderr);
            return new Run(steps, stderr);
        } finally {
            if (node != null) {
                node.destroyForcibly();
            }
            KilledOwners.reclaim(runtime, owner);
            try (var files = Files.walk(runtime)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /**
     * What the scenario must show with either SDK: the three tools, an observe, the Run button
     * found by its text, a verified click whose effect a later observe sees, a stale generation
     * rejected with its typed result, the batch lost with the killed owner failed and never
     * resent, and one more click that toggles the demo's window exactly once.
     */
    static void assertScenario(final Run result) {
        final Map<String, Map<String, Object>> steps = result.steps();
        assertEquals(List.of("saccade_observe", "saccade_query", "saccade_act"), steps.get("tools").get("names"));
        assertEquals(List.of("kind"), steps.get("tools").get("actRequired"));
        assertTrue(((List<?>) steps.get("tools").get("actKinds")).contains("click"));

        final Map<String, Object> observe = steps.get("observe");
        assertEquals(false, observe.get("isError"), observe.toString());
        assertTrue(((String) observe.get("text")).startsWith("generation "), observe.toString());
        assertEquals(false, observe.get("truncated"), observe.toString());
        final int windowsBefore = ((Number) observe.get("windows")).intValue();
        assertTrue(windowsBefore >= 1, observe.toString());

        final Map<String, Object> query = steps.get("query");
        assertEquals(false, query.get("isError"), query.toString());
        @SuppressWarnings("unchecked")
        final Map<String, Object> run = (Map<String, Object>) query.get("run");
        assertNotNull(run, "the query found gtk3-demo's Run button: " + query);
        assertEquals("Run", run.get("text"));
        assertEquals("button", run.get("role"));
        assertTrue(((String) run.get("id")).matches("[0-9]+"), "64-bit ids are decimal strings: " + run);

        final Map<String, Object> click = steps.get("click");
        assertEquals("Action completed.", click.get("text"), click.toString());
        assertEquals(false, click.get("isError"));
        @SuppressWarnings("unchecked")
        final Map<String, Object> clicked = (Map<String, Object>) click.get("structured");
        assertEquals(query.get("generation"), clicked.get("generation"), "validated against the queried generation");
        assertNotNull(clicked.get("nextGeneration"), "verifyNextGeneration returned the next generation: " + click);
        assertEquals(windowsBefore, ((Number) click.get("windowsBefore")).intValue(), click.toString());
        assertEquals(windowsBefore + 1, ((Number) click.get("windowsAfter")).intValue(),
            "the click opened the demo's window, seen in a later observe: " + click);

        final Map<String, Object> stale = steps.get("stale");
        assertEquals(true, stale.get("isError"), stale.toString());
        assertTrue(((String) stale.get("text")).startsWith("Action rejected: stale generation. The scene changed since"
            + " generation " + query.get("generation")), stale.toString());
        @SuppressWarnings("unchecked")
        final Map<String, Object> staleResult = (Map<String, Object>) stale.get("structured");
        assertEquals(-3, ((Number) staleResult.get("result")).intValue());
        assertEquals("stale generation", staleResult.get("resultText"));

        // The first batch after the restart goes over a new connection, once (mcp §9: a closed peer is
        // seen before sending); that nothing ran twice is checked by the window count below.
        final Map<String, Object> lost = steps.get("act-after-restart");
        assertEquals(false, lost.get("isError"), lost.toString());
        assertEquals("Action completed.", lost.get("text"), lost.toString());

        final Map<String, Object> staleAcross = steps.get("stale-after-restart");
        assertTrue(((String) staleAcross.get("text")).startsWith("Action rejected: stale generation. "),
            "generations keep growing across the restart: " + staleAcross);

        assertEquals("Action completed.", steps.get("raise").get("text"), "raised gtk3-demo's window: " + steps.get("raise"));
        final Map<String, Object> again = steps.get("click-after-restart");
        assertEquals("Action completed.", again.get("text"), again.toString());
        assertEquals(((Number) click.get("windowsAfter")).intValue(), ((Number) again.get("windowsBefore")).intValue(),
            "no window appeared from the lost batch: " + again);
        assertEquals(((Number) again.get("windowsBefore")).intValue() - 1, ((Number) again.get("windowsAfter")).intValue(),
            "Run closes the demo's open window: one click, one toggle, nothing ran twice: " + again);
        assertFalse(result.stderr().contains("event=tool_failed"), result.stderr());
    }

    /** Copies the client and the scenario into target/ and runs {@code npm ci} there unless the SDK is installed. */
    private static void installClient(final Path sources, final Path clientDir, final String sdk)
        throws IOException, InterruptedException {
        Files.createDirectories(clientDir);
        for (final String name : new String[] {"package.json", "package-lock.json", "client.mjs", "tasks.mjs", "app-state.mjs",
            "web-app-tasks.mjs", "native-app-tasks.mjs"}) {
            if (!Files.exists(sources.resolve(name))) {
                continue; // the task suite's driver is the v1 client's only
            }
            Files.copy(sources.resolve(name), clientDir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        }
        Files.copy(SOURCES.resolve("mcp-client").resolve(SCENARIO), clientDir.resolve(SCENARIO),
            StandardCopyOption.REPLACE_EXISTING);
        if (Files.isDirectory(clientDir.resolve("node_modules").resolve(sdk))) {
            return;
        }
        final Path log = clientDir.resolve("npm-ci.log");
        final Process npm = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts")
            .directory(clientDir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(npm.waitFor(240, TimeUnit.SECONDS), "npm ci finished in time");
        assertEquals(0, npm.exitValue(), "npm ci: " + Files.readString(log));
    }

    /** The v1 SDK client (with the task suite's driver) installed in target/; returns its directory. */
    static Path installV1Client() throws IOException, InterruptedException {
        final Path clientDir = DIST.resolveSibling("mcp-client");
        installClient(SOURCES.resolve("mcp-client"), clientDir, "@modelcontextprotocol/sdk");
        return clientDir;
    }

    /** Starts {@code bin/saccade owner run} and waits until its input helper attached and the endpoint accepts. */
    /**
     * Until the new owner's scene holds gtk3-demo's Run button: on a loaded machine its first
     * accessibility read came after the client's first batch, which then (rightly) met
     * TARGET_NOT_FOUND; the step is about the adapter's new connection, not about that race.
     */
    private static void awaitRunButton(final Path endpoint) throws Exception {
        // the query's output, prefixed with its exit code when it failed
        Await.probe(() -> {
            final Process query = new ProcessBuilder(LAUNCHER.toString(), "query", "--endpoint", endpoint.toString(),
                "--text", "Run", "--role", "button", "--json").redirectErrorStream(true).start();
            final String out = new String(query.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(query.waitFor(30, TimeUnit.SECONDS));
            return query.exitValue() == 0 ? out : "exit " + query.exitValue() + ": " + out;
        }, out -> out.contains("\"target_id\"") && !out.startsWith("exit "), Duration.ofSeconds(60),
            out -> "the restarted owner's scene to hold the Run button; last: " + out);
    }

    static Process startOwner(final TestDesktop desktop, final Path runtime, final int incarnation)
        throws Exception {
        final Path log = runtime.resolve("owner-" + incarnation + ".log");
        final ProcessBuilder builder = desktop.configure(new ProcessBuilder(LAUNCHER.toString(), "owner", "run",
            "--display", desktop.display(), "--runtime-dir", runtime.toString()))
            .redirectErrorStream(true).redirectOutput(log.toFile());
        final Process owner = builder.start();
        ProcessLog.awaitContains(owner, log, log, Duration.ofSeconds(60), "event=helper_attached",
            "OwnerService - event=start");
        return owner;
    }
}
