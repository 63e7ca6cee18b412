package dev.saccade.testdesktop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A JVM that never closes its desktop (Ctrl-C of {@code saccade up}) still leaves nothing behind. */
class TestDesktopShutdownHookTest {
    @Test
    @Timeout(60)
    void leavesNoProcessBehindWhenTheJvmIsInterrupted(@TempDir final Path temp) throws Exception {
        final Path stderr = temp.resolve("jvm.log");
        final Process jvm = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), DesktopUntilSignalled.class.getName())
            .redirectError(stderr.toFile()).start();
        List<ProcessProbe.Seen> desktopProcesses = List.of();
        try {
            final String ready = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8)).readLine();
            assertNotNull(ready, () -> "no desktop: " + read(stderr));
            final String[] fields = ready.split("\t");
            final int display = Integer.parseInt(fields[1].substring(1));
            final Path directory = Path.of(fields[3]);
            desktopProcesses = ProcessProbe.withEnvironment("XDG_RUNTIME_DIR", fields[2]);
            final Set<String> commands = desktopProcesses.stream().map(ProcessProbe.Seen::command).collect(Collectors.toSet());
            assertTrue(commands.containsAll(List.of("Xvfb", "dbus-daemon", "openbox", "gtk3-demo", "zenity",
                "at-spi-bus-laun", "at-spi2-registr")), desktopProcesses.toString());

            new ProcessBuilder("kill", "-INT", Long.toString(jvm.pid())).start().waitFor();

            assertTrue(jvm.waitFor(30, TimeUnit.SECONDS), "JVM did not exit on SIGINT");
            assertEquals(List.of(), desktopProcesses.stream().filter(p -> !p.isGone()).toList(), read(stderr));
            assertFalse(Files.exists(directory, LinkOption.NOFOLLOW_LINKS));
            assertFalse(Files.exists(XvfbServer.socketPath(display), LinkOption.NOFOLLOW_LINKS));
            assertFalse(Files.exists(XvfbServer.lockPath(display), LinkOption.NOFOLLOW_LINKS));
            assertTrue(read(stderr).contains("event=desktop-stop"), read(stderr));
        } finally {
            // Only if the hook failed: do not let this test leak a desktop into the next.
            jvm.destroyForcibly();
            for (final ProcessProbe.Seen process : desktopProcesses) {
                if (!process.isGone()) {
                    ProcessHandle.of(process.pid()).ifPresent(ProcessHandle::destroyForcibly);
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
