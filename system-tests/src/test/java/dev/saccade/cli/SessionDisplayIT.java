package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.supervisor.ControlRequest;
import dev.saccade.supervisor.SupervisorClient;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Bound to the graphical session: the built distribution's supervisor started the way
 * the systemd user manager starts the login item before the session has imported its display
 * (no DISPLAY, INVOCATION_ID set) waits for one and says so in {@code saccade supervisor status}
 * and {@code saccade doctor}; once the user manager's environment has DISPLAY (what
 * {@code systemctl --user import-environment DISPLAY} does) it takes it and its owner serves the
 * real test desktop. No user manager runs on the CI machine, so {@code systemctl} on the
 * supervisor's PATH is a script that prints a file as {@code show-environment} would.
 */
@WithTestDesktop
class SessionDisplayIT {
    private static final Path DIST = Path.of(System.getProperty("saccade.dist.dir"));

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aSupervisorWithoutADisplayWaitsSaysSoAndTakesTheOneTheSessionImports(final TestDesktop desktop) throws Exception {
        final Path dir = Files.createTempDirectory("saccade-session-display",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final Path runtime = dir.resolve(RuntimeDirectory.DIRECTORY_NAME);
        final Path managerEnvironment = dir.resolve("manager.env");
        final Path bin = Files.createDirectory(dir.resolve("bin"));
        Files.writeString(bin.resolve("systemctl"), "#!/bin/sh\n"
            + "[ \"$1 $2\" = \"--user show-environment\" ] || exit 1\n"
            + "echo PATH=/usr/bin:/bin\n"
            + "[ -f '" + managerEnvironment + "' ] && cat '" + managerEnvironment + "'\n"
            + "exit 0\n");
        Files.setPosixFilePermissions(bin.resolve("systemctl"), PosixFilePermissions.fromString("rwx------"));
        final ProcessBuilder builder = new ProcessBuilder(DIST.resolve("bin/saccade").toString(), "supervisor", "run",
            "--runtime-dir", runtime.toString(), "--no-input-helper",
            "--owner-java-options", "-Dsaccade.owner.accessibility=false")
            .redirectErrorStream(true).redirectOutput(dir.resolve("supervisor.log").toFile());
        final Map<String, String> env = builder.environment();
        env.remove("DISPLAY");
        env.remove("NOTIFY_SOCKET");
        env.put("INVOCATION_ID", "0123456789abcdef0123456789abcdef");
        env.put("PATH", bin + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        final Process supervisor = builder.start();
        try {
            final Path control = runtime.resolve(RuntimeDirectory.SUPERVISOR_SOCKET_NAME);
            Map<String, String> status = awaitStatus(control, supervisor, s -> s.containsKey("display_source"));
            assertEquals("waiting", status.get("display_source"), status::toString);
            assertEquals("", status.get("display"));
            assertTrue(status.get("display_hint").contains("systemctl --user import-environment DISPLAY XAUTHORITY"),
                status::toString);
            final String waiting = SupervisorClient.request(control, ControlRequest.status(), 10_000);
            assertTrue(waiting.contains("\"name\":\"owner\",\"running\":false"), "no owner without a display: " + waiting);

            final CliRun doctorWaiting = CliRun.run("doctor", "--display", desktop.display(),
                "--endpoint", runtime.resolve(RuntimeDirectory.AGENT_SOCKET_NAME).toString());
            assertTrue(doctorWaiting.out.contains("PROBLEM  supervisor pid " + supervisor.pid() + ": waiting "),
                doctorWaiting.out);
            assertTrue(doctorWaiting.out.contains("fix:   from the graphical session: systemctl --user import-environment"),
                doctorWaiting.out);

            // the session imports its display into the user manager
            Files.writeString(managerEnvironment, "DISPLAY=" + desktop.display() + "\n");
            status = awaitStatus(control, supervisor, s -> !"waiting".equals(s.get("display_source")));
            assertEquals("user manager", status.get("display_source"), status::toString);
            assertEquals(desktop.display(), status.get("display"));
            Await.probe(() -> SupervisorClient.request(control, ControlRequest.status(), 10_000),
                reply -> reply.contains("\"name\":\"owner\",\"running\":true"), Duration.ofSeconds(60), Duration.ofMillis(50),
                reply -> "an owner serving the imported display; status " + reply + "; log: "
                    + ProcessLog.read(dir.resolve("supervisor.log")));
            final CliRun doctor = CliRun.run("doctor", "--display", desktop.display(),
                "--endpoint", runtime.resolve(RuntimeDirectory.AGENT_SOCKET_NAME).toString());
            assertTrue(doctor.out.contains("ok       supervisor pid " + supervisor.pid() + ": display " + desktop.display()
                + " (from its user manager)"), doctor.out);
            assertTrue(doctor.out.contains("ok       endpoint "), doctor.out);
        } finally {
            supervisor.destroy();
            if (!supervisor.waitFor(30, TimeUnit.SECONDS)) {
                supervisor.descendants().forEach(ProcessHandle::destroyForcibly);
                supervisor.destroyForcibly();
            }
            SupervisorIT.deleteTree(dir);
        }
    }

    private static Map<String, String> awaitStatus(final Path control, final Process supervisor,
        final java.util.function.Predicate<Map<String, String>> until) throws Exception {
        // the status, empty while the control socket is not bound yet
        final Map<String, String> status = Await.probe(() -> {
            try {
                return SupervisorStatusFields.of(SupervisorClient.request(control, ControlRequest.status(), 10_000));
            } catch (final IOException notYet) {
                return Map.<String, String>of();
            }
        }, s -> !s.isEmpty() && until.test(s) || !supervisor.isAlive(), Duration.ofSeconds(60), Duration.ofMillis(50),
            s -> "a status that matches; last " + s);
        assertTrue(!status.isEmpty() && until.test(status), "the supervisor exited");
        return status;
    }
}
