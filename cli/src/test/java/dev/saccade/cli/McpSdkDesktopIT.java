package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.testdesktop.DemoApp;
import dev.saccade.testdesktop.TestDesktop;
import dev.saccade.testdesktop.WithTestDesktop;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 7's end-to-end proof with the official MCP TypeScript SDK ({@code @modelcontextprotocol/sdk},
 * pinned in {@code src/test/mcp-client/package-lock.json}, installed by {@code npm ci} under
 * {@code target/} when missing): {@code client.mjs} runs {@code Client} with
 * {@code StdioClientTransport} spawning the distribution's {@code bin/saccade mcp}, against an
 * owner ({@code bin/saccade owner run}, with its real input helper) on the test desktop with
 * gtk3-demo. It lists the tools, observes, queries the Run button by its text, clicks it with the
 * generation precondition and verifyNextGeneration and sees the demo's new window in a later
 * observe; a stale generation is {@code isError: true} with the typed result. The owner is then
 * killed with SIGKILL and started again: the next action fails with "Action transport failed" and
 * is never resent (the demo's window stays open until a later click on Run toggles it closed), and
 * the old generation is stale.
 */
@WithTestDesktop(apps = DemoApp.GTK3_DEMO)
class McpSdkDesktopIT {
    private static final Path DIST = Path.of(System.getProperty("saccade.dist.dir"));
    static final Path LAUNCHER = DIST.resolve("bin/saccade");
    private static final Path CLIENT_SOURCES = Path.of("src/test/mcp-client");
    static final Path CLIENT_DIR = DIST.resolveSibling("mcp-client");

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void theOfficialSdkObservesQueriesAndClicksAndNoActionRunsTwiceAcrossARestart(final TestDesktop desktop)
        throws Exception {
        installClient();
        final Path runtime = Files.createTempDirectory("saccade-mcp-e2e",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final Path endpoint = runtime.resolve("saccade-agent-v1.sock");
        final Path clientErr = runtime.resolve("client.err");
        Process owner = startOwner(desktop, runtime, 1);
        Process node = null;
        try {
            node = new ProcessBuilder("node", "client.mjs", LAUNCHER.toString(), endpoint.toString())
                .directory(CLIENT_DIR.toFile()).redirectError(clientErr.toFile()).start();
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
                    in.write("go\n".getBytes(StandardCharsets.US_ASCII));
                    in.flush();
                }
            }
            assertTrue(node.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, node.exitValue(), Files.readString(clientErr));
            assertTrue(steps.containsKey("done"), "client finished: " + steps.keySet() + "\n" + Files.readString(clientErr));

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

            final Map<String, Object> lost = steps.get("act-after-restart");
            assertEquals(true, lost.get("isError"), lost.toString());
            assertEquals("Action transport failed", lost.get("text"), lost.toString());

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
            assertFalse(Files.readString(clientErr).contains("event=tool_failed"), Files.readString(clientErr));
        } finally {
            if (node != null) {
                node.destroyForcibly();
            }
            owner.destroyForcibly();
            owner.waitFor(10, TimeUnit.SECONDS);
            try (var files = Files.walk(runtime)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Copies the client into target/ and runs {@code npm ci} there unless node_modules exists. */
    static void installClient() throws IOException, InterruptedException {
        Files.createDirectories(CLIENT_DIR);
        for (final String name : new String[] {"package.json", "package-lock.json", "client.mjs", "tasks.mjs"}) {
            Files.copy(CLIENT_SOURCES.resolve(name), CLIENT_DIR.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        }
        if (Files.isDirectory(CLIENT_DIR.resolve("node_modules/@modelcontextprotocol/sdk"))) {
            return;
        }
        final Path log = CLIENT_DIR.resolve("npm-ci.log");
        final Process npm = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts")
            .directory(CLIENT_DIR.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(npm.waitFor(240, TimeUnit.SECONDS), "npm ci finished in time");
        assertEquals(0, npm.exitValue(), "npm ci: " + Files.readString(log));
    }

    /** Starts {@code bin/saccade owner run} and waits until its input helper attached and the endpoint accepts. */
    static Process startOwner(final TestDesktop desktop, final Path runtime, final int incarnation)
        throws Exception {
        final Path log = runtime.resolve("owner-" + incarnation + ".log");
        final ProcessBuilder builder = desktop.configure(new ProcessBuilder(LAUNCHER.toString(), "owner", "run",
            "--display", desktop.display(), "--runtime-dir", runtime.toString()))
            .redirectErrorStream(true).redirectOutput(log.toFile());
        final Process owner = builder.start();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!(Files.exists(log) && Files.readString(log).contains("event=helper_attached")
            && Files.readString(log).contains("OwnerService - event=start"))) {
            assertTrue(owner.isAlive(), "the owner died: " + Files.readString(log));
            assertTrue(System.nanoTime() < deadline, "the owner did not start: " + Files.readString(log));
            Thread.onSpinWait();
        }
        return owner;
    }
}
