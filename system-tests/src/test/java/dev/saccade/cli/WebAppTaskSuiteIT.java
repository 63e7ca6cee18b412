package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.testdesktop.WithTestDesktop;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

    /** {@code -Dsaccade.tasks.only=REGEX}: run only the tasks whose names match (the script's TASKS_ONLY). */
    private static final String ONLY = System.getProperty("saccade.tasks.only");

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void webAndTerminalTasksThroughMcpAreDoneAndVerifiedByTheApplications(final TestDesktop desktop) throws Exception {
        final List<Map<String, Object>> rows = TaskSuiteScript.run(desktop, "web-app-tasks.mjs",
            ONLY == null ? Map.of() : Map.of("TASKS_ONLY", ONLY), "web-app-tasks.md");
        final String table = AgentTaskSuiteIT.table(rows);
        TaskSuiteScript.assertPassed(rows, TASKS, ONLY, true);
        if (ONLY != null) {
            return; // some tasks only: the medians below are the whole suite's
        }
        final List<Integer> calls = new ArrayList<>();
        final List<Integer> textMedians = new ArrayList<>();
        for (final Map<String, Object> row : rows) {
            textMedians.add(((Number) row.get("medianTextBytes")).intValue());
            calls.add(((Number) row.get("calls")).intValue());
            if (((String) row.get("task")).endsWith("fill the order form and submit")) {
                // one observation to find the form, then the actions: the goal of at most 8 calls
                assertTrue(((Number) row.get("calls")).intValue() + 1 <= 8, "the form in at most 8 calls: " + row);
            }
        }
        calls.sort(null);
        assertTrue(calls.get((calls.size() - 1) / 2) <= 4, "median calls per task (goal <= 4)\n" + table);
        textMedians.sort(null);
        assertTrue(textMedians.get((textMedians.size() - 1) / 2) <= 4096, "median text per observation (goal <= 4 KB)\n" + table);
    }
}
