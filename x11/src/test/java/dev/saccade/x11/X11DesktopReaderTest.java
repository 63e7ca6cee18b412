package dev.saccade.x11;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.demodesktop.TestDesktopContext;
import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.FrameExtents;
import dev.saccade.desktop.MonitorInfo;
import dev.saccade.desktop.WindowInfo;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import dev.saccade.testsupport.SnapshotQueue;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The reader against a real Xvfb + openbox desktop with gtk3-demo and a zenity entry (the shared
 * test desktop), checked against what xprop and xwininfo report.
 */
@WithTestDesktop(apps = {DemoApp.GTK3_DEMO, DemoApp.ZENITY_ENTRY})
class X11DesktopReaderTest {
    private static final Duration SNAPSHOT_TIMEOUT = Duration.ofSeconds(10);

    private static String display;
    private static XTools x;
    private static long demoPid;
    private static long demoXid;
    private static long entryPid;
    private static long entryXid;

    @BeforeAll
    static void findApps(final TestDesktop desktop) {
        display = desktop.display();
        x = new XTools(desktop);
        for (final AppHandle app : desktop.apps()) {
            if (app.app() == DemoApp.GTK3_DEMO) {
                demoPid = app.pid();
                demoXid = app.windowId();
            } else if (app.app() == DemoApp.ZENITY_ENTRY) {
                entryPid = app.pid();
                entryXid = app.windowId();
            }
        }
        assertNotEquals(0, demoXid, "gtk3-demo window");
        assertNotEquals(0, entryXid, "zenity entry window");
    }

    @Test
    @Timeout(30)
    void snapshotListsAppWindowsWithTheTitlesPidsAndBoundsXReports() {
        Await.untilNoMismatch(() -> {
            final int[] demoBefore = x.absoluteBounds(demoXid);
            final int[] entryBefore = x.absoluteBounds(entryXid);
            final DesktopSnapshot s = X11DesktopReader.readOnce(display);
            if (!Arrays.equals(demoBefore, x.absoluteBounds(demoXid))
                || !Arrays.equals(entryBefore, x.absoluteBounds(entryXid))) {
                return "windows still moving";
            }
            final String demoMismatch = mismatch(s, demoXid, demoPid, demoBefore);
            return demoMismatch != null ? demoMismatch : mismatch(s, entryXid, entryPid, entryBefore);
        }, SNAPSHOT_TIMEOUT);

        final WindowInfo entryWindow = X11DesktopReader.readOnce(display).window(entryXid);
        assertEquals(DemoApp.ZENITY_ENTRY.expectedTitle(), entryWindow.title());
        assertTrue(entryWindow.viewable());
        assertFalse(entryWindow.hidden());
        assertEquals(0, entryWindow.desktop());
    }

    private static String mismatch(final DesktopSnapshot s, final long xid, final long pid, final int[] bounds) {
        final WindowInfo w = s.window(xid);
        if (w == null) {
            return "0x" + Long.toHexString(xid) + " missing from " + s;
        }
        final String title = x.windowText(xid, "_NET_WM_NAME");
        if (w.pid() != pid || !Objects.equals(title, w.title()) || !Arrays.equals(bounds, bounds(w))) {
            return "expected pid " + pid + ", title '" + title + "', bounds " + Arrays.toString(bounds)
                + " but got " + w;
        }
        return null;
    }

    @Test
    @Timeout(30)
    void snapshotActiveWindowAndStackingEqualTheRootProperties() {
        Await.untilNoMismatch(() -> {
            final long active = x.activeWindow();
            final List<Long> stacking = x.rootWindows("_NET_CLIENT_LIST_STACKING");
            final DesktopSnapshot s = X11DesktopReader.readOnce(display);
            if (active != x.activeWindow() || !stacking.equals(x.rootWindows("_NET_CLIENT_LIST_STACKING"))) {
                return "window manager still changing the root properties";
            }
            if (active != s.activeWindow() || !stacking.equals(xids(s))) {
                return "expected active 0x" + Long.toHexString(active) + ", stacking " + stacking + " but got " + s;
            }
            return null;
        }, SNAPSHOT_TIMEOUT);
    }

