package dev.saccade.demodesktop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.testsupport.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A headless sway session with a native Wayland GTK app and an XWayland one, checked against
 * sway's own IPC, the AT-SPI registry and the process table; and everything gone after close.
 */
@Tag("desktop")
@Timeout(60)
class SwayDesktopTest {
    @Test
    void servesNativeAndXWaylandAppsAndLeavesNothingBehind() throws Exception {
        final Path root;
        final SessionDirectory directory;
        final List<Long> pids;
        try (SwayDesktop desktop = SwayDesktop.start(1280, 720, true)) {
            directory = desktop.directory();
            root = directory.root();
            final Path run = desktop.runtimeDirectory();
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(run)));
            assertEquals(desktop.uid(), (int) Files.getAttribute(run, "unix:uid"));
            assertTrue(Files.exists(desktop.waylandSocket()));

            final SwayApp wayland = desktop.launch("zenity", false, "zenity", "--entry", "--title=Native entry");
            final SwayApp x11 = desktop.launch("zenity-x11", true, "zenity", "--entry", "--title=XWayland entry");
            final String tree = desktop.swaymsg("-t", "get_tree");
            // sway's tree is the oracle: a native client has an app_id and the xdg_shell, an X11 one a window id.
            assertTrue(tree.contains("\"name\": \"Native entry\""), tree);
            assertTrue(tree.contains("\"name\": \"XWayland entry\""), tree);
            assertTrue(tree.contains("\"shell\": \"xdg_shell\""), tree);
            assertTrue(tree.contains("\"shell\": \"xwayland\""), tree);
            assertEquals(1, occurrences(tree, "\"pid\": " + wayland.pid() + ","), tree);
            assertEquals(1, occurrences(tree, "\"pid\": " + x11.pid() + ","), tree);

            final AccessibilityRegistry registry = new AccessibilityRegistry(desktop.desktopEnvironment());
            Await.value(registry::applications,
                apps -> apps.containsValue(wayland.pid()) && apps.containsValue(x11.pid()),
                Duration.ofSeconds(15), Duration.ofMillis(10), apps -> "both apps on the AT-SPI registry: " + apps);
            pids = List.of(wayland.pid(), x11.pid());
        }
        assertFalse(Files.exists(root), root + " left behind");
        for (final long pid : pids) {
            assertTrue(ProcessHandle.of(pid).map(ProcessStopper::isGone).orElse(true), "pid " + pid + " still runs");
        }
        assertEquals(List.of(), DesktopProcessScan.find(directory), "session processes still run");
    }

    private static int occurrences(final String text, final String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
