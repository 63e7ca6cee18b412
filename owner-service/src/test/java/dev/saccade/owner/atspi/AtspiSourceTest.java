package dev.saccade.owner.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.owner.source.TargetIds;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.testdesktop.AppHandle;
import dev.saccade.testdesktop.DemoApp;
import dev.saccade.testdesktop.TestDesktop;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.SnapshotQueue;
import java.io.File;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The source against a real AT-SPI2 registry and real applications: gtk3-demo (at-spi2-atk,
 * Collection), the Qt 5 calculator (no Collection: walked) and a zenity entry, checked against
 * what xwininfo reports and what the applications do.
 */
@WithTestDesktop(apps = {DemoApp.GTK3_DEMO, DemoApp.QT_CALCULATOR, DemoApp.ZENITY_ENTRY})
class AtspiSourceTest {
    private static final Duration WAIT = Duration.ofSeconds(15);

    private static DesktopTools tools;
    private static AppHandle demo;
    private static AppHandle calculator;
    private static AppHandle entry;

    @BeforeAll
    static void findApps(final TestDesktop desktop) {
        tools = new DesktopTools(desktop);
        demo = tools.app(DemoApp.GTK3_DEMO);
        calculator = tools.app(DemoApp.QT_CALCULATOR);
        entry = tools.app(DemoApp.ZENITY_ENTRY);
    }

    private static AtspiSource start(final TestDesktop desktop, final SnapshotQueue<AccessibilitySnapshot> snapshots) {
        return start(new AtspiSourceContext().sessionBusAddress(desktop.sessionBusAddress()), snapshots);
    }

    private static AtspiSource start(final AtspiSourceContext context, final SnapshotQueue<AccessibilitySnapshot> snapshots) {
        final AtspiSource source = new AtspiSource(context, snapshots);
        source.start();
        return source;
    }

    /** Waits for a snapshot in which all three demo apps have complete trees. */
    private static AccessibilitySnapshot awaitApps(final SnapshotQueue<AccessibilitySnapshot> snapshots) throws InterruptedException {
        return snapshots.awaitNewestFirst(s -> hasTree(s, demo) && hasTree(s, calculator) && hasTree(s, entry), WAIT,
            "gtk3-demo, the calculator and the zenity entry");
    }

    private static boolean hasTree(final AccessibilitySnapshot s, final AppHandle app) {
        final AccessibleApplication a = s.application(app.accessibleBusName());
        return a != null && a.complete() && !a.nodes().isEmpty();
    }

    private static List<AccessibilityNode> nodes(final AccessibilitySnapshot s, final AppHandle app) {
        final AccessibleApplication a = s.application(app.accessibleBusName());
        assertNotNull(a, app + " in " + s);
        return a.nodes();
    }

    @Test
    @Timeout(60)
    void gtkDemoButtonsHaveNamesAndScreenBoundsInsideItsXWindow(final TestDesktop desktop) throws Exception {
        final SnapshotQueue<AccessibilitySnapshot> snapshots = new SnapshotQueue<>();
        try (AtspiSource source = start(desktop, snapshots)) {
            final AccessibilitySnapshot s = awaitApps(snapshots);
            final int[] window = tools.absoluteBounds(demo.windowId());
            int buttons = 0;
            for (final AccessibilityNode n : nodes(s, demo)) {
                if (n.role() != Role.BUTTON || n.hasFlag(TargetFlag.OCCLUDED)) {
                    continue;
                }
                buttons++;
                assertFalse(n.text().isEmpty(), "a named button: " + n);
                assertTrue(n.width() > 0 && n.height() > 0, "has an area: " + n);
                assertTrue(n.x() >= window[0] && n.y() >= window[1] && n.x() + n.width() <= window[0] + window[2]
                    && n.y() + n.height() <= window[1] + window[3],
                    n + " inside the X window " + window[0] + "," + window[1] + " " + window[2] + "x" + window[3]);
                assertTrue(n.hasCapability(TargetCapability.INVOKE | TargetCapability.CLICK), "invocable: " + n);
                assertTrue(n.hasFlag(TargetFlag.ACTIONABLE), "actionable: " + n);
                assertEquals(demo.pid(), n.pid(), "pid from the bus daemon");
            }
            assertTrue(buttons >= 3, "gtk3-demo shows Run and its title bar buttons; found " + buttons);
            assertEquals(1, s.find(n -> n.role() == Role.WINDOW && n.busName().equals(demo.accessibleBusName())
                && n.parentId() == 0).size(), "one top-level window, parented to nothing");
        }
    }

