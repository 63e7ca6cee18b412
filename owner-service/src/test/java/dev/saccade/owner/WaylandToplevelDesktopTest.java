package dev.saccade.owner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.SwayApp;
import dev.saccade.demodesktop.SwayDesktop;
import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.MonitorInfo;
import dev.saccade.desktop.WindowInfo;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.testsupport.Await;
import dev.saccade.wayland.ForeignToplevels;
import dev.saccade.wayland.Outputs;
import dev.saccade.wayland.WaylandConnection;
import dev.saccade.wlroots.WlrootsBackend;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The foreign-toplevel window source (docs/wayland.md §1, "Windows without sway's IPC") on a real
 * headless sway, forced with {@code saccade.wayland.windows=foreign-toplevel} so sway's IPC is
 * not read: the titles, app ids and activated state of a native and an XWayland zenity, the
 * bounds of their output marked approximate, and a window the app closes gone from the next
 * snapshot (the handle's {@code closed} event).
 */
@Tag("desktop")
@Timeout(90)
class WaylandToplevelDesktopTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private static WindowInfo titled(final DesktopSnapshot s, final String title) {
        if (s == null) {
            return null;
        }
        for (final WindowInfo w : s.windows()) {
            if (w.title().equals(title)) {
                return w;
            }
        }
        return null;
    }

    @Test
    void windowsComeFromForeignToplevelAlone() throws Exception {
        try (SwayDesktop sway = SwayDesktop.start(1024, 600, true)) {
            final SwayApp nativeApp = sway.launch("zenity", false, "zenity", "--entry", "--title=Toplevel native",
                "--text=Native");
            final SwayApp x11App = sway.launch("zenity-x11", true, "zenity", "--entry", "--title=Toplevel X",
                "--text=XWayland");
            final AtomicReference<DesktopSnapshot> latest = new AtomicReference<>();
            final String previous = System.setProperty(WlrootsBackend.WINDOWS_PROPERTY, WlrootsBackend.FOREIGN_TOPLEVEL);
            final Runnable reader;
            try {
                reader = new WlrootsBackend().start("wayland:" + sway.waylandSocket(), latest::set);
            } finally {
                if (previous == null) {
                    System.clearProperty(WlrootsBackend.WINDOWS_PROPERTY);
                } else {
                    System.setProperty(WlrootsBackend.WINDOWS_PROPERTY, previous);
                }
            }
            try {
                Await.until(() -> titled(latest.get(), "Toplevel native") != null
                    && titled(latest.get(), "Toplevel X") != null, WAIT, () -> "both windows: " + latest.get());

                sway.focus(nativeApp.pid());
                Await.until(() -> {
                    final WindowInfo n = titled(latest.get(), "Toplevel native");
                    return n != null && latest.get().activeWindow() == n.xid();
                }, WAIT, () -> "the native window activated: " + latest.get());
                sway.focus(x11App.pid());
                Await.until(() -> {
                    final WindowInfo x = titled(latest.get(), "Toplevel X");
                    return x != null && latest.get().activeWindow() == x.xid();
                }, WAIT, () -> "the XWayland window activated: " + latest.get());

                final DesktopSnapshot s = latest.get();
                final MonitorInfo output = s.monitors().get(0);
                assertEquals(1024, output.width());
                for (final String title : new String[] {"Toplevel native", "Toplevel X"}) {
                    final WindowInfo w = titled(s, title);
                    assertEquals(0, w.pid(), "foreign-toplevel has no pid");
                    assertEquals(java.util.List.of(output.x(), output.y(), output.width(), output.height()),
                        java.util.List.of(w.x(), w.y(), w.width(), w.height()), "the output's bounds: " + w);
                    assertTrue(s.approximateWindows().contains(w.xid()), "marked approximate: " + w);
                }
                assertEquals(titled(s, "Toplevel X"), s.windows().get(s.windows().size() - 1), "activated on top");

                assertAppIds(sway, Map.of("Toplevel native", "zenity", "Toplevel X", "Zenity"));

                // The app closes its window when sway asks it to (xdg_toplevel.close); the handle's closed follows.
                sway.swaymsg("[pid=" + nativeApp.pid() + "] kill");
                assertTrue(nativeApp.awaitExit(20_000) != -1, "zenity exits when its window is closed");
                Await.until(() -> titled(latest.get(), "Toplevel native") == null, WAIT,
                    () -> "the closed window gone: " + latest.get());
                assertNotNull(titled(latest.get(), "Toplevel X"));
            } finally {
                reader.run();
            }
            assertTheSceneMarksTheBoundsApproximate(sway);
        }
    }

    /** The owner with the same property: the remaining window's target carries APPROXIMATE. */
    private static void assertTheSceneMarksTheBoundsApproximate(final SwayDesktop sway) throws Exception {
        System.setProperty(WlrootsBackend.WINDOWS_PROPERTY, WlrootsBackend.FOREIGN_TOPLEVEL);
        final DesktopService service;
        try {
            service = DesktopService.start("wayland:" + sway.waylandSocket(), null);
        } finally {
            System.clearProperty(WlrootsBackend.WINDOWS_PROPERTY);
        }
        try {
            final CompletionFlyweight c = service.awaitObserve(o -> { }, r -> windowTarget(r, "Toplevel X") != null);
            final TargetFlyweight x = windowTarget(c, "Toplevel X");
            assertEquals(TargetFlag.ACTIONABLE | TargetFlag.APPROXIMATE, x.flags(), "flags " + x.flags());
            assertEquals(1024, x.boundsWidthQ8() >> 8, "the output's width");
            assertNull(windowTarget(c, "Toplevel native"), "closed before the owner started");
        } finally {
            service.close();
        }
    }

    private static TargetFlyweight windowTarget(final CompletionFlyweight c, final String title) {
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = DesktopService.target(c, i);
            if (t.role() == Role.WINDOW && title.equals(DesktopService.text(c, t))) {
                return t;
            }
        }
        return null;
    }

    /** The app ids, read through the binding directly (the snapshot's WindowInfo has no app id). */
    private static void assertAppIds(final SwayDesktop sway, final Map<String, String> expected) throws Exception {
        try (WaylandConnection connection = WaylandConnection.connect(sway.waylandSocket().toString())) {
            final ForeignToplevels toplevels = ForeignToplevels.bind(connection, Outputs.read(connection));
            assertNotNull(toplevels, "sway offers zwlr_foreign_toplevel_manager_v1");
            final Map<String, String> appIds = new TreeMap<>();
            for (final ForeignToplevels.Toplevel t : toplevels.list()) {
                appIds.put(t.title(), t.appId());
            }
            // XWayland windows: sway gives the WM_CLASS class as the app id.
            assertEquals(new TreeMap<>(expected), appIds);
        }
    }
}
