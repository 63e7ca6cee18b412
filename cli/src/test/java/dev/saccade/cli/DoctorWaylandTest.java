package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.SwayDesktop;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code saccade doctor} on a real headless sway session: the compositor, the protocols it
 * offers, the windows and the accessibility applications, and the one missing piece (no service
 * running there) as a problem with its fix.
 */
@Tag("desktop")
@Timeout(60)
class DoctorWaylandTest {
    @Test
    void reportsTheCompositorItsProtocolsAndWhatIsMissing() throws Exception {
        try (SwayDesktop sway = SwayDesktop.start(1024, 768, false)) {
            sway.launch("zenity", false, "zenity", "--entry", "--title=Doctor");
            final CliRun run = CliRun.run("doctor", "--display", "wayland:" + sway.waylandSocket(), "--session-bus",
                sway.busAddress(), "--endpoint", sway.runtimeDirectory().resolve("no-such.sock").toString());
            final String out = run.out;
            assertTrue(out.contains("ok       compositor: sway 1.7"), out);
            for (final String protocol : new String[] {"zwp_virtual_keyboard_manager_v1", "zwlr_virtual_pointer_manager_v1",
                "zwlr_screencopy_manager_v1", "zwlr_foreign_toplevel_manager_v1"}) {
                assertTrue(out.contains("ok       wayland protocol " + protocol + " v"), protocol + ": " + out);
            }
            assertTrue(out.contains("ok       display wayland:" + sway.waylandSocket() + ": 1 windows, outputs HEADLESS-1 1024x768+0+0"),
                out);
            assertTrue(out.contains("application zenity (pid "), out);
            assertTrue(out.contains("PROBLEM  endpoint "), out);
            assertEquals(ExitCodes.REQUEST_REJECTED, run.exitCode, out);
        }
    }

    /** Without sway's IPC (forced, as in WaylandToplevelDesktopTest) the windows come from foreign-toplevel. */
    @Test
    void reportsForeignToplevelWindowsWithoutSwaysIpc() throws Exception {
        try (SwayDesktop sway = SwayDesktop.start(1024, 768, false)) {
            sway.launch("zenity", false, "zenity", "--entry", "--title=Doctor");
            System.setProperty("saccade.wayland.windows", "foreign-toplevel");
            final CliRun run;
            try {
                run = CliRun.run("doctor", "--display", "wayland:" + sway.waylandSocket(), "--session-bus",
                    sway.busAddress(), "--endpoint", sway.runtimeDirectory().resolve("no-such.sock").toString());
            } finally {
                System.clearProperty("saccade.wayland.windows");
            }
            final String out = run.out;
            assertTrue(out.contains("ok       compositor: no sway IPC used; windows from zwlr_foreign_toplevel_manager_v1"),
                out);
            assertTrue(out.contains("ok       display wayland:" + sway.waylandSocket() + ": 1 windows, outputs HEADLESS-1 1024x768+0+0"),
                out);
            assertEquals(ExitCodes.REQUEST_REJECTED, run.exitCode, out);
        }
    }
}
