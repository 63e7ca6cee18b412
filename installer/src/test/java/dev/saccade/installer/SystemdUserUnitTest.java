package dev.saccade.installer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class SystemdUserUnitTest {
    @TempDir
    Path temp;

    private InstallLayout installInto(final Path home) throws Exception {
        final Path dist = TestDistribution.create(temp.resolve("dist"), "1.2.3", "a");
        final InstallLayout layout = InstallLayout.of(Platform.LINUX, home, false, Map.of());
        final Distribution distribution = Distribution.at(dist);
        InstallPlan.of(layout, distribution, LoginItem.of(layout, distribution.version())).apply();
        return layout;
    }

    @Test
    @Timeout(120)
    void installedUnitPassesSystemdAnalyzeVerifyWithEmptyStderr() throws Exception {
        final Path home = Files.createDirectory(temp.resolve("home"));
        final InstallLayout layout = installInto(home);

        final LoginItemChecks.Verdict verdict = LoginItemChecks.systemdAnalyzeVerify(layout.loginItem(), home, temp);

        assertEquals(0, verdict.exitCode(), verdict::toString);
        assertEquals("", verdict.stderr(), verdict::toString);
    }

    @Test
    @Timeout(120)
    void verifyReportsAnUnknownKeyAndAMissingLauncherOnStderr() throws Exception {
        // The two checks above can fail: systemd-analyze complains on stderr about both.
        final Path home = Files.createDirectory(temp.resolve("home"));
        final InstallLayout layout = InstallLayout.of(Platform.LINUX, home, false, Map.of());
        final Path unit = temp.resolve(InstallLayout.SYSTEMD_UNIT_NAME);
        Files.writeString(unit, new SystemdUserUnit(layout, "1.2.3").text().replace("[Service]\n", "[Service]\nBogusKey=1\n"));

        final LoginItemChecks.Verdict verdict = LoginItemChecks.systemdAnalyzeVerify(unit, home, temp);

        assertNotEquals(0, verdict.exitCode(), verdict::toString); // no launcher: nothing installed
        assertTrue(verdict.stderr().contains("BogusKey"), verdict::toString);
        assertTrue(verdict.stderr().contains("current/bin/saccade"), verdict::toString);
    }

    @Test
    void unitRunsTheCurrentSupervisorAsANotifyServiceRestartedOnFailureWithTheGraphicalSession() {
        final InstallLayout layout = InstallLayout.of(Platform.LINUX, Path.of("/home/ada"), false, Map.of());
        final Map<String, Map<String, String>> sections =
            LoginItemChecks.unitSections(new SystemdUserUnit(layout, "1.2.3").text());

        assertEquals(java.util.List.of("Unit", "Service", "Install"), java.util.List.copyOf(sections.keySet()));
        final Map<String, String> unit = sections.get("Unit");
        assertEquals(Integer.toString(SystemdUserUnit.START_LIMIT_INTERVAL_SEC), unit.get("StartLimitIntervalSec"));
        assertEquals(Integer.toString(SystemdUserUnit.START_LIMIT_BURST), unit.get("StartLimitBurst"));
        // bound to the graphical session: started with it, after it imported DISPLAY, stopped with it
        assertEquals("graphical-session.target", unit.get("PartOf"));
        assertEquals("graphical-session.target", unit.get("After"));
        final Map<String, String> service = sections.get("Service");
        assertEquals("notify", service.get("Type"));
        assertEquals("%h/.local/share/saccade/current/bin/saccade supervisor run", service.get("ExecStart"));
        assertEquals("on-failure", service.get("Restart"));
        assertEquals(Integer.toString(SystemdUserUnit.RESTART_SEC), service.get("RestartSec"));
        assertEquals("yes", service.get("NoNewPrivileges"));
        assertEquals("yes", service.get("RestrictSUIDSGID"));
        assertEquals("native", service.get("SystemCallArchitectures"));
        assertEquals("0077", service.get("UMask"));
        assertEquals("graphical-session.target", sections.get("Install").get("WantedBy"));
    }
}
