package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.installer.FileListing;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged {@code bin/saccade} installs the distribution it runs from (no {@code --from})
 * into a temporary home; the installed copy, started through the {@code current} link, runs;
 * uninstall then leaves the home as it was. Real processes throughout.
 */
class InstallIT {
    private static final Path LAUNCHER = Path.of(System.getProperty("saccade.dist.dir")).resolve("bin/saccade");
    private static final String PROJECT_VERSION = System.getProperty("saccade.project.version");

    @TempDir
    Path temp;

    private String run(final int expectedExit, final String... command) throws Exception {
        final Path out = temp.resolve("out");
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError(String.join(" ", command) + " did not finish in 60 s");
        }
        final String output = Files.readString(out);
        assertEquals(expectedExit, process.exitValue(), () -> String.join(" ", command) + "\n" + output);
        return output;
    }

    @Test
    @Timeout(180)
    void installedCopyRunsThroughCurrentAndUninstallLeavesNothingBehind() throws Exception {
        final Path home = Files.createDirectory(temp.resolve("home"));
        final List<String> before = FileListing.of(home);

        final String install = run(0, LAUNCHER.toString(), "install", "--platform", "linux", "--home", home.toString());
        assertTrue(install.contains("installed Saccade " + PROJECT_VERSION), install);

        final Path installed = home.resolve(".local/share/saccade/current/bin/saccade");
        final String version = run(0, installed.toString(), "--version");
        assertTrue(version.startsWith("saccade " + PROJECT_VERSION + " "), version);

        // The same distribution again: kept as it is; no supervisor answers for this home.
        final String upgrade = run(UpgradeCommand.INSTALLED_NOT_RUNNING, LAUNCHER.toString(), "upgrade",
            "--platform", "linux", "--home", home.toString());
        assertTrue(upgrade.contains("used at its next start"), upgrade);

        run(0, installed.toString(), "uninstall", "--platform", "linux", "--home", home.toString());
        assertEquals(before, FileListing.of(home));
    }

    @Test
    @Timeout(120)
    void withoutHomeTheShellsHomeIsTheTarget() throws Exception {
        // The JVM's user.home comes from the password file; HOME=... saccade install must follow $HOME.
        final Path home = Files.createDirectory(temp.resolve("elsewhere"));
        final List<String> before = FileListing.of(home);
        final Path out = temp.resolve("dry-run");
        final ProcessBuilder builder = new ProcessBuilder(LAUNCHER.toString(), "install", "--dry-run", "--platform",
            "linux").redirectErrorStream(true).redirectOutput(out.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().put("HOME", home.toString());
        final Process process = builder.start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        final String printed = Files.readString(out);
        assertEquals(0, process.exitValue(), printed);
        assertTrue(printed.contains(home.resolve(".local/share/saccade").toString()), printed);
        assertTrue(printed.contains(home.resolve(".config/systemd/user").toString()), printed);
        assertEquals(before, FileListing.of(home), "a dry run writes nothing");
    }
}
