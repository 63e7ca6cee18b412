package dev.saccade.cli;

import dev.saccade.demodesktop.GnomeDesktop;
import dev.saccade.demodesktop.KdeDesktop;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.gnome.ShellExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * The agent task suite's core tasks on the Wayland desktops most people run: a headless GNOME
 * Shell 43 session, then a headless KWin 5.27 one, each started for its test and stopped by pid
 * after it. On each, an owner with its real input helper serves the session (as {@code saccade
 * up --gnome} and {@code --kde} do), and {@code tasks.mjs} drives {@code saccade mcp} with the
 * official MCP SDK client through a zenity entry, a zenity list, two zenity dialogs and the Qt
 * calculator, reading only the text views and typing nothing blind. The apps run as the
 * session's user with its environment ({@code SACCADE_TASKS_RUN_AS}, tasks.mjs); each task is
 * verified from the app: what zenity printed and its exit code, the calculator's display over its
 * own AT-SPI objects. Each desktop's table goes to {@code target/agent-tasks-<desktop>.md}.
 */
@Tag("desktop")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DesktopTaskSuiteIT {
    /** The core tasks of tasks.mjs: an entry, a list, a dialog's two buttons, the calculator. */
    static final Set<String> CORE = Set.of(
        "zenity entry: type a line, OK",
        "zenity list: pick banana",
        "zenity question: Yes",
        "zenity info: OK",
        "Qt calculator: 7 + 8 = shows 15");

    @Test
    @Order(1)
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void coreTasksOnGnomeAreDoneOverMcpAndVerifiedByTheApps() throws Exception {
        try (GnomeDesktop gnome = GnomeDesktop.start(1280, 800, "us", ShellExtension.UUID, ShellExtension.files())) {
            keepingLogs(gnome.logDirectory(), "gnome", () -> run("wayland:" + gnome.waylandSocket(),
                gnome.environment(), gnome.asSessionUser(List.of()), "gnome"));
        }
    }

    @Test
    @Order(2)
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void coreTasksOnKwinAreDoneOverMcpAndVerifiedByTheApps() throws Exception {
        try (KdeDesktop kde = KdeDesktop.start(1280, 800, "us")) {
            keepingLogs(kde.logDirectory(), "kde", () -> run("wayland:" + kde.waylandSocket(),
                kde.environment(), kde.asSessionUser(List.of()), "kde"));
        }
    }

    /** Runs the core tasks on {@code display}, whose apps run with {@code environment} behind {@code runAs}. */
    private static void run(final String display, final Map<String, String> environment, final List<String> runAs,
        final String desktop) throws Exception {
        final UnaryOperator<ProcessBuilder> configure = builder -> {
            TestDesktop.droppedVariables().forEach(builder.environment()::remove);
            builder.environment().putAll(environment);
            return builder;
        };
        final String only = "^(" + String.join("|", CORE.stream().map(DesktopTaskSuiteIT::quote).toList()) + ")$";
        final List<Map<String, Object>> rows = TaskSuiteScript.run(display, configure, "tasks.mjs",
            Map.of("TASKS_ONLY", only, "SACCADE_TASKS_RUN_AS", json(runAs)), "agent-tasks-" + desktop + ".md");
        TaskSuiteScript.assertPassed(rows, CORE, null, true);
    }

    /** Runs {@code body}; if it fails, first copies the session's logs to {@code target/desktop-tasks-<name>-logs}. */
    private static void keepingLogs(final Path logs, final String name, final Body body) throws Exception {
        try {
            body.run();
        } catch (Exception | AssertionError e) {
            final Path kept = Files.createDirectories(Path.of("target", "desktop-tasks-" + name + "-logs"));
            try (Stream<Path> files = Files.list(logs)) {
                for (final Path file : files.filter(Files::isRegularFile).toList()) {
                    Files.copy(file, kept.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            throw e;
        }
    }

    /** A test step that may throw. */
    @FunctionalInterface
    private interface Body {
        void run() throws Exception;
    }

    /** {@code name} as a JavaScript regular expression matching exactly it. */
    private static String quote(final String name) {
        return name.replaceAll("[\\\\^$.|?*+()\\[\\]{}]", "\\\\$0");
    }

    /** A JSON array of plain strings (command words: no quotes or backslashes in them). */
    private static String json(final List<String> words) {
        return words.stream().map(w -> "\"" + w + "\"").toList().toString().replace(", ", ",");
    }
}
