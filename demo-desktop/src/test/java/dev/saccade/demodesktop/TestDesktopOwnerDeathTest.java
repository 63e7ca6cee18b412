package dev.saccade.demodesktop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.testsupport.Await;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM that never closes its desktop still leaves nothing behind: on Ctrl-C (SIGINT, the
 * shutdown hook) and on SIGKILL (no hook runs; the lifeline watchdog cleans up).
 */
@Tag("desktop")
class TestDesktopOwnerDeathTest {
    @Test
    @Timeout(60)
    void leavesNoProcessBehindWhenTheJvmIsInterrupted(@TempDir final Path temp) throws Exception {
        try (OwnerJvm jvm = OwnerJvm.start(temp)) {
            new ProcessBuilder("kill", "-INT", Long.toString(jvm.process.pid())).start().waitFor();

            assertTrue(jvm.process.waitFor(30, TimeUnit.SECONDS), "JVM did not exit on SIGINT");
            // The hook ran close() before the JVM exited: nothing is left at this point already.
            jvm.assertNothingLeft();
            assertTrue(jvm.log().contains("event=desktop-stop"), jvm.log());
        }
    }

    @Test
    @Timeout(60)
    void leavesNoProcessBehindWhenTheJvmIsKilled(@TempDir final Path temp) throws Exception {
        try (OwnerJvm jvm = OwnerJvm.start(temp)) {
            jvm.process.destroyForcibly();
            assertTrue(jvm.process.waitFor(10, TimeUnit.SECONDS));

            // The watchdog works asynchronously once it sees the JVM's pipe close.
            Await.until(jvm::nothingLeft, Duration.ofSeconds(20), Duration.ofMillis(20),
                () -> "nothing of the desktop left (processes, directory, X socket and lock); log: " + jvm.log());
            jvm.assertNothingLeft();
            assertFalse(jvm.log().contains("event=desktop-stop"), "no hook can run on SIGKILL");
        }
    }

    /** A JVM running {@link DesktopUntilSignalled}, and what its desktop consists of. */
    private static final class OwnerJvm implements AutoCloseable {
        final Process process;
        final Path stderr;
        final int display;
        final Path directory;
        final List<ProcessProbe.Seen> desktopProcesses;

        private OwnerJvm(final Process process, final Path stderr, final int display, final Path directory,
            final List<ProcessProbe.Seen> desktopProcesses) {
            this.process = process;
            this.stderr = stderr;
            this.display = display;
            this.directory = directory;
            this.desktopProcesses = desktopProcesses;
        }

        static OwnerJvm start(final Path temp) throws Exception {
            final Path stderr = temp.resolve("jvm.log");
            // SIGINT's default action restored for the child: a JVM started with it ignored (the
            // background job of a shell, mvn run with SIGINT ignored) never installs its handler.
            final Process process = new ProcessBuilder("env", "--default-signal=INT",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), DesktopUntilSignalled.class.getName())
                .redirectError(stderr.toFile()).start();
            final String ready = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))
                .readLine();
            assertNotNull(ready, () -> "no desktop: " + read(stderr));
            final String[] fields = ready.split("\t");
            final List<ProcessProbe.Seen> desktopProcesses = ProcessProbe.withEnvironment("XDG_RUNTIME_DIR", fields[2]);
            final Set<String> commands = desktopProcesses.stream().map(ProcessProbe.Seen::command).collect(Collectors.toSet());
            assertTrue(commands.containsAll(List.of("Xvfb", "dbus-daemon", "openbox", "gtk3-demo", "zenity",
                "at-spi-bus-laun", "at-spi2-registr")), desktopProcesses.toString());
            return new OwnerJvm(process, stderr, Integer.parseInt(fields[1].substring(1)), Path.of(fields[3]),
                desktopProcesses);
        }

        boolean nothingLeft() {
            return desktopProcesses.stream().allMatch(ProcessProbe.Seen::isGone)
                && !Files.exists(directory, LinkOption.NOFOLLOW_LINKS)
                && !Files.exists(XvfbServer.socketPath(display), LinkOption.NOFOLLOW_LINKS)
                && !Files.exists(XvfbServer.lockPath(display), LinkOption.NOFOLLOW_LINKS);
        }

        void assertNothingLeft() {
            assertEquals(List.of(), desktopProcesses.stream().filter(p -> !p.isGone()).toList(), log());
            assertFalse(Files.exists(directory, LinkOption.NOFOLLOW_LINKS), directory.toString());
            assertFalse(Files.exists(XvfbServer.socketPath(display), LinkOption.NOFOLLOW_LINKS));
            assertFalse(Files.exists(XvfbServer.lockPath(display), LinkOption.NOFOLLOW_LINKS));
        }

        String log() {
            return read(stderr);
        }

        /** Only if the code under test failed: do not let this test leak a desktop into the next. */
        @Override
        public void close() {
            process.destroyForcibly();
            for (final ProcessProbe.Seen seen : desktopProcesses) {
                if (!seen.isGone()) {
                    ProcessHandle.of(seen.pid()).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
        }
    }

    private static String read(final Path file) {
        try {
            return Files.readString(file);
        } catch (final java.io.IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