    @Test
    @Timeout(30)
    void activatingTheOtherWindowDeliversSnapshotWithItActiveAndOnTop() throws Exception {
        final SnapshotQueue<DesktopSnapshot> snapshots = new SnapshotQueue<>();
        try (X11DesktopReader reader = new X11DesktopReader(display, snapshots).start()) {
            final DesktopSnapshot before = reader.latest();
            final long target = top(before) == demoXid ? entryXid : demoXid;

            x.run("xdotool", "windowactivate", "--sync", Long.toString(target));

            final DesktopSnapshot after = snapshots.await(
                s -> s.activeWindow() == target && top(s) == target, SNAPSHOT_TIMEOUT, "0x" + Long.toHexString(target) + " active and on top");
            assertNotEquals(xids(before), xids(after), "stacking changed");
            assertEquals(x.activeWindow(), after.activeWindow());
            assertEquals(x.rootWindows("_NET_CLIENT_LIST_STACKING"), xids(after));
            assertTrue(after.sequence() > before.sequence());
        }
    }

    @Test
    @Timeout(30)
    void openingAWindowDeliversSnapshotWithItAndClosingItDeliversSnapshotWithoutIt() throws Exception {
        final SnapshotQueue<DesktopSnapshot> snapshots = new SnapshotQueue<>();
        final X11DesktopReader reader = new X11DesktopReader(display, snapshots).start();
        try (reader) {
            final Process info = x.launch("zenity", "--info", "--text=hello", "--title", "Saccade info");
            final DesktopSnapshot opened = snapshots.await(
                s -> titled(windowOf(s, info.pid()), "Saccade info"), SNAPSHOT_TIMEOUT, "the info window");
            final long xid = windowOf(opened, info.pid()).xid();
            assertNotNull(opened.window(demoXid), "other windows stay listed");

            XTools.stop(info);

            final DesktopSnapshot closed = snapshots.await(s -> s.window(xid) == null, SNAPSHOT_TIMEOUT,
                "the info window gone");
            assertNotNull(closed.window(entryXid));
            assertNotNull(closed.window(demoXid));
        }
    }

    @Test
    @Timeout(30)
    void movingAWindowDeliversSnapshotWithItsNewBounds() throws Exception {
        final SnapshotQueue<DesktopSnapshot> snapshots = new SnapshotQueue<>();
        final X11DesktopReader reader = new X11DesktopReader(display, snapshots).start();
        try (reader) {
            final int[] before = x.absoluteBounds(entryXid);
            final String frameX = before[0] < 350 ? "420" : "300";

            x.run("xdotool", "windowmove", "--sync", Long.toString(entryXid), frameX, "200");

            final int[] moved = x.absoluteBounds(entryXid);
            assertFalse(Arrays.equals(before, moved), "xwininfo sees the move");
            final DesktopSnapshot s = snapshots.await(w -> w.window(entryXid) != null
                && Arrays.equals(moved, bounds(w.window(entryXid))), SNAPSHOT_TIMEOUT, "bounds " + Arrays.toString(moved));
            assertArrayEquals(moved, bounds(s.window(entryXid)));
        }
    }

