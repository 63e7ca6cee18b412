package dev.saccade.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.desktop.AccessibilitySnapshot;
import dev.saccade.desktop.AccessibleApplication;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import dev.saccade.testsupport.SnapshotQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A hung application (gtk3-demo stopped with SIGSTOP: it keeps its bus name and never answers)
 * must cost a refresh no more than its deadline, and must not take the other applications' nodes
 * with it. Its own desktop: stopping an app would disturb the other tests.
 */
@WithTestDesktop(apps = {DemoApp.GTK3_DEMO, DemoApp.ZENITY_ENTRY})
class AtspiSourceHungAppTest {
    private static final long APP_TIMEOUT_MS = 300;
    private static final long REFRESH_TIMEOUT_MS = 600;

    @Test
    @Timeout(60)
    void refreshOfAHungAppEndsAtItsDeadlineWithTheOtherAppsIntact(final TestDesktop desktop) throws Exception {
        final DesktopTools tools = new DesktopTools(desktop);
        final AppHandle demo = tools.app(DemoApp.GTK3_DEMO);
        final AppHandle entry = tools.app(DemoApp.ZENITY_ENTRY);
        final SnapshotQueue<AccessibilitySnapshot> snapshots = new SnapshotQueue<>();
        final AtspiSourceContext context = new AtspiSourceContext().sessionBusAddress(desktop.sessionBusAddress())
            .appTimeoutMs(APP_TIMEOUT_MS).refreshTimeoutMs(REFRESH_TIMEOUT_MS);
        try (AtspiSource source = new AtspiSource(context, snapshots)) {
            source.start();
            // Asking again while one is incomplete: under load a first refresh can miss the short deadline.
            AtspiSourceTest.refreshUntil(source, s -> complete(s, demo) && complete(s, entry), "both apps");
            // One more whole pass of our own, so that none is in flight when the app is stopped
            // and the node count below is that of a settled pass.
            final AccessibilitySnapshot before = AtspiSourceTest.refreshUntil(source.requestRefresh().get(10, TimeUnit.SECONDS),
                source, s -> complete(s, demo) && complete(s, entry), "both apps");
            final int demoNodes = before.application(demo.accessibleBusName()).nodes().size();
            tools.signal(demo.pid(), "STOP");
            try {
                final long t0 = System.nanoTime();
                final AccessibilitySnapshot during = source.requestRefresh().get(10, TimeUnit.SECONDS);
                final long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                // Coalescing quiet (20 ms) + registry + the app's deadline, with slack for a busy machine.
                assertTrue(tookMs < REFRESH_TIMEOUT_MS + 400, "the pass ended at the deadline: " + tookMs + " ms");
                assertTrue(during.incomplete(), "a hung app makes the snapshot incomplete");
                final AccessibleApplication hung = during.application(demo.accessibleBusName());
                assertNotNull(hung, "still registered");
                assertFalse(hung.complete());
                assertTrue(hung.error().contains("no answer"), hung.error());
                assertEquals(demoNodes, hung.nodes().size(), "keeps its last nodes");
                final AccessibleApplication other = during.application(entry.accessibleBusName());
                assertTrue(other.complete() && !other.nodes().isEmpty(), "the zenity entry refreshed: " + other);
            } finally {
                tools.signal(demo.pid(), "CONT");
            }
            // Once it answers again (it first works off what queued up), the source reads it again by
            // itself, asked or not: an incomplete application is retried with a doubling delay
            // (RefreshSchedule.retryLater), so its scene does not stay half read until an event comes.
            snapshots.await(s -> complete(s, demo), java.time.Duration.ofSeconds(20), "gtk3-demo complete again");
        }
    }

    /**
     * The app stopped at every moment of whole refreshes in turn, so that some are cut after the
     * listing arrived and before the details (parents, extents) did: the scene must keep the last
     * filtered view of the app then, never publish its unfiltered object list (157
     * objects instead of 42 for gtk3-demo). Each stop comes a little later into the pass.
     */
    @Test
    @Timeout(120)
    void aRefreshCutBetweenListingAndDetailsKeepsTheLastFilteredView(final TestDesktop desktop) throws Exception {
        final DesktopTools tools = new DesktopTools(desktop);
        final AppHandle demo = tools.app(DemoApp.GTK3_DEMO);
        final SnapshotQueue<AccessibilitySnapshot> snapshots = new SnapshotQueue<>();
        final AtspiSourceContext context = new AtspiSourceContext().sessionBusAddress(desktop.sessionBusAddress())
            .appTimeoutMs(APP_TIMEOUT_MS).refreshTimeoutMs(REFRESH_TIMEOUT_MS).coalesceQuietMs(0).coalesceMaxMs(0);
        try (AtspiSource source = new AtspiSource(context, snapshots)) {
            source.start();
            final AccessibilitySnapshot settled = AtspiSourceTest.refreshUntil(source, s -> complete(s, demo), "gtk3-demo");
            final java.util.List<AccessibilityNode> shown = settled.application(demo.accessibleBusName()).nodes();
            int cut = 0;
            for (int i = 0; i < 24; i++) {
                final java.util.concurrent.CompletableFuture<AccessibilitySnapshot> pass = source.requestFullRefresh();
                final long stopAtNs = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(750L * i);
                while (Await.before(stopAtNs)) {
                    Thread.onSpinWait(); // the stop's moment within the pass is what varies
                }
                tools.signal(demo.pid(), "STOP");
                final AccessibilitySnapshot during;
                try {
                    during = pass.get(10, TimeUnit.SECONDS);
                } finally {
                    tools.signal(demo.pid(), "CONT");
                }
                final AccessibleApplication a = during.application(demo.accessibleBusName());
                if (!a.complete()) {
                    cut++;
                    assertEquals(shown, a.nodes(), "cut in " + a.error() + ": the last filtered view stands");
                }
                AtspiSourceTest.refreshUntil(source.requestFullRefresh().get(10, TimeUnit.SECONDS), source,
                    s -> complete(s, demo), "gtk3-demo answering again");
            }
            assertTrue(cut > 0, "some refreshes were cut by the stop");
        }
    }

    private static boolean complete(final AccessibilitySnapshot s, final AppHandle app) {
        final AccessibleApplication a = s.application(app.accessibleBusName());
        return a != null && a.complete() && !a.nodes().isEmpty();
    }
}
