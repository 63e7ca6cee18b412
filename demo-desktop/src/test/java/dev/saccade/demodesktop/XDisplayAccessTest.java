package dev.saccade.demodesktop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Only our uid on the displays we start (D29): another uid (nobody, through setpriv) running
 * xdpyinfo with the desktop's whole environment, XAUTHORITY included, is refused by the X server;
 * our own clients, with the cookie and without it, are served. Switching uid takes root, as in CI.
 */
@Tag("desktop")
@Timeout(90)
class XDisplayAccessTest {
    private static final String NOBODY = "65534";

    @Test
    void anotherUidCannotUseTheTestDesktopsXServer() throws Exception {
        assumeTrue(isRoot(), "switching to another uid needs root (CI runs as root)");
        try (TestDesktop desktop = TestDesktop.start()) {
            final Map<String, String> env = desktop.environment();
            final Path authority = Path.of(env.get(XAuthority.XAUTHORITY));
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(authority)));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(authority.getParent())));

            final Result stranger = xdpyinfo(desktop.display(), env, List.of("setpriv", "--reuid=" + NOBODY,
                "--regid=" + NOBODY, "--clear-groups", "--"));
            assertNotEquals(0, stranger.exit, "nobody was served by " + desktop.display() + ": " + stranger.output);
            assertTrue(stranger.output.contains("unable to open display"), stranger.output);

            final Result own = xdpyinfo(desktop.display(), env, List.of());
            assertEquals(0, own.exit, own.output);
            final Result ownWithoutCookie = xdpyinfo(desktop.display(), Map.of(XAuthority.XAUTHORITY, "/nonexistent"),
                List.of());
            assertEquals(0, ownWithoutCookie.exit, "our uid is admitted by uid too: " + ownWithoutCookie.output);
        }
    }

    @Test
    void anotherUidCannotUseSwaysXWayland() throws Exception {
        assumeTrue(isRoot(), "switching to another uid needs root (CI runs as root)");
        try (SwayDesktop desktop = SwayDesktop.start(800, 600, true)) {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
                desktop.runtimeDirectory())), "the Wayland socket's directory");
            final Map<String, String> env = desktop.desktopEnvironment().variables();
            final Result stranger = xdpyinfo(desktop.xDisplay(), env, List.of("setpriv", "--reuid=" + NOBODY,
                "--regid=" + NOBODY, "--clear-groups", "--"));
            assertNotEquals(0, stranger.exit, "nobody was served by XWayland " + desktop.xDisplay() + ": "
                + stranger.output);
            final Result sessionUser = run(desktop.asSessionUser(List.of("xdpyinfo", "-display", desktop.xDisplay())),
                env);
            assertEquals(0, sessionUser.exit, sessionUser.output);
            assertEquals(0, xdpyinfo(desktop.xDisplay(), env, List.of()).exit, "root, as the owner runs in tests");
        }
    }

    private record Result(int exit, String output) {
    }

    private static Result xdpyinfo(final String display, final Map<String, String> env, final List<String> prefix)
        throws IOException, InterruptedException {
        final List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of("xdpyinfo", "-display", display));
        return run(command, env);
    }

    private static Result run(final List<String> command, final Map<String, String> env)
        throws IOException, InterruptedException {
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().putAll(env);
        final Process process = builder.start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        return new Result(process.exitValue(), output.length() > 400 ? output.substring(0, 400) : output);
    }

    private static boolean isRoot() throws IOException {
        return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0;
    }
}
