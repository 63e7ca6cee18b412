package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.installer.FileListing;
import dev.saccade.installer.InstallLayout;
import dev.saccade.installer.InstallerConfiguration;
import dev.saccade.installer.LoginItemChecks;
import dev.saccade.installer.Platform;
import dev.saccade.installer.TestDistribution;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/**
 * {@code saccade install} and {@code uninstall} through the real command line into temporary
 * homes: the dry-run output of each platform carries login items that pass the real checks, and
 * an install followed by an uninstall leaves the home as it was.
 */
class InstallCommandTest {
    private static final String VERSION = "3.1.4";

    @TempDir
    Path temp;
    Path home;
    Path dist;

    @BeforeEach
    void setUp() throws Exception {
        home = Files.createDirectory(temp.resolve("home"));
        Files.createDirectories(home.resolve(".config"));
        dist = TestDistribution.create(temp.resolve("dist"), VERSION, "a");
    }

    /** The content the dry-run printed for {@code path} between its {@code <<EOF} line and {@code EOF}. */
    private static String printedFile(final String out, final Path path) {
        final String start = "file " + path + " (mode 0600) <<EOF\n";
        final int from = out.indexOf(start);
        assertTrue(from >= 0, () -> "no " + start + " in\n" + out);
        final int contentFrom = from + start.length();
        final int to = out.indexOf("\nEOF\n", contentFrom);
        assertTrue(to >= 0, () -> "no EOF after " + path + " in\n" + out);
        return out.substring(contentFrom, to + 1);
    }

    private CliRun dryRun(final Platform platform) throws Exception {
        final List<String> before = FileListing.of(temp);
        final CliRun run = CliRun.run("install", "--dry-run", "--platform", platform.cliName(), "--home", home.toString(),
            "--from", dist.toString());
        assertEquals(0, run.exitCode, run::toString);
        assertEquals(before, FileListing.of(temp), "a dry run writes nothing");
        return run;
    }

    @Test
    @Timeout(120)
    void linuxDryRunPrintsTheUnitThatInstallWritesAndItPassesSystemdAnalyzeVerify() throws Exception {
        final InstallLayout layout = InstallLayout.of(Platform.LINUX, home, false, Map.of());
        final CliRun run = dryRun(Platform.LINUX);
        final String unit = printedFile(run.out, layout.loginItem());
        assertTrue(run.out.contains("link " + layout.current() + " -> versions/" + VERSION + "\n"), run::toString);
        assertTrue(run.out.contains("file " + layout.version(VERSION).resolve("bin/saccade") + " (mode 0700, "), run::toString);
        assertTrue(run.out.contains("# and then run: systemctl --user enable --now saccade-supervisor.service\n"), run::toString);

        final CliRun install = CliRun.run("install", "--platform", "linux", "--home", home.toString(), "--from", dist.toString());
        assertEquals(0, install.exitCode, install::toString);
        assertEquals(unit, Files.readString(layout.loginItem()), "the dry run printed what install writes");

        final LoginItemChecks.Verdict verdict = LoginItemChecks.systemdAnalyzeVerify(layout.loginItem(), home, temp);
        assertEquals(0, verdict.exitCode(), verdict::toString);
        assertEquals("", verdict.stderr(), verdict::toString);
    }

    @Test
    void macosDryRunPrintsAPlistWithTheRequiredKeys() throws Exception {
        final InstallLayout layout = InstallLayout.of(Platform.MACOS, home, false, Map.of());
        final CliRun run = dryRun(Platform.MACOS);

        final Map<String, Object> plist = LoginItemChecks.plist(
            printedFile(run.out, layout.loginItem()).getBytes(StandardCharsets.UTF_8));

        assertEquals("dev.saccade.supervisor", plist.get("Label"));
        assertEquals(List.of(layout.currentLauncher().toString(), "supervisor", "run"), plist.get("ProgramArguments"));
        assertEquals(Boolean.TRUE, plist.get("RunAtLoad"));
        assertEquals(Boolean.FALSE, ((Map<?, ?>) plist.get("KeepAlive")).get("SuccessfulExit"));
        assertTrue(plist.get("ThrottleInterval") instanceof Long);
        assertTrue(((String) plist.get("StandardOutPath")).startsWith(home.resolve("Library/Logs/Saccade").toString()));
        assertTrue(((String) plist.get("StandardErrorPath")).startsWith(home.resolve("Library/Logs/Saccade").toString()));
        assertTrue(run.out.contains("directory " + home.resolve("Library/Logs/Saccade") + " (mode 0700)\n"), run::toString);
        assertTrue(run.out.contains("# and then run: launchctl bootstrap "), run::toString);
    }

    @Test
    void windowsDryRunPrintsATaskValidAgainstTheSchemaSubset() throws Exception {
        final InstallLayout layout = InstallLayout.of(Platform.WINDOWS, home, false, Map.of());
        final CliRun run = dryRun(Platform.WINDOWS);

        final Document task = LoginItemChecks.taskXml(
            printedFile(run.out, layout.loginItem()).getBytes(StandardCharsets.UTF_16));

        assertEquals("IgnoreNew", LoginItemChecks.text(task, "Settings/MultipleInstancesPolicy"));
        assertEquals("PT0S", LoginItemChecks.text(task, "Settings/ExecutionTimeLimit"));
        assertEquals("false", LoginItemChecks.text(task, "Settings/StopIfGoingOnBatteries"));
        assertEquals("false", LoginItemChecks.text(task, "Settings/DisallowStartIfOnBatteries"));
        assertEquals(layout.currentLauncher().toString(), LoginItemChecks.text(task, "Actions/Exec/Command"));
        assertTrue(layout.root().startsWith(home.resolve("AppData/Local")), layout.root()::toString);
        assertTrue(run.out.contains("# and then run: schtasks /Create /TN "), run::toString);
    }

