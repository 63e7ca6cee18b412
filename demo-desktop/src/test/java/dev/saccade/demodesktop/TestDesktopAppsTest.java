package dev.saccade.demodesktop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** One desktop running the three demo apps, checked against the X server and AT-SPI2 directly. */
@Tag("desktop")
@Timeout(60)
class TestDesktopAppsTest {
    private static TestDesktop desktop;

    @BeforeAll
    static void startDesktop() {
        desktop = TestDesktop.start(
            new TestDesktopContext().apps(DemoApp.GTK3_DEMO, DemoApp.ZENITY_ENTRY, DemoApp.QT_CALCULATOR));
    }

    @AfterAll
    static void closeDesktop() {
        if (desktop != null) {
            desktop.close();
        }
    }

    @Test
    @Timeout(30)
    void listsEveryAppWindowInClientList() throws Exception {
        final List<AppHandle> apps = desktop.apps();
        assertEquals(List.of(DemoApp.GTK3_DEMO, DemoApp.ZENITY_ENTRY, DemoApp.QT_CALCULATOR),
            apps.stream().map(AppHandle::app).toList());
        final long[] clients = desktop.clientList();
        for (final AppHandle app : apps) {
            assertTrue(AppStarter.contains(clients, app.windowId()), app + " not in _NET_CLIENT_LIST");
            assertEquals(app.app().expectedTitle(), app.title(), app.toString());
            // xdotool reads the same properties with its own code: an oracle independent of ours.
            final String id = Long.toString(app.windowId());
            assertEquals(Long.toString(app.pid()), Tools.run(desktop, "xdotool", "getwindowpid", id), app.toString());
            assertEquals(app.app().expectedTitle(), Tools.run(desktop, "xdotool", "getwindowname", id), app.toString());
        }
    }

    @Test
    @Timeout(30)
    void registersEveryAppOnAccessibilityBus() throws Exception {
        final List<AtSpiProbe.Application> registered = AtSpiProbe.applications(desktop);
        for (final AppHandle app : desktop.apps()) {
            assertTrue(registered.contains(new AtSpiProbe.Application(app.accessibleBusName(), app.pid(),
                app.app().accessibleName())), app + " not registered as expected; registry: " + registered);
        }
    }

    @Test
    @Timeout(30)
    void pointsChildProcessesAtItsPrivateDisplayAndDirectories() throws Exception {
        final Map<String, String> env = desktop.environment();
        assertEquals(desktop.display(), env.get("DISPLAY"));
        assertEquals(desktop.runtimeDir().toString(), env.get("XDG_RUNTIME_DIR"));
        assertEquals(desktop.sessionBusAddress(), env.get("DBUS_SESSION_BUS_ADDRESS"));
        for (final String variable
            : List.of("XDG_RUNTIME_DIR", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "HOME")) {
            final Path dir = Path.of(env.get(variable));
            assertTrue(dir.startsWith(desktop.directory()), variable + "=" + dir);
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)), variable);
        }
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(desktop.directory())));
        // The accessibility bus socket landed in our runtime dir, not in ~/.cache or /tmp/runtime-root.
        assertTrue(desktop.accessibilityBusAddress().contains(desktop.runtimeDir().toString()),
            desktop.accessibilityBusAddress());
        final String screen = Tools.run(desktop, "xdpyinfo");
        assertTrue(screen.contains("dimensions:    1920x1080 pixels"), screen);
        assertTrue(screen.contains("depth of root window:    24 planes"), screen);
    }

    @Test
    @Timeout(30)
    void opensAndClosesAnotherAppWindowMidTest() throws Exception {
        final AppHandle second = desktop.startApp(DemoApp.GTK3_DEMO);
        assertTrue(AppStarter.contains(desktop.clientList(), second.windowId()));
        for (final AppHandle other : desktop.apps()) {
            if (other != second) {
                assertNotEquals(other.windowId(), second.windowId());
                assertNotEquals(other.pid(), second.pid());
            }
        }
        assertEquals(second.pid(), desktop.windowPid(second.windowId()));
        assertTrue(desktop.accessibleApplications().containsValue(second.pid()));

        desktop.closeApp(second);

        assertFalse(AppStarter.contains(desktop.clientList(), second.windowId()));
        assertFalse(second.isRunning());
        assertFalse(desktop.apps().contains(second));
        assertEquals(3, desktop.apps().size());
    }

    @Test
    @Timeout(30)
    void capturesWhatZenityPrintsWhenTextIsTypedAndConfirmed() throws Exception {
        final AppHandle entry = desktop.startApp(DemoApp.ZENITY_ENTRY);
        final String window = Long.toString(entry.windowId());
        // --sync returns once _NET_ACTIVE_WINDOW names the window: keyboard focus is there.
        Tools.run(desktop, "xdotool", "windowactivate", "--sync", window);
        Tools.run(desktop, "xdotool", "type", "--delay", "1", "saccade 42");
        Tools.run(desktop, "xdotool", "key", "Return");

        assertEquals(0, entry.awaitExit(10_000));
        assertEquals("saccade 42\n", Files.readString(entry.stdoutFile()));
        desktop.closeApp(entry);
        assertFalse(AppStarter.contains(desktop.clientList(), entry.windowId()));
    }
}
