package dev.saccade.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.desktop.AccessibilitySnapshot;
import dev.saccade.desktop.AccessibleApplication;
import dev.saccade.protocol.Role;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import dev.saccade.testsupport.SnapshotQueue;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A refresh request for applications no event marked (D19): it reads no tree while nothing
 * changed, and the scene still follows what does change: a window moved by the window manager
 * (which AT-SPI sends no event for), text typed into an entry (its text events name the entry,
 * which alone is read again; the result is what a whole read finds), and a request after the
 * full-read budget; text typed into a window the window manager moved (the entry's events alone
 * must not leave its window behind); and input, read whole again once it settled. Proof from the
 * applications: their own extents and what zenity holds.
 */
@WithTestDesktop(apps = {DemoApp.GTK3_DEMO, DemoApp.ZENITY_ENTRY})
class AtspiRefreshCheckTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private static AtspiSource start(final TestDesktop desktop, final SnapshotQueue<AccessibilitySnapshot> snapshots,
        final long fullRefreshMs) {
        return start(desktop, snapshots, fullRefreshMs, AtspiConfiguration.INPUT_SETTLE_MS_DEFAULT);
    }

    private static AtspiSource start(final TestDesktop desktop, final SnapshotQueue<AccessibilitySnapshot> snapshots,
        final long fullRefreshMs, final long settleMs) {
        final AtspiSource source = new AtspiSource(new AtspiSourceContext().sessionBusAddress(desktop.sessionBusAddress())
            .fullRefreshMs(fullRefreshMs).inputSettleMs(settleMs), snapshots);
        source.start();
        return source;
    }

    private static AtspiDiagnostics.App app(final AtspiSource source, final AppHandle handle) {
        for (final AtspiDiagnostics.App a : source.diagnostics().applications()) {
            if (a.busName().equals(handle.accessibleBusName())) {
                return a;
            }
        }
        throw new AssertionError("no " + handle + " in " + source.diagnostics());
    }

    private static boolean complete(final AccessibilitySnapshot s, final AppHandle app) {
        final AccessibleApplication a = s.application(app.accessibleBusName());
        return a != null && a.complete() && !a.nodes().isEmpty();
    }

    /** The application's top-level window node (its frame), as the scene has it. */
    private static AccessibilityNode frame(final AccessibilitySnapshot s, final AppHandle app) {
        for (final AccessibilityNode n : s.application(app.accessibleBusName()).nodes()) {
            if (n.parentId() == 0 && n.role() == Role.WINDOW) {
                return n;
            }
        }
        throw new AssertionError("no top-level window of " + app + " in " + s);
    }

    /** The application's top-level object (a window or a dialog), or null if the snapshot has none yet. */
    private static AccessibilityNode top(final AccessibilitySnapshot s, final AppHandle app) {
        final AccessibleApplication a = s.application(app.accessibleBusName());
        if (a != null) {
            for (final AccessibilityNode n : a.nodes()) {
                if (n.parentId() == 0 && n.width() > 0) {
                    return n;
                }
            }
        }
        return null;
    }

    /** Whether the application's top-level object is at {@code x}. */
    private static boolean topAt(final AccessibilitySnapshot s, final AppHandle app, final int x) {
        final AccessibilityNode n = top(s, app);
        return n != null && n.x() == x;
    }

    /** A whole read now finds {@code app} node for node as {@code s} has it. */
    private static void assertWholeReadFinds(final AtspiSource source, final AppHandle app, final AccessibilitySnapshot s,
        final String what) throws Exception {
        assertEquals(source.requestFullRefresh().get(10, TimeUnit.SECONDS).application(app.accessibleBusName()).nodes(),
            s.application(app.accessibleBusName()).nodes(), what);
    }

    /** Refresh requests until one passes in which no event came, so that it had nothing to re-read. */
    private static AccessibilitySnapshot quietRefresh(final AtspiSource source) throws Exception {
        final long deadlineNs = System.nanoTime() + WAIT.toNanos();
        while (true) {
            final long events = source.diagnostics().events();
            final AccessibilitySnapshot s = source.requestRefresh().get(10, TimeUnit.SECONDS);
            if (source.diagnostics().events() == events) {
                return s;
            }
            Await.check(deadlineNs, "a refresh with no event during it");
        }
    }

    @Test
    @Timeout(60)
    void aRequestWithNothingChangedReadsNoTreeAndAMovedWindowIsReadAgain(final TestDesktop desktop) throws Exception {
        final DesktopTools tools = new DesktopTools(desktop);
        final AppHandle demo = tools.app(DemoApp.GTK3_DEMO);
        final SnapshotQueue<AccessibilitySnapshot> snapshots = new SnapshotQueue<>();
        try (AtspiSource source = start(desktop, snapshots, 60_000)) {
            AtspiSourceTest.refreshUntil(source, s -> complete(s, demo), "gtk3-demo");
            final AccessibilitySnapshot before = quietRefresh(source);
            final AtspiDiagnostics.App was = app(source, demo);
            final AccessibilitySnapshot same = quietRefresh(source);
            final AtspiDiagnostics.App is = app(source, demo);
            assertEquals(was.fullReads(), is.fullReads(), "nothing changed: no tree read " + is);
            assertTrue(is.checks() > was.checks(), "the windows were checked: " + is);
            assertTrue(is.complete(), "and the application stays complete");
            assertEquals(before.application(demo.accessibleBusName()).nodes(),
                same.application(demo.accessibleBusName()).nodes(), "the same nodes");

            final AccessibilityNode frame = frame(same, demo);
            moveBy(desktop, tools, demo.windowId(), 40, 30);
            // What the owner does after an X11 change: one request, no event from the application.
            final AccessibilitySnapshot moved = AtspiSourceTest.refreshUntil(same, source,
                s -> frame(s, demo).x() == frame.x() + 40, "gtk3-demo's frame 40 px to the right");
            assertEquals(frame.y() + 30, frame(moved, demo).y(), "and 30 px down");
            assertTrue(app(source, demo).fullReads() > is.fullReads(), "a moved window is read again");
            final int[] now = tools.absoluteBounds(demo.windowId());
            for (final AccessibilityNode n : moved.application(demo.accessibleBusName()).nodes()) {
                if (n.role() == Role.BUTTON && n.width() > 0) {
                    assertTrue(n.x() >= now[0] && n.x() + n.width() <= now[0] + now[2], n + " inside the moved window");
                }
            }
        }
    }

    @Test
    @Timeout(60)
    void typedTextReachesTheSceneAndTheBudgetForcesAWholeRead(final TestDesktop desktop) throws Exception {
        final DesktopTools tools = new DesktopTools(desktop);
        final AppHandle entry = tools.app(DemoApp.ZENITY_ENTRY);
        final SnapshotQueue<AccessibilitySnapshot> snapshots = new SnapshotQueue<>();
        // A budget of 0: every request reads whole, events or not.
        try (AtspiSource source = start(desktop, snapshots, 0)) {
            AtspiSourceTest.refreshUntil(source, s -> complete(s, entry), "the zenity entry");
            final long reads = app(source, entry).fullReads();
            quietRefresh(source);
            assertTrue(app(source, entry).fullReads() > reads, "no budget left: a whole read " + app(source, entry));
            assertEquals(0, app(source, entry).checks(), "never only a check");
        }
        try (AtspiSource source = start(desktop, snapshots, 60_000)) {
            AtspiSourceTest.refreshUntil(source, s -> complete(s, entry), "the zenity entry");
            tools.run("xdotool", "windowactivate", "--sync", Long.toString(entry.windowId()));
            quietRefresh(source);
            final AtspiDiagnostics.App was = app(source, entry);
            tools.run("xdotool", "type", "--delay", "20", "ab12");
            // The entry's own text events name it: only it is read again, and the scene follows.
            final AccessibilitySnapshot s = snapshots.awaitNewestFirst(
                x -> AtspiSourceTest.fieldText(x, entry).endsWith("ab12"), WAIT, "the entry holding ab12");
            final AtspiDiagnostics.App is = app(source, entry);
            assertTrue(is.touches() > was.touches(), "text events re-read the entry alone: " + is);
            // A request on top must not hide the events behind a check, and a whole read sees the same.
            source.requestRefresh().get(10, TimeUnit.SECONDS);
            final AccessibilitySnapshot whole = source.requestFullRefresh().get(10, TimeUnit.SECONDS);
            assertTrue(app(source, entry).fullReads() > is.fullReads(), "read whole: " + app(source, entry));
            assertEquals(whole.application(entry.accessibleBusName()).nodes(),
                source.latest().application(entry.accessibleBusName()).nodes());
            assertEquals(AtspiSourceTest.fieldText(whole, entry), AtspiSourceTest.fieldText(s, entry),
                "what the events brought is what a whole read finds");
            assertEquals(whole.application(entry.accessibleBusName()).nodes(), s.application(entry.accessibleBusName()).nodes(),
                "node for node: " + s.application(entry.accessibleBusName()).nodes());
            // Select all and delete: the entry empties, and so does its scene.
            tools.run("xdotool", "key", "--delay", "20", "ctrl+a", "Delete");
            snapshots.awaitNewestFirst(x -> AtspiSourceTest.fieldText(x, entry).isEmpty(), WAIT, "the entry emptied");
            tools.run("xdotool", "type", "--delay", "5", "0123456789abcdefghij");
            final AccessibilitySnapshot typed = snapshots.awaitNewestFirst(
                x -> AtspiSourceTest.fieldText(x, entry).equals("0123456789abcdefghij"), WAIT, "twenty characters typed fast");
            assertWholeReadFinds(source, entry, typed, "and again what a whole read finds");
        }
    }

    @Test
    @Timeout(60)
    void textTypedIntoAMovedWindowReadsItWhole(final TestDesktop desktop) throws Exception {
        final DesktopTools tools = new DesktopTools(desktop);
        final AppHandle entry = tools.app(DemoApp.ZENITY_ENTRY);
        final SnapshotQueue<AccessibilitySnapshot> snapshots = new SnapshotQueue<>();
        // No settle pass: what follows must come from the events' own pass.
        try (AtspiSource source = start(desktop, snapshots, 60_000, 0)) {
            AtspiSourceTest.refreshUntil(source, s -> complete(s, entry), "the zenity entry");
            tools.run("xdotool", "windowactivate", "--sync", Long.toString(entry.windowId()));
            final AccessibilitySnapshot quiet = quietRefresh(source);
            final AccessibilityNode frame = top(quiet, entry);
            final int[] window = moveBy(desktop, tools, entry.windowId(), 40, 30);
            // (by 40 and 30 plus the frame openbox draws around it: zenity's dialog has no CSD)
            final int[] moved = tools.absoluteBounds(entry.windowId());
            final int dx = moved[0] - window[0];
            final int dy = moved[1] - window[1];
            final AtspiDiagnostics.App was = app(source, entry);
            // Text events name the entry alone, which moved with its window: the pass that follows
            // them must not publish the entry where it is and its window where it was (no request
            // comes: the owner asks only after an X11 change, and the move was before).
            tools.run("xdotool", "type", "--delay", "20", "mv");
            final AccessibilitySnapshot s = snapshots.awaitNewestFirst(
                x -> AtspiSourceTest.fieldText(x, entry).endsWith("mv") && topAt(x, entry, frame.x() + dx),
                WAIT, "the entry holding mv, its window " + dx + " px to the right");
            assertEquals(frame.y() + dy, top(s, entry).y(), "and " + dy + " px down");
            assertTrue(app(source, entry).fullReads() > was.fullReads(), "read whole: " + app(source, entry));
            assertWholeReadFinds(source, entry, s, "what a whole read finds");
        }
    }

    @Test
    @Timeout(60)
    void inputIsFollowedByAWholeReadOnceItSettled(final TestDesktop desktop) throws Exception {
        final DesktopTools tools = new DesktopTools(desktop);
        final AppHandle demo = tools.app(DemoApp.GTK3_DEMO);
        final SnapshotQueue<AccessibilitySnapshot> snapshots = new SnapshotQueue<>();
        final long settleMs = 5_000;
        try (AtspiSource source = start(desktop, snapshots, 60_000, settleMs)) {
            AtspiSourceTest.refreshUntil(source, s -> complete(s, demo), "gtk3-demo");
            final AccessibilityNode frame = top(quietRefresh(source), demo);
            final long reads = app(source, demo).fullReads();
            final long inputNs = System.nanoTime();
            source.markDirty(); // what the owner does after each input plan
            Await.until(() -> app(source, demo).fullReads() > reads, WAIT, () -> "the input's own whole read");
            final long afterInput = app(source, demo).fullReads();
            // What the input did, late and without an event: the window moves (no AT-SPI event,
            // and no refresh request either: the owner asks only for X11 changes it saw).
            moveBy(desktop, tools, demo.windowId(), 40, 30);
            final long movedAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - inputNs);
            assertTrue(movedAfterMs < settleMs, "the move came within the settle time: " + movedAfterMs + " ms");
            final AccessibilitySnapshot s = snapshots.awaitNewestFirst(x -> topAt(x, demo, frame.x() + 40),
                WAIT, "gtk3-demo's frame 40 px to the right, with no request");
            assertEquals(frame.y() + 30, top(s, demo).y(), "and 30 px down");
            assertTrue(app(source, demo).fullReads() > afterInput, "the settle pass read it whole: " + app(source, demo));
        }
    }

    /** Moves a window by (dx, dy) with the window manager and waits until X shows it moved; its bounds before. */
    private static int[] moveBy(final TestDesktop desktop, final DesktopTools tools, final long windowId, final int dx,
        final int dy) {
        final int[] before = tools.absoluteBounds(windowId);
        desktop.moveWindow(windowId, before[0] + dx, before[1] + dy);
        Await.until(() -> tools.absoluteBounds(windowId)[0] != before[0], WAIT, () -> "the window moved");
        return before;
    }
}