    @Test
    @Timeout(60)
    void consecutiveRefreshesKeepEveryTargetId(final TestDesktop desktop) throws Exception {
        final SnapshotQueue<AccessibilitySnapshot> snapshots = new SnapshotQueue<>();
        try (AtspiSource source = start(desktop, snapshots)) {
            awaitApps(snapshots);
            final AccessibilitySnapshot first = source.requestRefresh().get(10, TimeUnit.SECONDS);
            final AccessibilitySnapshot second = source.requestRefresh().get(10, TimeUnit.SECONDS);
            final Map<String, Long> firstIds = ids(nodes(first, demo));
            final Map<String, Long> secondIds = ids(nodes(second, demo));
            assertTrue(firstIds.size() > 100, "gtk3-demo has about 190 nodes: " + firstIds.size());
            assertEquals(firstIds, secondIds, "object path -> target id, both refreshes");
            final Set<Long> unique = new HashSet<>();
            for (final AccessibilityNode n : first.nodes()) {
                assertEquals(TargetIds.namespace(TargetIds.ACCESSIBILITY_NAMESPACE), TargetIds.namespace(n.targetId()), n.toString());
                assertNotEquals(0, n.targetId());
                assertTrue(unique.add(n.targetId()), "unique id: " + n);
            }
            for (final AccessibilityNode n : first.nodes()) {
                assertTrue(n.parentId() == 0 || unique.contains(n.parentId()), "parent is a node of the snapshot: " + n);
            }
        }
    }

    private static Map<String, Long> ids(final List<AccessibilityNode> nodes) {
        final Map<String, Long> ids = new HashMap<>();
        for (final AccessibilityNode n : nodes) {
            ids.put(n.objectPath(), n.targetId());
        }
        return ids;
    }

    @Test
    @Timeout(60)
    void exactTextRunFindsExactlyTheRunButton(final TestDesktop desktop) throws Exception {
        final SnapshotQueue<AccessibilitySnapshot> snapshots = new SnapshotQueue<>();
        try (AtspiSource source = start(desktop, snapshots)) {
            final AccessibilitySnapshot s = awaitApps(snapshots);
            final List<AccessibilityNode> run = s.find(n -> n.text().equals("Run"));
            assertEquals(1, run.size(), "exactly one \"Run\": " + run);
            assertEquals(Role.BUTTON, run.get(0).role());
            assertEquals(demo.accessibleBusName(), run.get(0).busName());
        }
    }

    @Test
    @Timeout(90)
    void qtCalculatorShowsTwelveAfterInvokingSevenPlusFiveEquals(final TestDesktop desktop) throws Exception {
        final SnapshotQueue<AccessibilitySnapshot> snapshots = new SnapshotQueue<>();
        try (AtspiSource source = start(desktop, snapshots)) {
            final AccessibilitySnapshot s = awaitApps(snapshots);
            final AccessibleApplication calc = s.application(calculator.accessibleBusName());
            assertFalse(calc.collection(), "Qt 5 has no Collection: walked");
            for (final String digit : List.of("0", "1", "2", "3", "4", "5", "6", "7", "8", "9")) {
                assertEquals(1, button(calc, digit) == null ? 0 : 1, "digit button " + digit);
            }
            for (final String label : List.of("Clear All", "7", "+", "5", "=")) {
                final int result = source.invoke(button(calc, label), System.nanoTime() + TimeUnit.SECONDS.toNanos(5))
                    .get(10, TimeUnit.SECONDS);
                assertEquals(ResultCode.PLATFORM_OK, result, "invoke " + label);
            }
            final AccessibilitySnapshot after = snapshots.awaitNewestFirst(x -> "12".equals(display(x)), WAIT, "the display reading 12");
            assertEquals("12", display(after));
        }
    }