    @Test
    @Timeout(30)
    void retitlingAWindowDeliversSnapshotWithTheNewTitle() throws Exception {
        final SnapshotQueue<DesktopSnapshot> snapshots = new SnapshotQueue<>();
        final Process info = x.launch("zenity", "--info", "--text=rename me", "--title", "Before rename");
        try (X11DesktopReader reader = new X11DesktopReader(display, snapshots).start()) {
            final DesktopSnapshot shown = snapshots.await(s -> titled(windowOf(s, info.pid()), "Before rename"),
                SNAPSHOT_TIMEOUT, "the window to rename");
            final long xid = windowOf(shown, info.pid()).xid();

            x.run("xprop", "-id", Long.toString(xid), "-f", "_NET_WM_NAME", "8u", "-set", "_NET_WM_NAME",
                "Après rename ✓");

            snapshots.await(s -> titled(s.window(xid), "Après rename ✓"), SNAPSHOT_TIMEOUT, "the new title");
            assertEquals(x.windowText(xid, "_NET_WM_NAME"), reader.latest().window(xid).title());
        } finally {
            XTools.stop(info);
        }
    }

    @Test
    @Timeout(30)
    void aFrameExtentTheClientStatesArrivesWithItsWindow() throws Exception {
        final SnapshotQueue<DesktopSnapshot> snapshots = new SnapshotQueue<>();
        final Process info = x.launch("zenity", "--info", "--text=a margin", "--title", "Framed");
        try (X11DesktopReader reader = new X11DesktopReader(display, snapshots).start()) {
            final DesktopSnapshot shown = snapshots.await(s -> titled(windowOf(s, info.pid()), "Framed"),
                SNAPSHOT_TIMEOUT, "the window to frame");
            final long xid = windowOf(shown, info.pid()).xid();
            assertNull(shown.frameExtents(xid), "openbox: GTK states no margin");

            // as GTK does under a compositing manager (mutter: 61, 61, 55, 67), D64
            x.run("xprop", "-id", Long.toString(xid), "-f", "_GTK_FRAME_EXTENTS", "32c", "-set", "_GTK_FRAME_EXTENTS",
                "61,62,55,67");

            snapshots.await(s -> new FrameExtents(61, 62, 55, 67).equals(s.frameExtents(xid)), SNAPSHOT_TIMEOUT,
                "the stated margin, left, right, top, bottom");
            assertEquals(new FrameExtents(61, 62, 55, 67), reader.latest().frameExtents(xid), "kept while it holds");
        } finally {
            XTools.stop(info);
        }
    }

    @Test
    @Timeout(30)
    void minimizingAWindowDeliversItHiddenAndNotViewableAndRestoringItBack() throws Exception {
        final SnapshotQueue<DesktopSnapshot> snapshots = new SnapshotQueue<>();
        final X11DesktopReader reader = new X11DesktopReader(display, snapshots).start();
        try (reader) {
            x.run("xdotool", "windowminimize", "--sync", Long.toString(demoXid));
            // The window manager sets the state, unmaps and moves the focus in separate steps:
            // wait for all of them, which may take more than one snapshot.
            snapshots.await(s -> s.window(demoXid) != null && s.window(demoXid).hidden()
                && !s.window(demoXid).viewable() && s.activeWindow() != demoXid,
                SNAPSHOT_TIMEOUT, "gtk3-demo hidden, unmapped and not active");

            x.run("xdotool", "windowactivate", "--sync", Long.toString(demoXid));
            snapshots.await(s -> s.window(demoXid) != null && !s.window(demoXid).hidden()
                && s.window(demoXid).viewable() && s.activeWindow() == demoXid, SNAPSHOT_TIMEOUT,
                "gtk3-demo shown, mapped and active");
        } finally {
            x.run("xdotool", "windowactivate", "--sync", Long.toString(demoXid));
        }
    }

    @Test
    @Timeout(30)
    void xvfbScreenIsOneMonitorWhoseNonzeroIdIsTheSameOverTwoConnections() {
        final DesktopSnapshot first = X11DesktopReader.readOnce(display);
        final DesktopSnapshot second = X11DesktopReader.readOnce(display);

        assertEquals(1, first.monitors().size(), first.monitors().toString());
        final MonitorInfo m = first.monitors().get(0);
        assertArrayEquals(new int[] {0, 0, 1920, 1080}, new int[] {m.x(), m.y(), m.width(), m.height()});
        assertNotEquals(0, m.id());
        assertEquals(m.id(), second.monitors().get(0).id());
        assertEquals(MonitorInfo.stableId(m.name()), m.id());
        assertEquals(first.topologyEpoch(), second.topologyEpoch());
        assertEquals(m, first.primaryMonitor());
    }