    @Test
    @Timeout(60)
    void installThenUninstallOnLinuxLeavesTheHomeExactlyAsBefore() throws Exception {
        final List<String> before = FileListing.of(home);

        final CliRun install = CliRun.run("install", "--platform", "linux", "--home", home.toString(), "--from", dist.toString());
        assertEquals(0, install.exitCode, install::toString);
        assertTrue(Files.isSymbolicLink(home.resolve(".local/share/saccade/current")), install::toString);
        // Another home than the user's: the unit is written, not enabled, and the command is printed.
        assertTrue(install.out.contains("is not your home"), install::toString);
        assertTrue(install.out.endsWith("\nsystemctl --user enable --now saccade-supervisor.service\n"), install::toString);

        final CliRun uninstall = CliRun.run("uninstall", "--platform", "linux", "--home", home.toString());
        assertEquals(0, uninstall.exitCode, uninstall::toString);
        assertEquals(before, FileListing.of(home), uninstall::toString);

        final CliRun again = CliRun.run("uninstall", "--platform", "linux", "--home", home.toString());
        assertEquals(0, again.exitCode, again::toString);
        assertTrue(again.out.contains("nothing to remove"), again::toString);
    }

    @Test
    @Timeout(60)
    void withoutAUserManagerInstallSaysSoAndPrintsTheOneCommand() throws Exception {
        final CliRun install = asOwnHome(systemctlStandIn("offline", 1),
            () -> CliRun.run("install", "--home", home.toString(), "--from", dist.toString()));

        assertEquals(0, install.exitCode, install::toString);
        assertTrue(install.out.contains("no systemd user manager is reachable"), install::toString);
        assertTrue(install.out.endsWith("to switch it on:\nsystemctl --user enable --now saccade-supervisor.service\n"),
            install::toString);
        assertEquals("--user is-system-running\n", Files.readString(temp.resolve("systemctl.args")));
    }

    @Test
    @Timeout(60)
    void withAUserManagerInstallEnablesAndUninstallDisablesTheUnit() throws Exception {
        final Path systemctl = systemctlStandIn("running", 0);
        final List<String> before = FileListing.of(home);

        final CliRun install = asOwnHome(systemctl, () -> CliRun.run("install", "--from", dist.toString()));
        assertEquals(0, install.exitCode, install::toString);
        assertTrue(install.out.contains("enabled and started saccade-supervisor.service"), install::toString);
        final CliRun uninstall = asOwnHome(systemctl, () -> CliRun.run("uninstall"));
        assertEquals(0, uninstall.exitCode, uninstall::toString);

        assertEquals("--user is-system-running\n--user enable --now saccade-supervisor.service\n"
            + "--user is-system-running\n--user disable --now saccade-supervisor.service\n",
            Files.readString(temp.resolve("systemctl.args")));
        assertEquals(before, FileListing.of(home));
    }

    @Test
    void aDirectoryThatIsNoDistributionIsAnInputError() throws Exception {
        Files.delete(dist.resolve("bin/saccade"));

        final CliRun run = CliRun.run("install", "--home", home.toString(), "--from", dist.toString());

        assertEquals(ExitCodes.INPUT, run.exitCode, run::toString);
        assertTrue(run.err.startsWith("saccade: " + dist.toRealPath() + " is not a Saccade distribution"), run::toString);
        assertFalse(Files.exists(home.resolve(".local")));
    }

    @Test
    void anUnknownPlatformIsAUsageError() {
        final CliRun run = CliRun.run("install", "--dry-run", "--platform", "beos", "--home", home.toString(),
            "--from", dist.toString());

        assertEquals(ExitCodes.USAGE, run.exitCode, run::toString);
        assertTrue(run.err.contains("--platform must be linux, macos or windows"), run::toString);
    }

    /**
     * A stand-in systemctl that appends its arguments to {@code systemctl.args} and prints
     * {@code state}: a test must never enable a unit in a real user manager.
     */
    private Path systemctlStandIn(final String state, final int exitCode) throws Exception {
        final Path script = temp.resolve("systemctl");
        Files.writeString(script, "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '" + temp.resolve("systemctl.args") + "'\n"
            + "case \"$*\" in *is-system-running*) echo " + state + "; exit " + exitCode + ";; esac\nexit 0\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }

    /** Runs {@code run} with the temporary home as the user's own and {@code systemctl} as systemctl. */
    private CliRun asOwnHome(final Path systemctl, final java.util.function.Supplier<CliRun> run) {
        final java.util.function.UnaryOperator<String> environment = LayoutOptions.environment;
        LayoutOptions.environment = name -> name.equals("HOME") ? home.toString() : System.getenv(name);
        System.setProperty(InstallerConfiguration.SYSTEMCTL_PROP_NAME, systemctl.toString());
        try {
            return run.get();
        } finally {
            LayoutOptions.environment = environment;
            System.clearProperty(InstallerConfiguration.SYSTEMCTL_PROP_NAME);
        }
    }
}
