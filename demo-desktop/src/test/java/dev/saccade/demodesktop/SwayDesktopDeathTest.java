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

/** A JVM killed with SIGKILL while its sway session runs: the lifeline watchdog removes it all. */
@Tag("desktop")
class SwayDesktopDeathTest {
    @Test
    @Timeout(60)
    void theLifelineStopsAKilledJvmsSessionAndDeletesItsDirectory(@TempDir final Path temp) throws Exception {
        final Path stderr = temp.resolve("jvm.log");
        final Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), SwayUntilKilled.class.getName())
            .redirectError(stderr.toFile()).start();
        List<ProcessProbe.Seen> session = List.of();
        try {
            final String ready = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8))
                .readLine();
            assertNotNull(ready, () -> "no session: " + read(stderr));
            final String[] fields = ready.split("\t");
            session = ProcessProbe.withEnvironment("XDG_RUNTIME_DIR", fields[1]);
            final Set<String> commands = session.stream().map(ProcessProbe.Seen::command).collect(Collectors.toSet());
            assertTrue(commands.containsAll(List.of("sway", "dbus-daemon", "zenity", "at-spi-bus-laun")), session.toString());
            final Path root = Path.of(fields[2]);

            jvm.destroyForcibly();
            assertTrue(jvm.waitFor(10, TimeUnit.SECONDS));
            final List<ProcessProbe.Seen> started = session;
            Await.until(() -> started.stream().allMatch(ProcessProbe.Seen::isGone)
                && !Files.exists(root, LinkOption.NOFOLLOW_LINKS), Duration.ofSeconds(20), Duration.ofMillis(20),
                () -> "the session's processes and " + root + " gone; still running "
                    + started.stream().filter(p -> !p.isGone()).toList() + ", root there: "
                    + Files.exists(root, LinkOption.NOFOLLOW_LINKS));
            assertEquals(List.of(), session.stream().filter(p -> !p.isGone()).toList(), read(stderr));
            assertFalse(Files.exists(root, LinkOption.NOFOLLOW_LINKS), root.toString());
        } finally {
            jvm.destroyForcibly();
            for (final ProcessProbe.Seen seen : session) {
                if (!seen.isGone()) {
                    ProcessHandle.of(seen.pid()).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
        }
    }

    private static String read(final Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (final java.io.IOException e) {
            return "(" + e + ")";
        }
    }
}