    @Test
    @Timeout(30)
    void addingAMonitorChangesTheTopologyEpochAndKeepsTheScreenId() throws Exception {
        final SnapshotQueue<DesktopSnapshot> snapshots = new SnapshotQueue<>();
        try (X11DesktopReader reader = new X11DesktopReader(display, snapshots).start()) {
            final DesktopSnapshot before = reader.latest();
            final MonitorInfo screen = before.monitors().get(0);

            x.run("xrandr", "--setmonitor", "saccade-left", "960/254x1080/286+0+0", "none");
            final DesktopSnapshot split = snapshots.await(s -> s.monitors().size() == 2, SNAPSHOT_TIMEOUT, "two monitors");
            assertNotEquals(before.topologyEpoch(), split.topologyEpoch());
            assertTrue(split.monitors().contains(screen), "the screen monitor keeps its id and bounds");
            final MonitorInfo left = split.monitors().stream().filter(m -> m.name().equals("saccade-left")).findFirst()
                .orElseThrow();
            assertArrayEquals(new int[] {0, 0, 960, 1080}, new int[] {left.x(), left.y(), left.width(), left.height()});
            assertNotEquals(screen.id(), left.id());

            x.run("xrandr", "--delmonitor", "saccade-left");
            final DesktopSnapshot merged = snapshots.await(s -> s.monitors().size() == 1, SNAPSHOT_TIMEOUT, "one monitor");
            assertEquals(before.topologyEpoch(), merged.topologyEpoch());
        } finally {
            if (x.run("xrandr", "--listmonitors").contains("saccade-left")) {
                x.run("xrandr", "--delmonitor", "saccade-left");
            }
        }
    }

    @Test
    @Timeout(30)
    void closeStopsTheReaderThreadPromptlyAndClosesItsConnection() throws Exception {
        final Set<Thread> earlier = readerThreads();
        final X11DesktopReader reader = new X11DesktopReader(display, new SnapshotQueue<>()).start();
        final Set<Thread> threads = readerThreads();
        threads.removeAll(earlier);
        assertEquals(1, threads.size(), "one thread named " + X11DesktopReader.THREAD_NAME);
        final Thread thread = threads.iterator().next();
        assertTrue(thread.isDaemon());
        final Path fd = Path.of("/proc/self/fd/" + reader.connectionFd());
        final String socket = Files.readSymbolicLink(fd).toString();
        assertTrue(socket.startsWith("socket:"), socket);

        final long startNs = System.nanoTime();
        reader.close();
        final long closeMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);

