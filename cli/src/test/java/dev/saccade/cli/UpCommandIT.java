package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's main job, end to end through the built distribution: {@code bin/saccade up}
 * without a display starts a headless demo desktop and the service; a second {@code saccade}
 * process reads the demo apps' windows from it; SIGTERM stops every process it started and
 * unlinks the endpoint.
 */
class UpCommandIT {
    private static final Path LAUNCHER = Path.of(System.getProperty("saccade.dist.dir")).resolve("bin/saccade");

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void upServesAHeadlessDemoDesktopAndStopsEverythingOnSigterm() throws Exception {
        final Path runtime = Files.createDirectory(dir.resolve("run"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final ProcessBuilder upBuilder = new ProcessBuilder(LAUNCHER.toString(), "up").redirectErrorStream(true);
        upBuilder.environment().remove("DISPLAY");
        upBuilder.environment().put("XDG_RUNTIME_DIR", runtime.toString());
        final Process up = upBuilder.start();
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        final Thread pump = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(up.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    lines.add(line);
                }
            } catch (final IOException ignore) {
                // the process ended; what it printed is in the queue
            }
        });
        pump.start();
        final List<String> seen = new ArrayList<>();
        try {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (seen.stream().noneMatch(l -> l.startsWith("Saccade is up."))) {
                final String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                assertTrue(line != null, "no 'Saccade is up.' within 60 s; printed: " + seen);
                seen.add(line);
            }
            final Path endpoint = runtime.resolve("saccade/saccade-agent-v1.sock");
            assertTrue(Files.exists(endpoint), "endpoint at the default path");
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(endpoint)));
            final List<ProcessHandle> started = up.descendants().toList();
            assertTrue(started.stream().anyMatch(p -> p.info().command().orElse("").endsWith("Xvfb")), "an Xvfb was started");

            final ProcessBuilder queryBuilder = new ProcessBuilder(LAUNCHER.toString(), "query", "--role", "window", "--json")
                .redirectErrorStream(true);
            queryBuilder.environment().remove("DISPLAY");
            queryBuilder.environment().put("XDG_RUNTIME_DIR", runtime.toString());
            final Process query = queryBuilder.start();
            final String json = new String(query.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(query.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, query.exitValue(), json);
            assertTrue(json.contains("\"text\" : \"Calculator\""), json);
            assertTrue(json.contains("\"text\" : \"Saccade entry\""), json);
            assertTrue(json.contains("\"role\" : \"WINDOW\""), json);

            up.destroy(); // SIGTERM
            assertTrue(up.waitFor(30, TimeUnit.SECONDS), "up stops on SIGTERM");
            for (final ProcessHandle p : started) {
                assertTrue(p.onExit().toCompletableFuture().completeOnTimeout(null, 10, TimeUnit.SECONDS).join() != null
                    || !p.isAlive(), "left running: " + p.pid() + " " + p.info().command().orElse("?"));
            }
            assertFalse(Files.exists(endpoint), "endpoint unlinked at shutdown");
        } finally {
            up.destroyForcibly();
            up.descendants().forEach(ProcessHandle::destroyForcibly);
            pump.join(5_000);
        }
    }
}
