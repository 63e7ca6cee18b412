package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's main job, end to end through the built distribution: {@code bin/saccade up}
 * without a display starts a headless demo desktop and the service; a second {@code saccade}
 * process reads the demo apps' windows from it; SIGTERM stops every process it started and
 * unlinks the endpoint.
 */
@Tag("desktop")
class UpCommandIT {
    private static final Path LAUNCHER = Path.of(System.getProperty("saccade.dist.dir")).resolve("bin/saccade");

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void upServesAHeadlessDemoDesktopAndStopsEverythingOnSigterm() throws Exception {
        final Path runtime = Files.createDirectory(dir.resolve("run"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try (UpProcess up = UpProcess.start(LAUNCHER, runtime)) {
            up.awaitUp(60);
            final Path endpoint = runtime.resolve("saccade/saccade-agent-v1.sock");
            assertTrue(Files.exists(endpoint), "endpoint at the default path");
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(endpoint)));
            assertTrue(up.process.descendants().anyMatch(p -> p.info().command().orElse("").endsWith("Xvfb")),
                "an Xvfb was started");

            final UpProcess.Ran query = up.cli("query", "--role", "window", "--json");
            final String json = query.out();
            assertEquals(0, query.code(), json);
            assertTrue(json.contains("\"text\" : \"Calculator\""), json);
            assertTrue(json.contains("\"text\" : \"Saccade entry\""), json);
            assertTrue(json.contains("\"role\" : \"WINDOW\""), json);

            up.stopAndCheckNothingLeft();
            assertFalse(Files.exists(endpoint), "endpoint unlinked at shutdown");
        }
    }

    /**
     * The demo desktop's X server dies (SIGKILL, as when a signal ended it but not up): up stops
     * by itself and does not restart owners against the dead display; nothing it started is left.
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void upStopsWhenItsDemoDesktopsXServerIsGone() throws Exception {
        final Path runtime = Files.createDirectory(dir.resolve("run"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try (UpProcess up = UpProcess.start(LAUNCHER, runtime, "--apps", "none")) {
            up.awaitUp(60);
            final List<ProcessHandle> started = up.process.descendants().toList();
            final ProcessHandle xvfb = started.stream().filter(p -> p.info().command().orElse("").endsWith("Xvfb"))
                .findFirst().orElseThrow(() -> new AssertionError("no Xvfb among " + started));
            assertTrue(xvfb.destroyForcibly(), "SIGKILL to Xvfb");
            assertTrue(up.process.waitFor(60, TimeUnit.SECONDS), "up stops once its X server is gone; printed: "
                + up.printed());
            final long ownerStarts = up.printed().stream().filter(l -> l.contains("event=owner_exit")).count();
            assertTrue(ownerStarts <= 1, "no owner restarted against the dead display: " + up.printed());
            assertTrue(up.printed().stream().anyMatch(l -> l.contains("event=display_gone")), up.printed()::toString);
            for (final ProcessHandle p : started) {
                assertTrue(p.onExit().toCompletableFuture().completeOnTimeout(null, 10, TimeUnit.SECONDS).join() != null
                    || !p.isAlive(), "left running: " + p.pid() + " " + p.info().command().orElse("?"));
            }
        }
    }
}
