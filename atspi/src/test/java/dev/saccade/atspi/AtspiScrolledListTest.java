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
import dev.saccade.protocol.TargetFlag;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import dev.saccade.testsupport.SnapshotQueue;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A whole read that leans on the last one (BulkListing's early details: rows off screen last time
 * are asked their extents with the listing, what lies inside them only once they came back) reads
 * a list scrolled by the user exactly as a source reading gtk3-demo for the first time does.
 */
@WithTestDesktop(apps = DemoApp.GTK3_DEMO)
class AtspiScrolledListTest {
    @Test
    @Timeout(90)
    void rowsScrolledIntoViewReadAsAFirstReadSeesThem(final TestDesktop desktop) throws Exception {
        final AppHandle demo = desktop.apps().get(0);
        final String bus = demo.accessibleBusName();
        try (AtspiSource warm = start(desktop)) {
            AccessibilitySnapshot s = AtspiSourceTest.refreshUntil(warm, x -> rows(x, bus).size() > 5, "gtk3-demo's rows");
            final Set<String> before = rows(s, bus);
            final AccessibilityNode row = s.find(n -> n.busName().equals(bus) && isRow(n)).get(0);
            // Wheel notches over the list, from outside the service: no event of ours says it scrolled.
            final Process wheel = desktop.configure(new ProcessBuilder("xdotool", "mousemove",
                String.valueOf(row.x() + row.width() / 2), String.valueOf(row.y() + row.height() / 2),
                "click", "--repeat", "10", "--delay", "20", "5")).redirectErrorStream(true).start();
            assertEquals(0, wheel.waitFor(), new String(wheel.getInputStream().readAllBytes()));
            s = fullUntil(warm, x -> !before.containsAll(rows(x, bus)), "rows that were off screen");
            // Stable: two whole reads in a row agree (GTK may still be animating the scroll).
            List<AccessibilityNode> last = nodes(s, bus);
            for (List<AccessibilityNode> now = nodes(warm.requestFullRefresh().get(10, TimeUnit.SECONDS), bus);
                 !now.equals(last); now = nodes(warm.requestFullRefresh().get(10, TimeUnit.SECONDS), bus)) {
                last = now;
            }
            try (AtspiSource cold = start(desktop)) {
                final AccessibilitySnapshot first = AtspiSourceTest.refreshUntil(cold, x -> complete(x, bus) && rows(x, bus).size() > 5,
                    "gtk3-demo's rows, read once");
                assertEquals(nodes(first, bus), last, "the warm read sees what a first read sees, bounds and all");
            }
            for (final AccessibilityNode n : last) {
                if (isRow(n)) {
                    assertTrue(n.width() > 0 && n.height() > 0 && !n.hasFlag(TargetFlag.OCCLUDED), "a row on screen: " + n);
                }
            }
            assertTrue(!before.containsAll(rows(s, bus)), "rows came into view: " + rows(s, bus) + " after " + before);
        }
    }

    private static AtspiSource start(final TestDesktop desktop) {
        final AtspiSource source = new AtspiSource(new AtspiSourceContext().sessionBusAddress(desktop.sessionBusAddress()),
            new SnapshotQueue<>());
        source.start();
        return source;
    }

    private static AccessibilitySnapshot fullUntil(final AtspiSource source,
        final java.util.function.Predicate<AccessibilitySnapshot> condition, final String what) throws Exception {
        return Await.probe(() -> source.requestFullRefresh().get(10, TimeUnit.SECONDS), condition,
            Duration.ofSeconds(20), s -> "a whole read with " + what + "; last: " + s);
    }

    private static boolean complete(final AccessibilitySnapshot s, final String bus) {
        final AccessibleApplication a = s.application(bus);
        return a != null && a.complete();
    }

    private static boolean isRow(final AccessibilityNode n) {
        return (n.role() == Role.TABLE_CELL || n.role() == Role.TREE_ITEM) && !n.text().isEmpty();
    }

    private static List<AccessibilityNode> nodes(final AccessibilitySnapshot s, final String bus) {
        final AccessibleApplication a = s.application(bus);
        return a == null ? List.of() : a.nodes();
    }

    /** The texts of the rows the scene shows. */
    private static Set<String> rows(final AccessibilitySnapshot s, final String bus) {
        return nodes(s, bus).stream().filter(AtspiScrolledListTest::isRow).map(AccessibilityNode::text)
            .collect(Collectors.toSet());
    }
}
