package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.saccade.installer.LoginItemChecks;
import dev.saccade.ipc.RuntimeDirectory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Debian package: the {@code saccade_<version>_all.deb} that {@code mvn package}
 * built is installed with the real {@code dpkg -i} (CI runs as root), runs from
 * {@code /usr/bin/saccade} ({@code --version}, {@code up --headless} with a real app, an observe
 * through the installed CLI), ships a user unit that {@code systemd-analyze verify} accepts, and
 * is purged with {@code dpkg -P}, leaving none of its files.
 */
@Tag("desktop")
class DebianPackageIT {
    private static final Path DEB = Path.of(System.getProperty("saccade.dist.dir")).resolveSibling(
        "saccade_" + System.getProperty("saccade.project.version") + "_all.deb");
    private static final Path BIN = Path.of("/usr/bin/saccade");
    private static final Path LIB = Path.of("/usr/lib/saccade");
    private static final Path UNIT = Path.of("/usr/lib/systemd/user/saccade-supervisor.service");

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void thePackageInstallsRunsAnObserveAndPurgesWithoutTrace() throws Exception {
        assumeTrue(RuntimeDirectory.currentUid() == 0, "dpkg -i needs root (CI runs as root)");
        assertTrue(Files.isRegularFile(DEB), "mvn package builds " + DEB);
        assertFalse(installed(), "saccade is already installed on this machine: remove it first (dpkg -P saccade)");
        assertFalse(Files.exists(BIN, LinkOption.NOFOLLOW_LINKS) || Files.exists(LIB), BIN + " or " + LIB + " exists");

        final Result fields = run("dpkg-deb", "--field", DEB.toString(), "Package", "Version", "Architecture", "Depends");
        assertEquals(0, fields.code, fields.out);
        assertTrue(fields.out.contains("Package: saccade"), fields.out);
        assertTrue(fields.out.contains("Architecture: all"), fields.out);
        assertTrue(fields.out.contains("Depends: java17-runtime-headless, libx11-6, libxtst6, libxi6, libxrandr2"), fields.out);
        try {
            final Result install = run("dpkg", "-i", DEB.toString());
            assertEquals(0, install.code, install.out);
            assertTrue(installed());
            final Result listing = run("dpkg", "-L", "saccade");
            assertTrue(listing.out.contains(UNIT.toString()), listing.out);
            assertTrue(listing.out.contains("/usr/lib/saccade/lib/saccade-cli-" + System.getProperty("saccade.project.version")
                + ".jar"), listing.out);

            try (var archives = Files.list(LIB.resolve("lib"))) {
                assertTrue(archives.anyMatch(p -> p.getFileName().toString().matches("saccade-.+\\.jsa")),
                    "postinst dumped the class-data archive for the installed Java");
            }

            final Result version = run(BIN.toString(), "--version");
            assertEquals(0, version.code, version.out);
            assertTrue(version.out.contains(System.getProperty("saccade.project.version")), version.out);

            // the shipped unit names /usr/bin/saccade, which now exists: systemd accepts it as it is
            final Path home = Files.createDirectory(dir.resolve("home"));
            final LoginItemChecks.Verdict verdict = LoginItemChecks.systemdAnalyzeVerify(UNIT, home, dir);
            assertEquals(0, verdict.exitCode(), verdict::toString);
            assertEquals("", verdict.stderr(), verdict::toString);
            assertTrue(Files.readString(UNIT).contains("ExecStart=/usr/bin/saccade supervisor run"));

            upAndObserve();

            final Result purge = run("dpkg", "-P", "saccade");
            assertEquals(0, purge.code, purge.out);
        } finally {
            if (installed()) {
                run("dpkg", "-P", "saccade");
            }
        }
        assertFalse(installed(), "purged");
        for (final Path p : List.of(BIN, LIB, UNIT)) {
            assertFalse(Files.exists(p, LinkOption.NOFOLLOW_LINKS), p + " is left after dpkg -P");
        }
    }

    /** The installed {@code saccade up --headless} with one app, and an observe by a second installed CLI. */
    private void upAndObserve() throws Exception {
        final Path runtime = Files.createDirectory(dir.resolve("run"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try (UpProcess up = UpProcess.start(BIN, runtime, "--headless", "--apps", "zenity-entry")) {
            up.awaitUp(90);
            final UpProcess.Ran observe = up.cli("observe", "--json");
            final String json = observe.out();
            assertEquals(0, observe.code(), json);
            assertTrue(json.contains("\"text\" : \"Saccade entry\""), "the real zenity window, seen by the installed CLI: " + json);
            up.stopAndCheckNothingLeft();
        }
    }

    private static boolean installed() throws Exception {
        final Result status = run("dpkg-query", "-W", "-f=${Status}", "saccade");
        return status.code == 0 && status.out.contains("install ok installed");
    }

    private record Result(int code, String out) {
    }

    private static Result run(final String... command) throws Exception {
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
        return new Result(p.exitValue(), out);
    }
}
