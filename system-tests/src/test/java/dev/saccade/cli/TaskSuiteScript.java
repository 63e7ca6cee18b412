package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.TestDesktop;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * One run of a task suite's script ({@code tasks.mjs}, {@code web-app-tasks.mjs},
 * {@code native-app-tasks.mjs}): an owner with its real input helper on the test desktop, the
 * script under node with the v1 SDK client ({@code <bin/saccade> <endpoint> <scratch dir>}), its
 * rows read, and their table printed and written to {@code target/<table>} whatever happened.
 */
final class TaskSuiteScript {
    private TaskSuiteScript() {
    }

    /** Runs {@code script} with these extra environment variables; returns its rows (one a task). */
    static List<Map<String, Object>> run(final TestDesktop desktop, final String script, final Map<String, String> env,
        final String table) throws Exception {
        final Path clientDir = McpSdkEndToEnd.installV1Client();
        final Path runtime = Files.createTempDirectory("saccade-task-suite",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final Path scratch = Files.createDirectories(runtime.resolve("scratch"));
        final Path endpoint = runtime.resolve("saccade-agent-v1.sock");
        final Path clientErr = runtime.resolve("tasks.err");
        final Process owner = McpSdkEndToEnd.startOwner(desktop, runtime, 1);
        Process node = null;
        final List<Map<String, Object>> rows = new ArrayList<>();
        try {
            final ProcessBuilder driver = desktop.configure(new ProcessBuilder("node", script,
                McpSdkEndToEnd.LAUNCHER.toString(), endpoint.toString(), scratch.toString()))
                .directory(clientDir.toFile()).redirectError(clientErr.toFile());
            driver.environment().putAll(env);
            node = driver.start();
            AgentTaskSuiteIT.readRows(node, clientErr, rows);
        } finally {
            if (node != null) {
                node.destroyForcibly();
            }
            KilledOwners.reclaim(runtime, owner);
            final String text = AgentTaskSuiteIT.table(rows);
            System.out.println(text);
            Files.writeString(Path.of("target", table), text);
            // the client's stderr and the owner's log stay beside the table: what a failed task saw
            final String base = table.replaceFirst("\\.md$", "");
            keep(clientErr, base + "-client.log");
            keep(runtime.resolve("owner-1.log"), base + "-owner.log");
            try (var files = Files.walk(runtime)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        return rows;
    }

    /**
     * Asserts what every row must hold (no stale rejection right after a verified action; with
     * {@code blind}, no key typed without a view showing where it goes) and that each task of
     * {@code expected} whose name {@code only} matches (all when null) passed.
     */
    static void assertPassed(final List<Map<String, Object>> rows, final Set<String> expected, final String only,
        final boolean blind) {
        final Set<String> missing = new TreeSet<>(expected);
        if (only != null) {
            missing.removeIf(name -> !Pattern.compile(only).matcher(name).find());
        }
        for (final Map<String, Object> row : rows) {
            if (Boolean.TRUE.equals(row.get("passed"))) {
                missing.remove((String) row.get("task"));
            }
            assertEquals(0, ((Number) row.get("staleAfterVerified")).intValue(),
                "no stale rejection right after a verified action: " + row);
            if (blind) {
                assertEquals(0, ((Number) row.get("blind")).intValue(), "no key typed without a scene showing where it goes: " + row);
            }
        }
        assertTrue(missing.isEmpty(), "tasks that fail: " + missing + "\n" + AgentTaskSuiteIT.table(rows));
    }

    private static void keep(final Path file, final String name) throws java.io.IOException {
        if (Files.exists(file)) {
            Files.copy(file, Path.of("target", name), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** The median of the rows' {@code column} (the lower middle value). */
    static int median(final List<Map<String, Object>> rows, final String column) {
        final List<Integer> values = new ArrayList<>();
        rows.forEach(r -> values.add(((Number) r.get(column)).intValue()));
        values.sort(null);
        return values.isEmpty() ? 0 : values.get((values.size() - 1) / 2);
    }
}
