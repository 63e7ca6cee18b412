package dev.saccade.installer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Systemctl} against stand-in executables that answer like systemctl does (a test must not
 * enable anything in a real user manager), and against a missing one.
 */
class SystemctlTest {
    @TempDir
    Path temp;

    private Path standIn(final String state, final int exitCode) throws Exception {
        final Path script = temp.resolve("systemctl-" + state);
        Files.writeString(script, "#!/bin/sh\nprintf '%s\\n' \"$*\" >> \"$0.args\"\necho " + state + "\nexit " + exitCode + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }

    @Test
    @Timeout(30)
    void aDegradedManagerIsReachableAndAnOfflineOneIsNot() throws Exception {
        final Path degraded = standIn("degraded", 1);
        final Path offline = standIn("offline", 1);

        assertTrue(new Systemctl(degraded.toString()).userManagerReachable());
        assertFalse(new Systemctl(offline.toString()).userManagerReachable());
        assertEquals("--user is-system-running\n", Files.readString(Path.of(degraded + ".args")));
    }

    @Test
    @Timeout(30)
    void aMissingExecutableMeansNoManager() {
        assertFalse(new Systemctl(temp.resolve("no-such-systemctl").toString()).userManagerReachable());
    }

    @Test
    @Timeout(30)
    void runPassesTheArgumentsAndReturnsExitCodeAndOutput() throws Exception {
        final Path running = standIn("running", 3);

        final Systemctl.Result result = new Systemctl(running.toString())
            .run(List.of("--user", "enable", "--now", InstallLayout.SYSTEMD_UNIT_NAME));

        assertEquals(3, result.exitCode());
        assertEquals("running\n", result.output());
        assertEquals("--user enable --now saccade-supervisor.service\n", Files.readString(Path.of(running + ".args")));
    }
}