    private static AccessibilityNode button(final AccessibleApplication app, final String label) {
        for (final AccessibilityNode n : app.nodes()) {
            if (n.role() == Role.BUTTON && n.text().equals(label)) {
                return n;
            }
        }
        return null;
    }

    /** The calculator's display: its only text node (a line edit). */
    private static String display(final AccessibilitySnapshot s) {
        final AccessibleApplication calc = s.application(calculator.accessibleBusName());
        if (calc == null) {
            return null;
        }
        for (final AccessibilityNode n : calc.nodes()) {
            if (n.role() == Role.TEXT_FIELD || n.role() == Role.TEXT) {
                return n.text();
            }
        }
        return null;
    }

    @Test
    @Timeout(60)
    void invokeOfAVanishedObjectAnswersNotFound(final TestDesktop desktop) throws Exception {
        final SnapshotQueue<AccessibilitySnapshot> snapshots = new SnapshotQueue<>();
        try (AtspiSource source = start(desktop, snapshots)) {
            awaitApps(snapshots);
            final int result = source.invoke(demo.accessibleBusName(), "/org/a11y/atspi/accessible/999999", 0,
                System.nanoTime() + TimeUnit.SECONDS.toNanos(5)).get(10, TimeUnit.SECONDS);
            assertEquals(ResultCode.PLATFORM_NOT_FOUND, result);
            final int expired = source.invoke(demo.accessibleBusName(), "/org/a11y/atspi/accessible/1", 0,
                System.nanoTime() - 1).get(10, TimeUnit.SECONDS);
            assertEquals(ResultCode.PLATFORM_TIMEOUT, expired, "a deadline already past");
        }
    }

    @Test
    @Timeout(60)
    void typingIntoTheZenityEntryRefreshesItWithoutARequest(final TestDesktop desktop) throws Exception {
        final SnapshotQueue<AccessibilitySnapshot> snapshots = new SnapshotQueue<>();
        try (AtspiSource source = start(desktop, snapshots)) {
            awaitApps(snapshots);
            tools.run("xdotool", "windowactivate", "--sync", Long.toString(entry.windowId()));
            tools.run("xdotool", "type", "--delay", "20", "hello");
            // No requestRefresh: the entry's text-changed events must bring it.
            final AccessibilitySnapshot s = snapshots.awaitNewestFirst(x -> fieldText(x, entry).equals("hello"), WAIT,
                "the entry reading hello");
            assertEquals("hello", fieldText(s, entry));
        }
    }

    private static String fieldText(final AccessibilitySnapshot s, final AppHandle app) {
        final AccessibleApplication a = s.application(app.accessibleBusName());
        if (a != null) {
            for (final AccessibilityNode n : a.nodes()) {
                if (n.role() == Role.TEXT_FIELD) {
                    return n.text();
                }
            }
        }
        return "";
    }

