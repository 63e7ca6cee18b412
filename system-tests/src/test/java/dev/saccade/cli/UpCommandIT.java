package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
}
