package dev.saccade.owner.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.protocol.Role;
import dev.saccade.testdesktop.AppHandle;
import dev.saccade.testdesktop.DemoApp;
import dev.saccade.testdesktop.TestDesktop;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import dev.saccade.testsupport.SnapshotQueue;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A refresh request for applications no event marked (issue 19): it reads no tree while nothing
 * changed, and the scene still follows what does change: a window moved by the window manager
 * (which AT-SPI sends no event for), text typed into an entry (its text events name the entry,
 * which alone is read again; the result is what a whole read finds), and a request after the
 * full-read budget. Proof from the applications: their own extents and what zenity holds.
 */
@WithTestDesktop(apps = {DemoApp.GTK3_DEMO, DemoApp.ZENITY_ENTRY})
class AtspiRefreshCheckTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private static AtspiSource start(final TestDesktop desktop, final SnapshotQueue<AccessibilitySnapshot> snapshots,
        final long fullRefreshMs) {
        final AtspiSource source = new AtspiSource(new AtspiSourceContext().sessionBusAddress(desktop.sessionBusAddress())
            .fullRefreshMs(fullRefreshMs), snapshots);
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
            final int[] window = tools.absoluteBounds(demo.windowId());
            desktop.moveWindow(demo.windowId(), window[0] + 40, window[1] + 30);
            Await.until(() -> tools.absoluteBounds(demo.windowId())[0] == window[0] + 40, WAIT, () -> "the window moved");
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
            assertEquals(source.requestFullRefresh().get(10, TimeUnit.SECONDS).application(entry.accessibleBusName()).nodes(),
                typed.application(entry.accessibleBusName()).nodes(), "and again what a whole read finds");
        }
    }
}
