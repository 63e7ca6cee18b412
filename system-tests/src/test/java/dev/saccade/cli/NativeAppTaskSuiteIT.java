package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.testdesktop.WithTestDesktop;
import java.io.File;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The native application task suite: {@code native-app-tasks.mjs} drives {@code saccade mcp} with
 * the official MCP SDK client against one owner (with its real input helper) on one test desktop,
 * in gnome-calculator and gnome-text-editor (GTK 4), a Swing application ({@link SwingChooserApp}
 * with the Java ATK wrapper) and LibreOffice Writer and Calc (one soffice for all of them, GTK 3
 * VCL plugin; each task closes its document once saved). Each task reads only the text views, acts on target ids or
 * on a focused target it saw, and is verified from the application's own output: the result it
 * copied to the clipboard, the file it saved, the line it printed. The table (AgentTaskSuiteIT's columns) is printed
 * and written to {@code target/native-app-tasks.md}; the assertion is the set of tasks that pass
 * today ({@link #PASSING}); a task outside it is reported in the table, not hidden.
 */
@WithTestDesktop
class NativeAppTaskSuiteIT {
    /** The tasks that pass on this branch (13 of 13 on 2026-12-07). */
    static final Set<String> PASSING = Set.of(
        "gnome-calculator: 12 × 3 = 36, copied", "gnome-calculator: 100 − 58 = 42, copied",
        "gnome-calculator: 7 × 6 by its buttons", "gnome-calculator: 2^10 filled, copied",
        "gnome-text-editor: type a line, save through the file chooser",
        "gnome-text-editor: type into a file, Ctrl+S", "gnome-text-editor: fill a paragraph, Ctrl+S",
        "Swing: pick Cherry from the combo box popup", "Swing: choose the table row Grace",
        "LibreOffice Calc: two values and a sum, save as CSV", "LibreOffice Calc: 42 into B2 by its cell, save as CSV",
        "LibreOffice Writer: type a sentence, save as text", "LibreOffice Writer: fill a paragraph, save as text");

    /** {@code -Dsaccade.tasks.only=REGEX}: run only the tasks whose names match (the script's TASKS_ONLY). */
    private static final String ONLY = System.getProperty("saccade.tasks.only");

    /**
     * The command that starts {@link SwingChooserApp} with the Java ATK wrapper, as the JSON array
     * the script reads (SWING_APP), as {@link SwingDesktopTest} starts it.
     */
    private static String swingCommand() {
        final List<String> command = List.of(ProcessHandle.current().info().command().orElse("java"),
            "-Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper",
            "-Djava.library.path=" + SwingDesktopTest.WRAPPER_JNI,
            "-cp", System.getProperty("java.class.path") + File.pathSeparator + SwingDesktopTest.WRAPPER,
            SwingChooserApp.class.getName());
        return command.stream().map(a -> '"' + a.replace("\\", "\\\\").replace("\"", "\\\"") + '"')
            .collect(Collectors.joining(",", "[", "]"));
    }

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void nativeAppTasksThroughMcpAreDoneAndVerifiedByTheApplications(final TestDesktop desktop) throws Exception {
        final Map<String, String> env = new HashMap<>();
        if (ONLY != null) {
            env.put("TASKS_ONLY", ONLY);
        }
        env.put("SWING_APP", swingCommand());
        final List<Map<String, Object>> rows = TaskSuiteScript.run(desktop, "native-app-tasks.mjs", env,
            "native-app-tasks.md");
        TaskSuiteScript.assertPassed(rows, PASSING, ONLY, false); // the script never types blind: it fails the task instead
        if (ONLY == null) {
            assertTrue(TaskSuiteScript.median(rows, "calls") <= 4, "median calls per task (goal <= 4)\n"
                + AgentTaskSuiteIT.table(rows));
        }
    }
}