        assertFalse(thread.isAlive(), "thread stopped");
        assertTrue(closeMs < 250, "close took " + closeMs + " ms");
        assertFalse(reader.isRunning());
        assertNotEquals(socket, linkOrNull(fd), "X connection closed");
        reader.close(); // idempotent
    }

    @Test
    @Timeout(30)
    void idleReaderSleepsInsteadOfPolling() throws Exception {
        try (X11DesktopReader reader = new X11DesktopReader(display, new SnapshotQueue<>()).start()) {
            final Thread thread = readerThreads().stream().filter(Thread::isAlive).findFirst().orElseThrow();
            final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            final long cpuBeforeNs = mx.getThreadCpuTime(thread.getId());
            final long eventsBefore = reader.eventCount();
            // A measurement window, not synchronisation: how much CPU does an idle reader burn?
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
            final long cpuMs = TimeUnit.NANOSECONDS.toMillis(mx.getThreadCpuTime(thread.getId()) - cpuBeforeNs);
            if (reader.eventCount() == eventsBefore) {
                assertTrue(cpuMs < 20, "idle reader used " + cpuMs + " ms CPU in 500 ms");
            }
        }
    }

    @Test
    @Timeout(60)
    void windowsKilledWhileBeingReadDropOutAndNothingFails() throws Exception {
        final SnapshotQueue<DesktopSnapshot> snapshots = new SnapshotQueue<>();
        final List<Process> victims = new ArrayList<>();
        try (X11DesktopReader reader = new X11DesktopReader(display, snapshots).start()) {
            for (int i = 0; i < 4; i++) {
                victims.add(x.launch("zenity", "--info", "--text=victim", "--title", "victim " + i));
            }
            final DesktopSnapshot all = snapshots.await(
                s -> victims.stream().allMatch(p -> titled(windowOf(s, p.pid()), null)), SNAPSHOT_TIMEOUT, "all victims");
            final List<Long> victimXids = new ArrayList<>();
            for (final Process p : victims) {
                victimXids.add(windowOf(all, p.pid()).xid());
            }

            // A second connection reads as fast as it can while the windows die under it.
            final AtomicBoolean stop = new AtomicBoolean();
            final AtomicLong reads = new AtomicLong();
            final AtomicReference<Throwable> hammerFailure = new AtomicReference<>();
            final Thread hammer = new Thread(() -> {
                try (X11Desktop connection = X11Desktop.open(display)) {
                    final SnapshotBuilder builder = new SnapshotBuilder(connection, true);
                    while (!stop.get()) {
                        builder.build(1);
                        reads.incrementAndGet();
                    }
                } catch (final Throwable t) {
                    hammerFailure.set(t);
                }
            }, "x11-hammer");
            hammer.start();
            Await.until(() -> reads.get() > 10, SNAPSHOT_TIMEOUT, "hammer reading");

            for (final Process p : victims) {
                p.destroyForcibly(); // SIGKILL: no clean unmap, the server destroys the windows
            }
            final DesktopSnapshot after = snapshots.await(
                s -> victimXids.stream().noneMatch(xid -> s.window(xid) != null), SNAPSHOT_TIMEOUT, "victims gone");
            final long readsAtDeath = reads.get();
            Await.until(() -> reads.get() > readsAtDeath + 10, SNAPSHOT_TIMEOUT, "hammer reading on");
            stop.set(true);
            hammer.join(SNAPSHOT_TIMEOUT.toMillis());

            assertNull(hammerFailure.get(), () -> "hammer failed: " + hammerFailure.get());
            assertNotNull(after.window(demoXid));
            assertNotNull(after.window(entryXid));
            assertTrue(reader.isRunning());
            assertEquals(0, reader.listenerFailureCount());
            final DesktopSnapshot fresh = X11DesktopReader.readOnce(display);
            assertTrue(victimXids.stream().noneMatch(xid -> fresh.window(xid) != null));
        } finally {
            victims.forEach(XTools::stop);
        }
    }

    @Test
    @Timeout(30)
    void aThrowingListenerIsCountedAndTheReaderGoesOn() throws Exception {
        final SnapshotQueue<DesktopSnapshot> snapshots = new SnapshotQueue<>();
        final AtomicBoolean thrown = new AtomicBoolean();
        try (X11DesktopReader reader = new X11DesktopReader(display, s -> {
            if (thrown.compareAndSet(false, true)) {
                throw new IllegalStateException("listener failure on purpose");
            }
            snapshots.accept(s);
        }).start()) {
            final long target = top(reader.latest()) == demoXid ? entryXid : demoXid;
            x.run("xdotool", "windowactivate", "--sync", Long.toString(target));

            snapshots.await(s -> s.activeWindow() == target, SNAPSHOT_TIMEOUT, "the activation after the failure");
            assertEquals(1, reader.listenerFailureCount());
            assertTrue(reader.isRunning());
        }
    }

    @Test
    @Timeout(30)
    void closingFromTheListenerStopsTheReader() throws Exception {
        final AtomicReference<X11DesktopReader> self = new AtomicReference<>();
        final AtomicLong calls = new AtomicLong();
        final X11DesktopReader reader = new X11DesktopReader(display, s -> {
            if (calls.incrementAndGet() == 2) {
                self.get().close();
            }
        });
        self.set(reader);
        reader.start();
        final long target = top(reader.latest()) == demoXid ? entryXid : demoXid;

        x.run("xdotool", "windowactivate", "--sync", Long.toString(target));

        Await.until(() -> !reader.isRunning() && readerThreads().stream().noneMatch(Thread::isAlive),
            SNAPSHOT_TIMEOUT, "reader stopped by its own listener");
        assertEquals(2, calls.get());
        reader.close();
    }

    @Test
    @Timeout(30)
    void aDisplayThatDoesNotExistIsAnX11ExceptionNotACrash() {
        final String missing = unusedDisplay();
        assertThrows(X11Exception.class, () -> X11DesktopReader.readOnce(missing));
        final X11DesktopReader reader = new X11DesktopReader(missing, s -> { });
        assertThrows(X11Exception.class, reader::start);
        assertFalse(reader.isRunning());
        reader.close();
    }

    @Test
    @Timeout(90)
    void readerStopsAndTheJvmLivesWhenTheXServerDies() throws Exception {
        try (TestDesktop doomed = TestDesktop.start(new TestDesktopContext().screenSize(800, 600))) {
            final X11DesktopReader reader = new X11DesktopReader(doomed.display(), new SnapshotQueue<>()).start();
            assertEquals(800, reader.latest().monitors().get(0).width());
            final ProcessHandle server = doomed.processes().stream()
                .filter(p -> p.info().command().orElse("").endsWith("Xvfb")).findFirst().orElseThrow();

            server.destroy();

            Await.until(() -> !reader.isRunning(), SNAPSHOT_TIMEOUT, "reader stopped after the server died");
            reader.close();
            assertThrows(X11Exception.class, () -> X11DesktopReader.readOnce(doomed.display()));
        }
        assertNotNull(X11DesktopReader.readOnce(display).window(entryXid), "other displays still work");
    }

    // ---------------------------------------------------------------- helpers

    private static WindowInfo windowOf(final DesktopSnapshot s, final long pid) {
        for (final WindowInfo w : s.windows()) {
            if (w.pid() == pid) {
                return w;
            }
        }
        return null;
    }

    /** A listed, viewable window with this title (any non-empty title if null). */
    private static boolean titled(final WindowInfo w, final String title) {
        return w != null && w.viewable() && (title == null ? !w.title().isEmpty() : w.title().equals(title));
    }

    private static List<Long> xids(final DesktopSnapshot s) {
        final List<Long> ids = new ArrayList<>();
        for (final WindowInfo w : s.windows()) {
            ids.add(w.xid());
        }
        return ids;
    }

    private static long top(final DesktopSnapshot s) {
        return s.windows().isEmpty() ? 0 : s.windows().get(s.windows().size() - 1).xid();
    }

    private static int[] bounds(final WindowInfo w) {
        return new int[] {w.x(), w.y(), w.width(), w.height()};
    }

    private static Set<Thread> readerThreads() {
        final Set<Thread> threads = new HashSet<>();
        for (final Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals(X11DesktopReader.THREAD_NAME)) {
                threads.add(t);
            }
        }
        return threads;
    }

    private static String linkOrNull(final Path link) throws IOException {
        try {
            return Files.readSymbolicLink(link).toString();
        } catch (final NoSuchFileException e) {
            return null;
        }
    }

    private static String unusedDisplay() {
        for (int n = 250; ; n++) {
            if (!Files.exists(Path.of("/tmp/.X11-unix/X" + n)) && !Files.exists(Path.of("/tmp/.X" + n + "-lock"))) {
                return ":" + n;
            }
        }
    }
}
