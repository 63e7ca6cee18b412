package dev.saccade.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.desktop.AccessibilitySnapshot;
import dev.saccade.desktop.AccessibleApplication;
import dev.saccade.desktop.TargetIds;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetState;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import dev.saccade.testsupport.SnapshotQueue;
import java.io.File;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The source against a real AT-SPI2 registry and real applications: gtk3-demo (at-spi2-atk,
 * Collection), the Qt 5 calculator (no Collection: walked) and a zenity entry, checked against
 * what xwininfo reports and what the applications do; and what the scene shows of their trees
 * (§5.13): each read twice, collapsed (the default) and in full, the collapsed tree checked
 * against the full one object by object.
 */
@WithTestDesktop(apps = {DemoApp.GTK3_DEMO, DemoApp.QT_CALCULATOR, DemoApp.ZENITY_ENTRY})
class AtspiSourceTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

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

    /** A source that publishes every object it reads (collapsing off): for tests about the whole tree. */
    private static AtspiSource startFull(final TestDesktop desktop, final SnapshotQueue<AccessibilitySnapshot> snapshots) {
        return start(new AtspiSourceContext().sessionBusAddress(desktop.sessionBusAddress()).collapse(false), snapshots);
    }

    private static AtspiSource start(final AtspiSourceContext context, final SnapshotQueue<AccessibilitySnapshot> snapshots) {
        final AtspiSource source = new AtspiSource(context, snapshots);
        source.start();
        return source;
    }

    /**
     * Waits for a snapshot in which all three demo apps have complete trees, asking for a refresh
     * while there is none: under load an application's first refresh can miss its deadline, and
     * the source reads it again only on its next event.
     */
    private static AccessibilitySnapshot awaitApps(final AtspiSource source)
        throws Exception {
        return refreshUntil(source, s -> hasTree(s, demo) && hasTree(s, calculator) && hasTree(s, entry),
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
            final AccessibilitySnapshot s = awaitApps(source);
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
        try (AtspiSource source = startFull(desktop, snapshots)) {
            awaitApps(source);
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
            final AccessibilitySnapshot s = awaitApps(source);
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
            final AccessibilitySnapshot s = awaitApps(source);
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
            awaitApps(source);
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
            awaitApps(source);
            tools.run("xdotool", "windowactivate", "--sync", Long.toString(entry.windowId()));
            tools.run("xdotool", "type", "--delay", "20", "hello");
            // No requestRefresh: the entry's text-changed events must bring it.
            final AccessibilitySnapshot s = snapshots.awaitNewestFirst(x -> fieldText(x, entry).equals("hello"), WAIT,
                "the entry reading hello");
            assertEquals("hello", fieldText(s, entry));
        }
    }

    static String fieldText(final AccessibilitySnapshot s, final AppHandle app) {
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
        final AtspiSource source = start(new AtspiSourceContext().sessionBusAddress(desktop.sessionBusAddress())
            .maxNodesPerApp(budget).collapse(false), snapshots);
        try (source) {
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
        try (AtspiSource peer = startFull(desktop, viaPeer);
             AtspiSource bus = start(new AtspiSourceContext().sessionBusAddress(desktop.sessionBusAddress())
                 .peerToPeer(false).collapse(false), viaBus)) {
            awaitApps(peer);
            awaitApps(bus);
            // The first refresh of an app goes over the bus and opens the peer connection.
            Await.probe(() -> {
                if (!usesPeer(peer, demo)) {
                    peer.requestRefresh().get(10, TimeUnit.SECONDS);
                }
                return usesPeer(peer, demo);
            }, Boolean::booleanValue, WAIT, used -> "gtk3-demo over its own server; last: " + peer.diagnostics());
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
        awaitApps(source);
        source.requestRefresh().get(10, TimeUnit.SECONDS);
        source.requestRefresh().get(10, TimeUnit.SECONDS);
        source.close();
        Await.value(() -> {
            final Set<String> left = new HashSet<>();
            for (final Thread t : Thread.getAllStackTraces().keySet()) {
                // The JDK's CompletableFuture delayer is shared and not ours.
                if (!before.contains(t) && t.isAlive() && !t.getName().startsWith("CompletableFutureDelayScheduler")) {
                    left.add(t.getName());
                }
            }
            return left;
        }, Set::isEmpty, Duration.ofSeconds(10), Duration.ofMillis(20), left -> "no thread left after close; still " + left);
    }

    @Test
    @Timeout(60)
    void diagnosticsTellCollectionFromWalkedApps(final TestDesktop desktop) throws Exception {
        final SnapshotQueue<AccessibilitySnapshot> snapshots = new SnapshotQueue<>();
        try (AtspiSource source = start(desktop, snapshots)) {
            awaitApps(source);
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

    // ---------------------------------------------------------------- what the scene shows (§5.13)

    /** Refreshes until {@code condition} holds (an application's first refresh may time out under load). */
    static AccessibilitySnapshot refreshUntil(final AtspiSource source, final Predicate<AccessibilitySnapshot> condition,
        final String what) throws Exception {
        return refreshUntil(source.latest(), source, condition, what);
    }

    /** As {@link #refreshUntil(AtspiSource, Predicate, String)}, starting from {@code first}. */
    static AccessibilitySnapshot refreshUntil(final AccessibilitySnapshot first, final AtspiSource source,
        final Predicate<AccessibilitySnapshot> condition, final String what) throws Exception {
        if (first != null && condition.test(first)) {
            return first;
        }
        return Await.probe(() -> source.requestRefresh().get(10, TimeUnit.SECONDS), s -> s != null && condition.test(s),
            WAIT, s -> "a snapshot with " + what + "; last: " + s + "\n" + source.diagnostics());
    }

    /** A node a model must be able to find: on screen (the full tree's view) and named or actionable. */
    private static boolean mustSurvive(final AccessibilityNode n, final Map<Long, AccessibilityNode> byId) {
        if (n.hasFlag(TargetFlag.OCCLUDED) || !onScreenChain(n, byId)) {
            return false;
        }
        return !n.name().isEmpty() || !n.text().isEmpty() || n.hasFlag(TargetFlag.ACTIONABLE);
    }

    /** A kept descendant of {@code n} (in the full tree) offers every capability {@code n} has. */
    private static boolean offeredBelow(final AccessibilityNode n, final List<AccessibilityNode> kept,
        final Map<Long, AccessibilityNode> byId) {
        for (final AccessibilityNode k : kept) {
            if ((n.capabilities() & ~k.capabilities()) != 0) {
                continue;
            }
            for (AccessibilityNode at = byId.get(byId.get(k.targetId()).parentId()); at != null; at = byId.get(at.parentId())) {
                if (at.targetId() == n.targetId()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The node and all its ancestors are shown (an OCCLUDED ancestor hides it). */
    private static boolean onScreenChain(final AccessibilityNode n, final Map<Long, AccessibilityNode> byId) {
        for (AccessibilityNode at = n; at != null; at = byId.get(at.parentId())) {
            if (at.hasFlag(TargetFlag.OCCLUDED)) {
                return false;
            }
        }
        return true;
    }

    @Test
    @Timeout(90)
    void collapsedTreesKeepEveryNamedOrActionableShownControlAndFitTheBudget(final TestDesktop desktop)
        throws Exception {
        final SnapshotQueue<AccessibilitySnapshot> collapsedQ = new SnapshotQueue<>();
        final SnapshotQueue<AccessibilitySnapshot> fullQ = new SnapshotQueue<>();
        try (AtspiSource collapsed = start(desktop, collapsedQ); AtspiSource full = startFull(desktop, fullQ)) {
            final Predicate<AccessibilitySnapshot> all = x -> hasTree(x, demo) && hasTree(x, calculator) && hasTree(x, entry);
            refreshUntil(collapsed, all, "three complete trees");
            refreshUntil(full, all, "three complete trees");
            // Both read the same moment: a refresh each, after both are up.
            final AccessibilitySnapshot c = refreshUntil(collapsed, all, "three complete trees");
            final AccessibilitySnapshot f = refreshUntil(full, all, "three complete trees");
            final StringBuilder report = new StringBuilder("targets (full tree -> scene):");
            for (final AppHandle app : List.of(demo, calculator, entry)) {
                final List<AccessibilityNode> fullNodes = nodes(f, app);
                final List<AccessibilityNode> kept = nodes(c, app);
                report.append(' ').append(app.app()).append(' ').append(fullNodes.size()).append(" -> ").append(kept.size());
                final Map<Long, AccessibilityNode> fullById = new HashMap<>();
                for (final AccessibilityNode n : fullNodes) {
                    fullById.put(n.targetId(), n);
                }
                final Map<Long, AccessibilityNode> keptById = new HashMap<>();
                for (final AccessibilityNode n : kept) {
                    keptById.put(n.targetId(), n);
                }
                final List<String> lost = new ArrayList<>();
                for (final AccessibilityNode n : fullNodes) {
                    final AccessibilityNode keptParent = keptById.get(n.parentId());
                    final boolean absorbed = keptParent != null && keptParent.text().equals(n.text())
                        && (n.capabilities() & ~keptParent.capabilities()) == 0;
                    if (mustSurvive(n, fullById) && !keptById.containsKey(n.targetId()) && !absorbed
                        && !(n.name().isEmpty() && n.text().isEmpty() && offeredBelow(n, kept, fullById))) {
                        lost.add(n.toString());
                    }
                }
                assertEquals(List.of(), lost, app + ": named or actionable controls the scene lost");
                for (final AccessibilityNode n : kept) {
                    final AccessibilityNode original = fullById.get(n.targetId());
                    assertNotNull(original, "a kept node is a node of the full tree, same id: " + n);
                    assertFalse(n.hasFlag(TargetFlag.OCCLUDED) && n.width() > 0, "nothing hidden is kept: " + n);
                    // Re-parented to the nearest kept ancestor of the full tree.
                    long expected = original.parentId();
                    while (expected != 0 && !keptById.containsKey(expected)) {
                        expected = fullById.get(expected).parentId();
                    }
                    assertEquals(expected, n.parentId(), "nearest kept ancestor of " + n);
                    assertTrue(!n.name().isEmpty() || !n.text().isEmpty() || n.capabilities() != 0
                        || n.role() == Role.WINDOW || n.role() == Role.DIALOG || n.role() >= Role.LIST_ITEM,
                        "no empty layout container is kept: " + n);
                    assertFalse(n.name().isEmpty() && n.text().isEmpty() && kept.stream()
                        .filter(k -> k.parentId() == n.targetId()).count() == 1 && kept.stream()
                        .filter(k -> k.parentId() == n.targetId()).allMatch(k -> (n.capabilities() & ~k.capabilities()) == 0
                            && kept.stream().noneMatch(g -> g.parentId() == k.targetId())),
                        "no nameless wrapper of a single leaf that offers as much: " + n);
                }
            }
            System.out.println(report);
            assertTrue(nodes(c, demo).size() < nodes(f, demo).size() / 2, report.toString());
            final int gtkTargets = nodes(c, demo).size() + 1; // and the X11 window target
            assertTrue(gtkTargets <= 64, "gtk3-demo's main window in at most 64 targets: " + gtkTargets + "\n"
                + String.join("\n", nodes(c, demo).stream().map(Object::toString).toList()));
            assertFalse(c.incomplete(), "untruncated: " + c);
        }
    }

    @Test
    @Timeout(90)
    void rolesStatesAndCapabilitiesMatchTheControls(final TestDesktop desktop) throws Exception {
        final SnapshotQueue<AccessibilitySnapshot> q = new SnapshotQueue<>();
        final Process scale = desktop.configure(new ProcessBuilder("zenity", "--scale", "--title=Saccade scale",
            "--value=30")).redirectErrorStream(true).redirectOutput(new File(desktop.logDir().toFile(), "zenity-scale.log"))
            .start();
        try (AtspiSource source = start(desktop, q)) {
            final AccessibilitySnapshot s = refreshUntil(source, x -> hasTree(x, demo) && hasTree(x, calculator)
                && hasTree(x, entry) && !x.find(n -> n.role() == Role.SLIDER && n.pid() == scale.pid()).isEmpty(),
                "gtk3-demo, the calculator, the entry and the scale");
            final List<AccessibilityNode> gtk = nodes(s, demo);
            // gtk3-demo: the notebook's two page tabs, one of them the current page.
            final List<AccessibilityNode> tabs = gtk.stream().filter(n -> n.role() == Role.TAB).toList();
            assertEquals(List.of("Info", "Source"), tabs.stream().limit(2).map(AccessibilityNode::text).toList(), tabs.toString());
            for (final AccessibilityNode tab : tabs) {
                assertTrue(tab.hasCapability(TargetCapability.CLICK) && tab.hasFlag(TargetFlag.ACTIONABLE), "a clickable tab: " + tab);
            }
            assertEquals(1, tabs.stream().filter(t -> t.hasState(TargetState.SELECTED)).count(), "one current tab: " + tabs);
            // The demo list: rows are table cells or tree items, one selected; the list pane scrolls.
            final List<AccessibilityNode> rows = gtk.stream()
                .filter(n -> n.role() == Role.TABLE_CELL || n.role() == Role.TREE_ITEM).toList();
            assertTrue(rows.size() > 5, "demo rows: " + rows);
            assertTrue(rows.stream().anyMatch(r -> r.hasState(TargetState.SELECTED)), "a selected demo row: " + rows);
            assertTrue(rows.stream().anyMatch(r -> r.hasState(TargetState.EXPANDABLE)), "a row with children: " + rows);
            assertTrue(gtk.stream().anyMatch(n -> n.role() == Role.SCROLL_PANE && n.hasCapability(TargetCapability.SCROLL)),
                "a scrollable pane: " + gtk);
            assertTrue(gtk.stream().noneMatch(n -> n.role() == Role.PROGRESS_BAR && n.hasCapability(TargetCapability.SCROLL)),
                "a progress bar does not scroll");
            // The zenity scale: a slider that scrolls and can be dragged.
            final AccessibilityNode slider = s.find(n -> n.role() == Role.SLIDER && n.pid() == scale.pid()).get(0);
            assertTrue(slider.hasCapability(TargetCapability.SCROLL | TargetCapability.DRAG_SOURCE), slider.toString());
            assertTrue((slider.capabilities() & TargetCapability.DRAG_SOURCE) != 0, slider.toString());
            // The zenity entry: an editable, focused text field that takes dropped text.
            final AccessibilityNode field = nodes(s, entry).stream().filter(n -> n.role() == Role.TEXT_FIELD).findFirst()
                .orElseThrow();
            assertTrue(field.hasState(TargetState.EDITABLE) && !field.hasState(TargetState.READ_ONLY), field.toString());
            assertTrue(field.hasCapability(TargetCapability.DROP_TARGET) && field.hasCapability(TargetCapability.TEXT),
                field.toString());
            // The calculator (walked, Qt): its display is a read-only line edit; buttons stay buttons.
            final List<AccessibilityNode> calc = nodes(s, calculator);
            assertTrue(calc.stream().filter(n -> n.role() == Role.BUTTON).count() >= 20, calc.toString());
            final AccessibilityNode display = calc.stream().filter(n -> n.role() == Role.TEXT || n.role() == Role.TEXT_FIELD)
                .findFirst().orElseThrow();
            assertTrue(display.hasState(TargetState.READ_ONLY), "the calculator's display is read-only: " + display);
            assertFalse(display.hasCapability(TargetCapability.DROP_TARGET), display.toString());
        } finally {
            scale.destroy();
            if (!scale.waitFor(5, TimeUnit.SECONDS)) {
                scale.destroyForcibly();
            }
        }
    }
}
