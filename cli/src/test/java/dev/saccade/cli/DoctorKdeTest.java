package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.KdeDesktop;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code saccade doctor} on a headless KWin 5.27: it names the KDE backend, reports fake input
 * as granted (the test session lifts KWin's checks), the windows the KWin script lists, and that
 * pixels are not served on KWin.
 */
@Tag("desktop")
@Timeout(90)
class DoctorKdeTest {
    @Test
    void namesTheKdeBackendItsGrantAndTheWindows() throws Exception {
        try (KdeDesktop kde = KdeDesktop.start(1024, 768, "us")) {
            kde.launch("zenity", "zenity", "--entry", "--title=Doctor");
            final CliRun run = CliRun.run("doctor", "--display", "wayland:" + kde.waylandSocket(), "--session-bus",
                kde.busAddress(), "--endpoint", kde.runtimeDirectory().resolve("no-such.sock").toString());
            final String out = run.out;
            assertTrue(out.contains("ok       backend: KDE Plasma (KWin) on wayland:" + kde.waylandSocket()), out);
            assertTrue(out.contains("ok       wayland protocol org_kde_kwin_fake_input: granted to "), out);
            assertTrue(out.contains("ok       display wayland:" + kde.waylandSocket() + ": 1 windows, 1 outputs"), out);
            assertTrue(out.contains("pixels: not served on KWin yet"), out);
            assertTrue(out.contains("application zenity (pid "), out);
            assertTrue(out.contains("PROBLEM  endpoint "), out);
            assertEquals(ExitCodes.REQUEST_REJECTED, run.exitCode, out);
        }
    }
}