    @Test
    @Timeout(90)
    void zenityPasswordFieldIsSecureRedactedAndItsContentNeverRead(final TestDesktop desktop) throws Exception {
        final SnapshotQueue<AccessibilitySnapshot> snapshots = new SnapshotQueue<>();
        final String secret = "hunter2secret";
        final Process zenity = desktop.configure(new ProcessBuilder("zenity", "--password", "--title=Saccade password"))
            .redirectErrorStream(true).redirectOutput(new File(desktop.logDir().toFile(), "zenity-password.log")).start();
        try (AtspiSource source = start(desktop, snapshots)) {
            final AccessibilitySnapshot s = snapshots.awaitNewestFirst(x -> !x.find(n -> n.hasFlag(TargetFlag.SECURE)).isEmpty(),
                WAIT, "a SECURE node (zenity --password registered)");
            final AccessibilityNode field = s.find(n -> n.hasFlag(TargetFlag.SECURE)).get(0);
            assertEquals(zenity.pid(), field.pid());
            // Type the secret into the field (zenity prints it on OK, which proves it got there),
            // then refresh: the text stays redacted.
            tools.run("xdotool", "search", "--sync", "--name", "Saccade password", "windowactivate", "--sync");
            tools.run("xdotool", "type", "--delay", "20", secret);
            final AccessibilitySnapshot after = source.requestRefresh().get(10, TimeUnit.SECONDS);
            final AccessibilityNode again = after.find(n -> n.targetId() == field.targetId()).get(0);
            assertEquals(Role.TEXT_FIELD, again.role());
            assertTrue(again.hasFlag(TargetFlag.SECURE) && again.hasFlag(TargetFlag.TEXT_REDACTED), again.toString());
            assertEquals("", again.text(), "no password text");
            assertTrue(after.find(n -> n.text().contains(secret) || n.name().contains(secret)).isEmpty(),
                "the secret appears nowhere");
            assertEquals("", source.readText(again, System.nanoTime() + TimeUnit.SECONDS.toNanos(5)).get(10, TimeUnit.SECONDS),
                "readText refuses a secure node");
            assertEquals(ResultCode.PLATFORM_PERMISSION,
                source.invoke(again, System.nanoTime() + TimeUnit.SECONDS.toNanos(5)).get(10, TimeUnit.SECONDS),
                "no semantic press of a password field");
            tools.run("xdotool", "key", "Return");
            assertTrue(zenity.waitFor(10, TimeUnit.SECONDS), "zenity --password closed on Return");
            assertTrue(Files.readString(desktop.logDir().resolve("zenity-password.log")).contains(secret),
                "the secret did reach the field");
        } finally {
            zenity.destroy();
            if (!zenity.waitFor(5, TimeUnit.SECONDS)) {
                zenity.destroyForcibly();
            }
        }
    }

    @Test
    @Timeout(60)
    void tinyNodeBudgetCutsEachAppAtTheBudgetAndMarksItIncomplete(final TestDesktop desktop) throws Exception {
        final SnapshotQueue<AccessibilitySnapshot> snapshots = new SnapshotQueue<>();
        final int budget = 20;
        try (AtspiSource source = start(new AtspiSourceContext().sessionBusAddress(desktop.sessionBusAddress())
            .maxNodesPerApp(budget), snapshots)) {
            final AccessibilitySnapshot s = snapshots.awaitNewestFirst(x -> x.application(demo.accessibleBusName()) != null
                && x.application(calculator.accessibleBusName()) != null && hasTree(x, entry), WAIT, "all three apps");
            assertTrue(s.incomplete(), "budget hit: snapshot incomplete");
            final AccessibleApplication gtk = s.application(demo.accessibleBusName());
            assertEquals(budget, gtk.nodes().size(), "gtk3-demo: the first 20 in canonical order");
            assertFalse(gtk.complete());
            assertTrue(gtk.error().contains("budget"), gtk.error());
            final AccessibleApplication calc = s.application(calculator.accessibleBusName());
            assertEquals(budget, calc.nodes().size(), "the calculator's 29 nodes cut too (walked)");
            assertFalse(calc.complete());
            final AccessibleApplication zenity = s.application(entry.accessibleBusName());
            assertTrue(zenity.complete(), "the zenity entry has fewer than 20 nodes");
            assertTrue(zenity.nodes().size() < budget && zenity.nodes().size() > 5, zenity.toString());
            // Canonical order: the cut keeps the window and what comes first under it.
            assertEquals(Role.WINDOW, gtk.nodes().get(0).role());
        }
    }

