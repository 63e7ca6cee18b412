package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.KdeDesktop;
import dev.saccade.testsupport.Await;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code saccade doctor} on a headless KWin 5.27 with KWin's permission checks on, as on a real
 * Plasma session: it names the KDE backend, the windows the KWin script lists and that pixels
 * are not served on KWin; it reports fake input as not granted with the exact step, and as
 * granted once the desktop file it names is in place.
 */
@Tag("desktop")
@Timeout(90)
class DoctorKdeTest {
    @Test
    void namesTheKdeBackendTheWindowsAndTheGrantWithItsStep() throws Exception {
        try (KdeDesktop kde = KdeDesktop.startWithChecks(1024, 768, "us")) {
            kde.launch("zenity", "zenity", "--entry", "--title=Doctor");
            final String executable = KdeSession.executable();
            final CliRun run = doctor(kde);
            final String out = run.out;
            assertTrue(out.contains("ok       backend: KDE Plasma (KWin) on wayland:" + kde.waylandSocket()), out);
            assertTrue(out.contains("ok       display wayland:" + kde.waylandSocket() + ": 1 windows, 1 outputs"), out);
            assertTrue(out.contains("pixels: not served on KWin yet"), out);
            assertTrue(out.contains("application zenity (pid "), out);
            assertTrue(out.contains("PROBLEM  wayland protocol org_kde_kwin_fake_input is not granted to " + executable),
                out);
            assertTrue(out.contains("X-KDE-Wayland-Interfaces=org_kde_kwin_fake_input"), out);
            assertTrue(out.contains("PROBLEM  endpoint "), out);
            assertEquals(ExitCodes.REQUEST_REJECTED, run.exitCode, out);
            kde.grant(executable);
            // KWin sees the rebuilt service cache when its watch of the cache file fires: poll for it.
            final String granted = "ok       wayland protocol org_kde_kwin_fake_input: granted to " + executable;
            Await.probe(() -> doctor(kde).out, after -> after.contains(granted), Duration.ofSeconds(20),
                Duration.ofMillis(200), after -> "doctor to report the grant; last: " + after);
        }
    }

    private static CliRun doctor(final KdeDesktop kde) {
        return CliRun.run("doctor", "--display", "wayland:" + kde.waylandSocket(), "--session-bus", kde.busAddress(),
            "--endpoint", kde.runtimeDirectory().resolve("no-such.sock").toString());
    }
}
