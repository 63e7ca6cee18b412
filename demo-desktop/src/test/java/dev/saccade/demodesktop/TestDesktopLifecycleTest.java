package dev.saccade.demodesktop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Starting and stopping whole desktops: what close() leaves behind, and display allocation. */
@Tag("desktop")
class TestDesktopLifecycleTest {
    @Test
    @Timeout(60)
    void leavesNoProcessBehindAfterClose() throws Exception {
        final List<ProcessProbe.Seen> seen = new ArrayList<>();
        final TestDesktop desktop = TestDesktop.start(DemoApp.GTK3_DEMO, DemoApp.ZENITY_ENTRY, DemoApp.QT_CALCULATOR);
        try {
            for (final ProcessHandle process : desktop.processes()) {
                seen.add(ProcessProbe.see(process.pid()));
            }
            // Our own scan, not the harness's: every process started with the desktop's runtime dir.
            final List<ProcessProbe.Seen> byEnvironment =
                ProcessProbe.withEnvironment("XDG_RUNTIME_DIR", desktop.runtimeDir().toString());
            seen.addAll(byEnvironment);
            seen.add(ProcessProbe.see(xvfbPid(desktop.displayNumber())));
            for (final AppHandle app : desktop.apps()) {
                seen.add(ProcessProbe.see(app.pid()));
            }
            final Set<String> commands = seen.stream().map(ProcessProbe.Seen::command).collect(Collectors.toSet());
            // comm is cut to 15 characters by the kernel.
            for (final String expected : List.of("Xvfb", "dbus-daemon", "openbox", "gtk3-demo", "zenity", "calculator",
                "at-spi-bus-laun", "at-spi2-registr")) {
                assertTrue(commands.contains(expected), expected + " not among " + seen);
            }
            assertTrue(desktop.processes().stream().map(ProcessHandle::pid).collect(Collectors.toSet())
                .containsAll(byEnvironment.stream().map(ProcessProbe.Seen::pid).collect(Collectors.toSet())),
                "the harness misses processes that carry its environment: " + byEnvironment);
        } finally {
            desktop.close();
        }
        final List<ProcessProbe.Seen> survivors = seen.stream().filter(p -> !p.isGone()).toList();
        assertEquals(List.of(), survivors);
        assertEquals(List.of(), desktop.processes());
    }

    @Test
    @Timeout(30)
    void removesDisplaySocketLockFileAndPrivateDirectoryOnClose() throws Exception {
        final TestDesktop desktop = TestDesktop.start();
        final int n = desktop.displayNumber();
        final Path directory = desktop.directory();
        assertTrue(Files.exists(XvfbServer.socketPath(n), LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.exists(XvfbServer.lockPath(n), LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.isDirectory(directory));

        desktop.close();

        assertFalse(Files.exists(XvfbServer.socketPath(n), LinkOption.NOFOLLOW_LINKS));
        assertFalse(Files.exists(XvfbServer.lockPath(n), LinkOption.NOFOLLOW_LINKS));
        assertFalse(Files.exists(directory, LinkOption.NOFOLLOW_LINKS));
        assertTrue(desktop.isClosed());
    }

    @Test
    @Timeout(30)
    void closeTwiceStopsOnceAndRefusesFurtherUse() {
        final TestDesktop desktop = TestDesktop.start();
        desktop.close();
        desktop.close();
        assertTrue(desktop.isClosed());
        assertThrows(IllegalStateException.class, desktop::clientList);
        assertThrows(IllegalStateException.class, () -> desktop.startApp(DemoApp.ZENITY_ENTRY));
    }

    @Test
    @Timeout(60)
    void stopsAnAppThatExitedOnItsOwnWithoutComplaint() throws Exception {
        try (TestDesktop desktop = TestDesktop.start(DemoApp.ZENITY_ENTRY)) {
            final AppHandle entry = desktop.apps().get(0);
            // zenity's Cancel path: Escape closes the dialog, exit code 1.
            Tools.run(desktop, "xdotool", "windowactivate", "--sync", Long.toString(entry.windowId()));
            Tools.run(desktop, "xdotool", "key", "Escape");
            assertEquals(1, entry.awaitExit(10_000));
            desktop.closeApp(entry);
            assertEquals(List.of(), desktop.apps());
        }
    }

    @Test
    @Timeout(60)
    void movesToTheNextDisplayWhenXvfbCannotListenOnAFreeLookingOne() throws Exception {
        // A server that holds display n while neither its socket file nor a lock file exist (with
        // -displayfd Xvfb writes no lock): what another JVM winning the race between our check and
        // our Xvfb's start looks like. Our Xvfb fails on n (the abstract socket is taken) and the
        // desktop must move on.
        final int n = firstFreeDisplay(700);
        final Process squatter = new ProcessBuilder("Xvfb", ":" + n, "-nolisten", "tcp", "-displayfd", "1")
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            assertEquals(Integer.toString(n),
                new String(squatter.getInputStream().readNBytes(Integer.toString(n).length()), StandardCharsets.US_ASCII));
            Files.delete(XvfbServer.socketPath(n));
            assertFalse(Files.exists(XvfbServer.lockPath(n)));

            try (TestDesktop desktop = TestDesktop.start(new TestDesktopContext().firstDisplayNumber(n))) {
                assertTrue(desktop.displayNumber() > n, desktop.display());
                assertEquals(desktop.display(), Tools.run(desktop, "sh", "-c", "echo $DISPLAY"));
            }
        } finally {
            squatter.destroy();
            squatter.waitFor();
        }
    }

    @Test
    @Timeout(60)
    void givesConcurrentlyStartedDesktopsDistinctDisplays() throws Exception {
        final ExecutorService executor = Executors.newFixedThreadPool(3);
        final List<Future<TestDesktop>> starts = new ArrayList<>();
        final List<TestDesktop> desktops = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                starts.add(executor.submit(() -> TestDesktop.start(new TestDesktopContext().firstDisplayNumber(800))));
            }
            for (final Future<TestDesktop> start : starts) {
                desktops.add(start.get());
            }
            assertEquals(3, desktops.stream().map(TestDesktop::display).distinct().count(), desktops.toString());
            for (final TestDesktop desktop : desktops) {
                assertNotEquals("", Tools.run(desktop, "xprop", "-root", "_NET_SUPPORTING_WM_CHECK"));
            }
        } finally {
            executor.shutdown();
            for (final Future<TestDesktop> start : starts) {
                try {
                    start.get().close();
                } catch (final java.util.concurrent.ExecutionException ignore) {
                    // reason: that start failed and cleaned up after itself; the assertion above reports it
                }
            }
        }
    }

    private static long xvfbPid(final int display) throws IOException {
        return Long.parseLong(Files.readString(XvfbServer.lockPath(display)).strip());
    }

    private static int firstFreeDisplay(final int from) {
        int n = from;
        while (Files.exists(XvfbServer.socketPath(n), LinkOption.NOFOLLOW_LINKS)
            || Files.exists(XvfbServer.lockPath(n), LinkOption.NOFOLLOW_LINKS)) {
            n++;
        }
        return n;
    }
}
