package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.testdesktop.WithTestDesktop;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The web and terminal task suite: {@code web-app-tasks.mjs} drives {@code saccade mcp} with the
 * official MCP SDK client against one owner (with its real input helper) on one test desktop, in
 * Chromium, Firefox ESR (one instance of each for all its tasks, started without accessibility
 * flags: the owner turns accessibility on, D50) and xterm. Each task reads only the text views and is
 * verified from the application's side: what the script's HTTP server on 127.0.0.1 received, what
 * the shell in xterm wrote. The table (AgentTaskSuiteIT's columns) is printed and written to
 * {@code target/web-app-tasks.md}.
 */
@WithTestDesktop
class WebAppTaskSuiteIT {
    /** Every task of the suite; all pass. */
    static final Set<String> TASKS = Set.of(
        "Chromium: fill the order form and submit",
        "Chromium: choose a size and save",
        "Chromium: follow the Contact link",
        "Chromium: scroll to the bottom and load more",
        "Chromium: search by typing and Enter",
        "Firefox: fill the order form and submit",
        "Firefox: choose a size and save",
        "Firefox: follow the Contact link",
        "Firefox: scroll to the bottom and load more",
        "Firefox: search by typing and Enter",
        "xterm: echo into a file",
        "xterm: count lines with wc");

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void webAndTerminalTasksThroughMcpAreDoneAndVerifiedByTheApplications(final TestDesktop desktop) throws Exception {
        final Path clientDir = McpSdkEndToEnd.installV1Client();
        final Path runtime = Files.createTempDirectory("saccade-web-tasks",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final Path scratch = Files.createDirectories(runtime.resolve("scratch"));
        final Path endpoint = runtime.resolve("saccade-agent-v1.sock");
        final Path clientErr = runtime.resolve("tasks.err");
        final Process owner = McpSdkEndToEnd.startOwner(desktop, runtime, 1);
        Process node = null;
        final List<Map<String, Object>> rows = new ArrayList<>();
        try {
            node = desktop.configure(new ProcessBuilder("node", "web-app-tasks.mjs",
                McpSdkEndToEnd.LAUNCHER.toString(), endpoint.toString(), scratch.toString()))
                .directory(clientDir.toFile()).redirectError(clientErr.toFile()).start();
            AgentTaskSuiteIT.readRows(node, clientErr, rows);
        } finally {
            if (node != null) {
                node.destroyForcibly();
            }
            KilledOwners.reclaim(runtime, owner);
            final String table = AgentTaskSuiteIT.table(rows);
            System.out.println(table);
            Files.writeString(Path.of("target/web-app-tasks.md"), table);
            try (var files = Files.walk(runtime)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        final String table = AgentTaskSuiteIT.table(rows);
        final Set<String> passed = new TreeSet<>();
        final List<Integer> calls = new ArrayList<>();
        final List<Integer> textMedians = new ArrayList<>();
        for (final Map<String, Object> row : rows) {
            textMedians.add(((Number) row.get("medianTextBytes")).intValue());
            if (Boolean.TRUE.equals(row.get("passed"))) {
                passed.add((String) row.get("task"));
            }
            calls.add(((Number) row.get("calls")).intValue());
            assertEquals(0, ((Number) row.get("staleAfterVerified")).intValue(), "no stale rejection right after a verified action: " + row);
            assertEquals(0, ((Number) row.get("blind")).intValue(), "no key typed without a scene showing where it goes: " + row);
            if (((String) row.get("task")).endsWith("fill the order form and submit")) {
                // one observation to find the form, then the actions: the goal of at most 8 calls
                assertTrue(((Number) row.get("calls")).intValue() + 1 <= 8, "the form in at most 8 calls: " + row);
            }
        }
        final Set<String> missing = new TreeSet<>(TASKS);
        missing.removeAll(passed);
        assertTrue(missing.isEmpty(), "tasks that fail: " + missing + "\n" + table);
        calls.sort(null);
        assertTrue(calls.get((calls.size() - 1) / 2) <= 4, "median calls per task (goal <= 4)\n" + table);
        textMedians.sort(null);
        assertTrue(textMedians.get((textMedians.size() - 1) / 2) <= 4096, "median text per observation (goal <= 4 KB)\n" + table);
    }
}