    @Test
    @Timeout(60)
    void peerToPeerRefreshReadsWhatTheBusReads(final TestDesktop desktop) throws Exception {
        final SnapshotQueue<AccessibilitySnapshot> viaPeer = new SnapshotQueue<>();
        final SnapshotQueue<AccessibilitySnapshot> viaBus = new SnapshotQueue<>();
        try (AtspiSource peer = start(desktop, viaPeer);
             AtspiSource bus = start(new AtspiSourceContext().sessionBusAddress(desktop.sessionBusAddress())
                 .peerToPeer(false), viaBus)) {
            awaitApps(viaPeer);
            awaitApps(viaBus);
            // The first refresh of an app goes over the bus and opens the peer connection.
            final long deadlineNs = System.nanoTime() + WAIT.toNanos();
            while (!usesPeer(peer, demo) && System.nanoTime() - deadlineNs < 0) {
                peer.requestRefresh().get(10, TimeUnit.SECONDS);
            }
            assertTrue(usesPeer(peer, demo), "gtk3-demo over its own server: " + peer.diagnostics());
            assertFalse(usesPeer(peer, calculator), "Qt stays on the bus");
            assertFalse(usesPeer(bus, demo), "peer-to-peer off");
            final AccessibilitySnapshot p = peer.requestRefresh().get(10, TimeUnit.SECONDS);
            final AccessibilitySnapshot b = bus.requestRefresh().get(10, TimeUnit.SECONDS);
            final List<AccessibilityNode> peerNodes = nodes(p, demo);
            final List<AccessibilityNode> busNodes = nodes(b, demo);
            assertTrue(peerNodes.size() > 100);
            assertEquals(busNodes, peerNodes, "same nodes, same order, same ids, bounds, flags and text");
        }
    }

    private static boolean usesPeer(final AtspiSource source, final AppHandle app) {
        for (final AtspiDiagnostics.App a : source.diagnostics().applications()) {
            if (a.busName().equals(app.accessibleBusName())) {
                return a.peerToPeer();
            }
        }
        return false;
    }

    @Test
    @Timeout(60)
    void closeStopsEveryThreadTheSourceStarted(final TestDesktop desktop) throws Exception {
        final Set<Thread> before = Thread.getAllStackTraces().keySet();
        final SnapshotQueue<AccessibilitySnapshot> snapshots = new SnapshotQueue<>();
        final AtspiSource source = start(desktop, snapshots);
        awaitApps(snapshots);
        source.requestRefresh().get(10, TimeUnit.SECONDS);
        source.requestRefresh().get(10, TimeUnit.SECONDS);
        source.close();
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Set<String> left;
        do {
            left = new HashSet<>();
            for (final Thread t : Thread.getAllStackTraces().keySet()) {
                // The JDK's CompletableFuture delayer is shared and not ours.
                if (!before.contains(t) && t.isAlive() && !t.getName().startsWith("CompletableFutureDelayScheduler")) {
                    left.add(t.getName());
                }
            }
            if (left.isEmpty()) {
                break;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        } while (System.nanoTime() - deadlineNs < 0);
        assertEquals(Set.of(), left, "threads still running after close");
    }

    @Test
    @Timeout(60)
    void diagnosticsTellCollectionFromWalkedApps(final TestDesktop desktop) throws Exception {
        final SnapshotQueue<AccessibilitySnapshot> snapshots = new SnapshotQueue<>();
        try (AtspiSource source = start(desktop, snapshots)) {
            awaitApps(snapshots);
            final AtspiDiagnostics d = source.diagnostics();
            assertTrue(d.connected());
            assertNotNull(d.busAddress());
            final Map<String, AtspiDiagnostics.App> apps = new HashMap<>();
            for (final AtspiDiagnostics.App app : d.applications()) {
                apps.put(app.busName(), app);
            }
            final AtspiDiagnostics.App gtk = apps.get(demo.accessibleBusName());
            assertTrue(gtk.collection() && gtk.complete() && gtk.nodeCount() > 100, gtk.toString());
            assertEquals("gtk3-demo", gtk.name());
            assertEquals(demo.pid(), gtk.pid());
            final AtspiDiagnostics.App calc = apps.get(calculator.accessibleBusName());
            assertFalse(calc.collection(), calc.toString());
            assertTrue(calc.nodeCount() > 20, calc.toString());
        }
    }
}
