package dev.saccade.installer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InstallPlanTest {
    @TempDir
    Path temp;
    Path home;
    InstallLayout layout;

    @BeforeEach
    void home() throws Exception {
        home = Files.createDirectory(temp.resolve("home"));
        // A home with some of the parents already there: they must survive uninstall.
        Files.createDirectories(home.resolve(".config"));
        Files.writeString(home.resolve(".config/user-dirs.dirs"), "XDG_DESKTOP_DIR=\"$HOME/Desktop\"\n");
        Files.createDirectories(home.resolve(".local/share"));
        layout = InstallLayout.of(Platform.LINUX, home, false, Map.of());
    }

    private InstallPlan plan(final String version, final String salt) throws Exception {
        final Distribution distribution = Distribution.at(TestDistribution.create(
            temp.resolve("dist-" + version + "-" + salt), version, salt));
        return InstallPlan.of(layout, distribution, LoginItem.of(layout, version));
    }

    @Test
    void installThenUninstallLeavesTheHomeExactlyAsBefore() throws Exception {
        final List<String> before = FileListing.of(home);

        plan("1.0.0", "a").apply();
        plan("1.1.0", "b").apply(); // an upgrade: a second version, current switched
        assertTrue(Files.isRegularFile(layout.loginItem()));
        final List<Path> removed = Uninstall.run(layout);

        assertEquals(before, FileListing.of(home));
        assertTrue(removed.contains(layout.root()), removed::toString);
        assertTrue(removed.contains(home.resolve(".config/systemd")), removed::toString);
        assertFalse(removed.contains(home.resolve(".config")), removed::toString);
    }

    @Test
    void installCopiesTheDistributionPrivatelyAndPointsCurrentAtIt() throws Exception {
        final InstallPlan plan = plan("1.0.0", "a");
        plan.apply();

        final Path version = layout.version("1.0.0");
        assertEquals(Path.of("versions/1.0.0"), Files.readSymbolicLink(layout.current()));
        assertEquals(version.toRealPath(), layout.current().toRealPath());
        assertEquals(-1, Files.mismatch(plan.distribution().directory().resolve("bin/saccade"), version.resolve("bin/saccade")));
        assertEquals("rwx------", mode(version.resolve("bin/saccade")));
        assertEquals("rw-------", mode(version.resolve("lib/saccade-cli-1.0.0.jar")));
        assertEquals("rwx------", mode(layout.root()));
        assertEquals("rwx------", mode(home.resolve(".config/systemd/user")));
        assertEquals("rw-------", mode(layout.loginItem()));
        assertEquals(new SystemdUserUnit(layout, "1.0.0").text(), Files.readString(layout.loginItem()));
        // No temporary sibling is left behind by the atomic renames.
        try (var names = Files.list(layout.versions())) {
            assertEquals(List.of(version), names.toList());
        }
        try (var names = Files.list(layout.root())) {
            assertEquals(3, names.count(), "versions, current, manifest");
        }
    }

    @Test
    void upgradeSwitchesCurrentAndKeepsThePreviousVersion() throws Exception {
        plan("1.0.0", "a").apply();
        plan("2.0.0", "b").apply();

        assertEquals(Path.of("versions/2.0.0"), Files.readSymbolicLink(layout.current()));
        assertTrue(Files.isDirectory(layout.version("1.0.0")));
    }

    @Test
    void printedPlanListsEveryWriteAndWritesNothing() throws Exception {
        final List<String> before = FileListing.of(home);
        final StringWriter out = new StringWriter();

        plan("1.0.0", "a").print(new PrintWriter(out));

        assertEquals(before, FileListing.of(home));
        final String text = out.toString();
        assertTrue(text.contains("directory " + home.resolve(".config/systemd") + " (mode 0700)\n"), text);
        assertFalse(text.contains("directory " + home.resolve(".config") + " "), text);
        assertTrue(text.contains("file " + layout.version("1.0.0").resolve("bin/saccade") + " (mode 0700, "), text);
        assertTrue(text.contains("link " + layout.current() + " -> versions/1.0.0\n"), text);
        assertTrue(text.contains("file " + layout.loginItem() + " (mode 0600) <<EOF\n"
            + new SystemdUserUnit(layout, "1.0.0").text() + "EOF\n"), text);
    }

    @Test
    void sameVersionWithSameContentIsKeptAndWithOtherContentRefused() throws Exception {
        plan("1.0.0", "a").apply();
        final List<String> installed = FileListing.of(home);

        plan("1.0.0", "a").apply();
        assertEquals(installed, FileListing.of(home));

        final InstallException e = assertThrows(InstallException.class, () -> plan("1.0.0", "other"));
        assertEquals(InstallException.Kind.LAYOUT, e.kind());
        assertEquals(installed, FileListing.of(home));
    }

    @Test
    void uninstallKeepsACreatedDirectoryThatGainedOtherFiles() throws Exception {
        plan("1.0.0", "a").apply();
        Files.writeString(home.resolve(".config/systemd/user/other.service"), "[Service]\nExecStart=/bin/true\n");

        Uninstall.run(layout);

        assertTrue(Files.isRegularFile(home.resolve(".config/systemd/user/other.service")));
        assertFalse(Files.exists(layout.root(), LinkOption.NOFOLLOW_LINKS));
        assertFalse(Files.exists(layout.loginItem()));
    }

    @Test
    void uninstallRemovesTheLinkSystemctlEnableMade() throws Exception {
        final List<String> before = FileListing.of(home);
        plan("1.0.0", "a").apply();
        // What `systemctl --user enable` adds for WantedBy=graphical-session.target (and, for a
        // unit an older release installed, for WantedBy=default.target).
        for (final String target : List.of("graphical-session.target", "default.target")) {
            final Path wants = Files.createDirectory(layout.loginItem().resolveSibling(target + ".wants"));
            Files.createSymbolicLink(wants.resolve(InstallLayout.SYSTEMD_UNIT_NAME), layout.loginItem());
        }

        Uninstall.run(layout);

        assertEquals(before, FileListing.of(home));
    }

    @Test
    void aHomeThatDoesNotExistIsRefusedAndNotCreated() throws Exception {
        final Path missing = temp.resolve("no-such-home");
        final InstallLayout elsewhere = InstallLayout.of(Platform.LINUX, missing, false, Map.of());
        final Distribution distribution = Distribution.at(TestDistribution.create(temp.resolve("dist"), "1.0.0", "a"));

        final InstallException e = assertThrows(InstallException.class,
            () -> InstallPlan.of(elsewhere, distribution, LoginItem.of(elsewhere, "1.0.0")));

        assertEquals(InstallException.Kind.LAYOUT, e.kind());
        assertFalse(Files.exists(missing));
    }

    @Test
    void aDirectoryWithoutLauncherIsNotADistribution() throws Exception {
        final Path dist = TestDistribution.create(temp.resolve("dist"), "1.0.0", "a");
        Files.delete(dist.resolve("bin/saccade"));

        final InstallException e = assertThrows(InstallException.class, () -> Distribution.at(dist));
        assertEquals(InstallException.Kind.DISTRIBUTION, e.kind());
    }

    @Test
    void aVersionThatIsNoSafeDirectoryNameIsRefused() throws Exception {
        final Path dist = TestDistribution.create(temp.resolve("dist"), "1.0.0", "a");
        Files.move(dist.resolve("lib/saccade-cli-1.0.0.jar"), dist.resolve("lib/saccade-cli-..jar"));

        assertThrows(InstallException.class, () -> Distribution.at(dist));
    }

    private static String mode(final Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
    }
}
