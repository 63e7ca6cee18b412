package dev.saccade.pcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.desktop.TargetIds;
import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.owner.DesktopService;
import dev.saccade.owner.WithDesktopService;
import dev.saccade.pcp.JsonTree;
import dev.saccade.pcp.PcpClient;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * PCP on a real desktop (Xvfb, openbox, AT-SPI2, gtk3-demo, the Qt calculator) through the
 * owner's real PCP socket: query.surface and query.elements match what the agent protocol
 * observes, invoke.action activates a gtk3-demo button through the agent action path (no input
 * helper here: the accessible action does it), and focusing another window pushes
 * surface.focus_changed to a subscriber.
 */
@WithTestDesktop(apps = {DemoApp.GTK3_DEMO, DemoApp.QT_CALCULATOR, DemoApp.ZENITY_ENTRY})
// The owner with its input helper, as `saccade owner run` starts it: every PCP action is a batch.
@WithDesktopService(inputHelper = true)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PcpDesktopTest {
    private TestDesktop desktop;
    private DesktopService d;
    private OwnerPcp pcp;
    private Path pcpSocket;

    @BeforeAll
    void startService(final TestDesktop testDesktop, final DesktopService service) throws Exception {
        desktop = testDesktop;
        d = service;
        // PCP beside the owner, as `saccade owner run` starts it: wait until its socket answers.
        pcp = OwnerPcp.start(d.runtime, d.service.endpoint(), desktop.display());
        pcpSocket = awaitPcp(d.runtime);
    }

    /** The PCP socket in {@code runtime}, once it answers health.check (PCP binds on its own thread). */
    static Path awaitPcp(final Path runtime) throws Exception {
        final Path socket = runtime.resolve(RuntimeDirectory.PCP_SOCKET_NAME);
        return Await.retrying(() -> {
            try (PcpClient probe = PcpClient.connect(socket, Duration.ofSeconds(5))) {
                result(call(probe, "health.check", null, null));
                return socket;
            }
        }, java.io.IOException.class, Duration.ofSeconds(30), Duration.ofMillis(20), "PCP answering on " + socket);
    }

    @AfterAll
    void stopService() throws Exception {
        if (pcp != null) {
            pcp.close();
        }
    }

    private AppHandle app(final DemoApp which) {
        for (final AppHandle a : desktop.apps()) {
            if (a.app() == which) {
                return a;
            }
        }
        throw new AssertionError(which + " not running");
    }

    /**
     * One PCP call; a -32018 answer (these tests poll, and PCP rate-limits every connection) is
     * retried after the {@code retry_after_ms} it names.
     */
    static Map<String, Object> call(final PcpClient client, final String method, final Map<String, Object> params,
        final java.util.function.Consumer<Map<String, Object>> other) throws java.io.IOException {
        while (true) {
            final Map<String, Object> response = client.call(method, params, other);
            final Object error = response.get("error");
            if (!(error instanceof Map) || !Long.valueOf(-32018L).equals(((Map<?, ?>) error).get("code"))) {
                return response;
            }
            final long retryMs = (Long) ((Map<?, ?>) ((Map<?, ?>) error).get("data")).get("retry_after_ms");
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(retryMs));
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> result(final Map<String, Object> response) {
        assertTrue(response.containsKey("result"), () -> "expected a result: " + JsonTree.write(response));
        return (Map<String, Object>) response.get("result");
    }

    @Test
    void surfacesAndElementsMatchTheAgentProtocolsObservation() throws Exception {
        final AppHandle gtk = app(DemoApp.GTK3_DEMO);
        final String surfaceId = "surface-" + gtk.windowId();
        // Wait until the agent sees gtk3-demo's buttons, as FusedSceneDesktopTest does.
        d.awaitObserve(o -> { }, c -> DesktopService.count(c, t -> t.role() == Role.BUTTON && t.windowId() == gtk.windowId()) > 0);
        try (PcpClient pcp = PcpClient.connect(pcpSocket, Duration.ofSeconds(30))) {
            final Map<String, Object> context = result(call(pcp, "query.session_context", null, null));
            assertTrue(((String) context.get("session_id")).startsWith("session-"));
            assertTrue(((List<?>) context.get("active_surfaces")).contains(surfaceId), context::toString);
            assertTrue(context.get("system_state") instanceof Map);

            final Map<String, Object> surface = result(call(pcp, "query.surface", JsonTree.object("surface_id", surfaceId), null));
            assertEquals(surfaceId, surface.get("surface_id"));
            assertEquals(desktop.windowTitle(gtk.windowId()), surface.get("title"));
            assertEquals("gtk3-demo", surface.get("app_id"), "the process's name");
            assertEquals(gtk.pid(), surface.get("pid"));
            assertTrue(List.of("focused", "normal", "minimized").contains(surface.get("state")));
            assertTrue(surface.get("tier") instanceof Long);

            // The same generation through both protocols: compare record by record.
            for (int attempt = 0; ; attempt++) {
                final Map<String, Object> elements = result(call(pcp, "query.elements", JsonTree.object("surface_id", surfaceId), null));
                final CompletionFlyweight agent = d.observe(o -> { });
                if (!Long.toUnsignedString(agent.generation().generation()).equals(elements.get("generation")) && attempt < 20) {
                    continue; // a generation was published between the two reads
                }
                final Map<Long, TargetFlyweight> inWindow = new HashMap<>();
                for (int i = 0; i < agent.targetCount(); i++) {
                    final TargetFlyweight t = DesktopService.target(agent, i);
                    if (t.windowId() == gtk.windowId()) {
                        inWindow.put(t.targetId(), t);
                    }
                }
                final List<Map<String, Object>> flat = new ArrayList<>();
                flatten(elements.get("root"), flat);
                assertEquals("el-" + TargetIds.window(gtk.windowId()), flat.get(0).get("id"));
                assertEquals("window", flat.get(0).get("role"));
                final TargetFlyweight windowTarget = inWindow.get(TargetIds.window(gtk.windowId()));
                assertEquals(JsonTree.object("x", (long) windowTarget.boundsXQ8() / RectQ8.ONE, "y",
                    (long) windowTarget.boundsYQ8() / RectQ8.ONE, "w", (long) windowTarget.boundsWidthQ8() / RectQ8.ONE,
                    "h", (long) windowTarget.boundsHeightQ8() / RectQ8.ONE), surface.get("geometry"));
                assertEquals(inWindow.size(), flat.size(), "every target of the window is one element of its tree");
                int buttons = 0;
                for (final Map<String, Object> e : flat) {
                    final TargetFlyweight t = inWindow.get(Long.parseUnsignedLong(((String) e.get("id")).substring(3)));
                    assertNotNull(t, "element " + e.get("id") + " is an agent target of that window");
                    assertEquals(Role.name(t.role()).toLowerCase(java.util.Locale.ROOT), e.get("role"));
                    assertEquals(DesktopService.text(agent, t), e.get("label"));
                    assertEquals((long) t.boundsXQ8() / RectQ8.ONE, ((Map<?, ?>) e.get("bounds")).get("x"));
                    assertEquals((long) t.boundsWidthQ8() / RectQ8.ONE, ((Map<?, ?>) e.get("bounds")).get("w"));
                    if ("button".equals(e.get("role"))) {
                        buttons++;
                        assertTrue(((List<?>) e.get("actions")).contains("activate"), e::toString);
                    }
                }
                assertTrue(buttons > 0);
                // focus_id selects a subtree
                @SuppressWarnings("unchecked") // a JSON object as the tree reader builds it
                final Map<String, Object> child = (Map<String, Object>) ((List<?>) ((Map<?, ?>) elements.get("root"))
                    .get("children")).get(0);
                final Map<String, Object> sub = result(call(pcp, "query.elements", JsonTree.object("surface_id", surfaceId,
                    "focus_id", child.get("id")), null));
                assertEquals(child.get("id"), ((Map<?, ?>) sub.get("root")).get("id"));
                break;
            }
            final Map<String, Object> missing = call(pcp, "query.surface", JsonTree.object("surface_id", "surface-1"), null);
            assertEquals(-32001L, ((Map<?, ?>) missing.get("error")).get("code"));
            final Map<String, Object> noElement = call(pcp, "query.elements", JsonTree.object("surface_id", surfaceId,
                "focus_id", "el-1"), null);
            assertEquals(-32002L, ((Map<?, ?>) noElement.get("error")).get("code"));
            assertEquals("ok", result(call(pcp, "health.check", null, null)).get("status"));
        }
    }

    @SuppressWarnings("unchecked")
    static void flatten(final Object element, final List<Map<String, Object>> out) {
        final Map<String, Object> map = (Map<String, Object>) element;
        out.add(map);
        for (final Object child : (List<Object>) map.get("children")) {
            flatten(child, out);
        }
    }

    @Test
    void activatingTheCalculatorsButtonsThroughPcpComputes() throws Exception {
        final AppHandle calc = app(DemoApp.QT_CALCULATOR);
        d.awaitObserve(o -> { }, c -> DesktopService.count(c, t -> t.role() == Role.BUTTON && t.windowId() == calc.windowId()) >= 10);
        final String surfaceId = "surface-" + calc.windowId();
        try (PcpClient pcp = PcpClient.connect(pcpSocket, Duration.ofSeconds(30))) {
            frontmost(desktop, pcp, surfaceId); // the action path acts on what is not covered by another window
            for (final String key : new String[] {"7", "+", "5", "="}) {
                final String id = elementByLabel(pcp, surfaceId, "button", key);
                final Map<String, Object> done = result(call(pcp, "invoke.action", JsonTree.object("surface_id", surfaceId,
                    "element_id", id, "action", "activate"), null));
                assertEquals(true, done.get("executed"), done::toString);
            }
            // The display's new text may land after the refresh its last click asked for: ask again until it shows.
            Await.probe(() -> {
                d.service.accessibility().requestRefresh().get(10, TimeUnit.SECONDS);
                return d.observe(o -> { });
            }, c -> DesktopService.count(c, t -> t.windowId() == calc.windowId() && t.role() == Role.TEXT
                && "12".equals(DesktopService.text(c, t))) == 1, Duration.ofSeconds(30),
                c -> "the calculator to show 12; last: " + texts(c, calc.windowId()));
            final Map<String, Object> bad = call(pcp, "invoke.action", JsonTree.object("surface_id", surfaceId,
                "element_id", "el-99", "action", "activate"), null);
            assertEquals(-32002L, ((Map<?, ?>) bad.get("error")).get("code"));
            final Map<String, Object> unsupported = call(pcp, "invoke.action", JsonTree.object("surface_id", surfaceId,
                "element_id", elementByLabel(pcp, surfaceId, "button", "7"), "action", "fly"), null);
            assertEquals(-32003L, ((Map<?, ?>) unsupported.get("error")).get("code"));
        }
    }

    @Test
    void activatingAGtkDemoButtonRunsIt() throws Exception {
        final AppHandle gtk = app(DemoApp.GTK3_DEMO);
        final String surfaceId = "surface-" + gtk.windowId();
        d.awaitObserve(o -> { }, c -> DesktopService.count(c, t -> t.role() == Role.BUTTON && t.windowId() == gtk.windowId()) > 0);
        try (PcpClient pcp = PcpClient.connect(pcpSocket, Duration.ofSeconds(30))) {
            frontmost(desktop, pcp, surfaceId);
            final int before = ((List<?>) result(call(pcp, "query.session_context", null, null)).get("active_surfaces")).size();
            final String run = elementByLabel(pcp, surfaceId, "button", "Run");
            final Map<String, Object> done = result(call(pcp, "invoke.action", JsonTree.object("surface_id", surfaceId,
                "element_id", run, "action", "activate"), null));
            assertEquals(true, done.get("executed"));
            // The demo it runs opens a window of its own: one more surface.
            Await.probe(() -> ((List<?>) result(call(pcp, "query.session_context", null, null)).get("active_surfaces")).size(),
                after -> after > before, Duration.ofSeconds(30),
                after -> "gtk3-demo's Run to open a window: " + before + " -> " + after + " surfaces");
        }
    }

    /**
     * select goes through the demo list's AT-SPI Selection: the tree's own SelectChild for the
     * child its value names, then the parent's for the entry itself. gtk3-demo titles its window
     * after the selected demo, so the title shows each selection; the answer's "via": "atspi"
     * comes from the SEMANTIC row flag, so no click did it.
     */
    @Test
    @SuppressWarnings("unchecked")
    void selectChoosesADemoListEntryThroughAtspiSelection() throws Exception {
        final AppHandle gtk = app(DemoApp.GTK3_DEMO);
        final String surfaceId = "surface-" + gtk.windowId();
        d.awaitObserve(o -> { }, c -> DesktopService.count(c, t -> t.role() == Role.BUTTON && t.windowId() == gtk.windowId()) > 0);
        try (PcpClient pcp = PcpClient.connect(pcpSocket, Duration.ofSeconds(30))) {
            frontmost(desktop, pcp, surfaceId);
            final Map<String, Object> root = (Map<String, Object>) result(call(pcp, "query.elements",
                JsonTree.object("surface_id", surfaceId), null)).get("root");
            // GTK 3 tree rows: the tree's child is the row's cell, which holds the text's renderer
            // cell; the scene shows them as one, the row's cell with its text (§5.13).
            final Map<String, Object> list = parentOf(root, c -> "Assistant".equals(c.get("label")));
            assertNotNull(list, "gtk3-demo's demo list holds an entry 'Assistant'");
            final String assistant = childByLabel(list, "Assistant");
            // Within the list: the window's frame bears the selected demo's name too.
            final String application = childByLabel(list, "Application Class");

            // The list itself, its value naming the child (row) to select.
            final Map<String, Object> viaList = result(call(pcp, "invoke.action", JsonTree.object("surface_id", surfaceId,
                "element_id", list.get("id"), "action", "select", "value", assistant), null));
            assertEquals(true, viaList.get("executed"), viaList::toString);
            assertEquals("atspi", ((Map<?, ?>) viaList.get("result")).get("via"), viaList::toString);
            assertEquals("selection", ((Map<?, ?>) viaList.get("result")).get("interface"), viaList::toString);
            assertEquals(assistant, ((Map<?, ?>) viaList.get("result")).get("selected"), viaList::toString);
            awaitTitle(pcp, surfaceId, "Assistant");

            // The entry itself: its parent's Selection with its index there.
            final Map<String, Object> viaEntry = result(call(pcp, "invoke.action", JsonTree.object("surface_id", surfaceId,
                "element_id", application, "action", "select"), null));
            assertEquals("atspi", ((Map<?, ?>) viaEntry.get("result")).get("via"), viaEntry::toString);
            assertEquals(application, ((Map<?, ?>) viaEntry.get("result")).get("selected"), viaEntry::toString);
            awaitTitle(pcp, surfaceId, "Application Class");

            final Map<String, Object> notAChild = call(pcp, "invoke.action", JsonTree.object("surface_id", surfaceId,
                "element_id", list.get("id"), "action", "select", "value", (String) root.get("id")), null);
            assertEquals(-32602L, ((Map<?, ?>) notAChild.get("error")).get("code"), notAChild::toString);
            final Map<String, Object> window = call(pcp, "invoke.action", JsonTree.object("surface_id", surfaceId,
                "element_id", root.get("id"), "action", "select"), null);
            assertEquals(-32003L, ((Map<?, ?>) window.get("error")).get("code"), window::toString);
        }
    }

    /**
     * Brings the surface's window to the front (the window manager, as a user would) and waits
     * until query.surface reports it focused: the action path refuses targets another window
     * covers (agent-abi §5.8 rule F), and a window covered whole is no target to activate either.
     */
    static void frontmost(final TestDesktop desktop, final PcpClient pcp, final String surfaceId) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        Object state = null;
        while (System.nanoTime() < deadline) {
            state = result(call(pcp, "query.surface", JsonTree.object("surface_id", surfaceId), null)).get("state");
            if ("focused".equals(state)) {
                return;
            }
            desktop.configure(new ProcessBuilder("xdotool", "windowactivate", "--sync", surfaceId.substring("surface-".length())))
                .start().waitFor(10, TimeUnit.SECONDS);
        }
        throw new AssertionError(surfaceId + " is still " + state);
    }

    /** Waits until query.surface reports the title (gtk3-demo's selected demo). */
    private static void awaitTitle(final PcpClient pcp, final String surfaceId, final String title) throws Exception {
        Await.probe(() -> result(call(pcp, "query.surface", JsonTree.object("surface_id", surfaceId), null)).get("title"),
            title::equals, Duration.ofSeconds(20),
            now -> "the window's title to become the selected demo '" + title + "'; still '" + now + "'");
    }

    /** The "PCP scale" dialog's surface, slider and OK button as PCP shows them now; null for any not shown yet. */
    private static String[] scaleDialog(final PcpClient pcp) throws java.io.IOException {
        final String[] found = new String[3];
        for (final Object id : (List<?>) result(call(pcp, "query.session_context", null, null)).get("active_surfaces")) {
            final Map<String, Object> s = call(pcp, "query.surface", JsonTree.object("surface_id", id), null);
            if (s.containsKey("result") && "PCP scale".equals(result(s).get("title"))) {
                found[0] = (String) id;
                final Map<String, Object> elements = call(pcp, "query.elements", JsonTree.object("surface_id", id), null);
                if (!elements.containsKey("result")) {
                    continue;
                }
                final List<Map<String, Object>> flat = new ArrayList<>();
                flatten(result(elements).get("root"), flat);
                for (final Map<String, Object> e : flat) {
                    if ("slider".equals(e.get("role"))) {
                        found[1] = (String) e.get("id");
                    }
                    if ("button".equals(e.get("role")) && String.valueOf(e.get("label")).replace("_", "").equals("OK")) {
                        found[2] = (String) e.get("id");
                    }
                }
            }
        }
        return found;
    }

    /** The texts of {@code window}'s TEXT targets in {@code c}, for a failure message. */
    private static List<String> texts(final CompletionFlyweight c, final long window) {
        final List<String> texts = new ArrayList<>();
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = DesktopService.target(c, i);
            if (t.windowId() == window && t.role() == Role.TEXT) {
                texts.add(DesktopService.text(c, t));
            }
        }
        return texts;
    }

    /** The element with a direct child that matches, depth first; null if none. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> parentOf(final Map<String, Object> element,
        final java.util.function.Predicate<Map<?, ?>> child) {
        for (final Object c : (List<Object>) element.get("children")) {
            if (child.test((Map<?, ?>) c)) {
                return element;
            }
            final Map<String, Object> found = parentOf((Map<String, Object>) c, child);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static String childByLabel(final Map<String, Object> parent, final String label) {
        for (final Object child : (List<?>) parent.get("children")) {
            if (label.equals(((Map<?, ?>) child).get("label"))) {
                return (String) ((Map<?, ?>) child).get("id");
            }
        }
        throw new AssertionError("no child '" + label + "' in " + parent.get("id"));
    }

    @Test
    void setValueWritesTheEntryThroughEditableText() throws Exception {
        final AppHandle zenity = app(DemoApp.ZENITY_ENTRY);
        final String surfaceId = "surface-" + zenity.windowId();
        d.awaitObserve(o -> { }, c -> DesktopService.count(c, t -> t.role() == Role.TEXT_FIELD && t.windowId() == zenity.windowId()) > 0);
        try (PcpClient pcp = PcpClient.connect(pcpSocket, Duration.ofSeconds(30))) {
            frontmost(desktop, pcp, surfaceId);
            final Map<String, Object> elements = result(call(pcp, "query.elements", JsonTree.object("surface_id", surfaceId), null));
            final List<Map<String, Object>> flat = new ArrayList<>();
            flatten(elements.get("root"), flat);
            String entry = null;
            for (final Map<String, Object> e : flat) {
                if ("text_field".equals(e.get("role"))) {
                    entry = (String) e.get("id");
                }
            }
            assertNotNull(entry, "zenity's entry");
            final Map<String, Object> done = result(call(pcp, "invoke.action", JsonTree.object("surface_id", surfaceId,
                "element_id", entry, "action", "set_value", "value", "written by pcp"), null));
            assertEquals("atspi", ((Map<?, ?>) done.get("result")).get("via"), done::toString);
            final long id = Long.parseUnsignedLong(entry.substring(3));
            d.awaitObserve(o -> { }, c -> {
                final TargetFlyweight t = DesktopService.find(c, id);
                return t != null && "written by pcp".equals(DesktopService.text(c, t));
            });
            final Map<String, Object> wrongType = call(pcp, "invoke.action", JsonTree.object("surface_id", surfaceId,
                "element_id", entry, "action", "set_value", "value", 7L), null);
            assertEquals(-32602L, ((Map<?, ?>) wrongType.get("error")).get("code"), wrongType::toString);
        }
    }

    @Test
    void setValueMovesAZenitySliderThroughTheValueInterface() throws Exception {
        final Process zenity = desktop.configure(new ProcessBuilder("zenity", "--scale", "--title=PCP scale",
            "--min-value=0", "--max-value=100", "--value=10")).start();
        try (PcpClient pcp = PcpClient.connect(pcpSocket, Duration.ofSeconds(30))) {
            // [surface, slider, OK button], each null until PCP shows it
            final String[] found = Await.probe(() -> scaleDialog(pcp), f -> f[1] != null && f[2] != null,
                Duration.ofSeconds(30), f -> "zenity's slider and OK button; found " + Arrays.toString(f));
            final String surfaceId = found[0];
            final String slider = found[1];
            final String ok = found[2];
            frontmost(desktop, pcp, surfaceId);
            final Map<String, Object> set = result(call(pcp, "invoke.action", JsonTree.object("surface_id", surfaceId,
                "element_id", slider, "action", "set_value", "value", 42L), null));
            assertEquals("atspi", ((Map<?, ?>) set.get("result")).get("via"), set::toString);
            result(call(pcp, "invoke.action", JsonTree.object("surface_id", surfaceId, "element_id", ok,
                "action", "activate"), null));
            assertTrue(zenity.waitFor(20, TimeUnit.SECONDS), "zenity closed on OK");
            assertEquals("42", new String(zenity.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip(),
                "zenity prints the value the slider was set to");
        } finally {
            zenity.destroyForcibly();
        }
    }

    @Test
    void focusingAnotherWindowPushesFocusChanged() throws Exception {
        final AppHandle gtk = app(DemoApp.GTK3_DEMO);
        final AppHandle calc = app(DemoApp.QT_CALCULATOR);
        desktop.configure(new ProcessBuilder("xdotool", "windowactivate", "--sync", Long.toString(gtk.windowId())))
            .start().waitFor(10, TimeUnit.SECONDS);
        try (PcpClient listener = PcpClient.connect(pcpSocket, Duration.ofSeconds(30))) {
            final Map<String, Object> sub = result(listener.call("subscribe.events", JsonTree.object("event_types",
                List.of("surface.focus_changed")), null));
            assertNotNull(sub.get("subscription_id"));
            desktop.configure(new ProcessBuilder("xdotool", "windowactivate", "--sync", Long.toString(calc.windowId())))
                .start().waitFor(10, TimeUnit.SECONDS);
            final String calcSurface = "surface-" + calc.windowId();
            while (true) { // read timeout of the client bounds this loop
                final Map<String, Object> event = listener.readMessage();
                assertEquals("surface.focus_changed", event.get("method"));
                assertFalse(event.containsKey("id"));
                final Map<?, ?> params = (Map<?, ?>) event.get("params");
                assertEquals(sub.get("subscription_id"), params.get("subscription_id"));
                if (calcSurface.equals(params.get("surface_id")) && Boolean.TRUE.equals(params.get("focused"))) {
                    assertTrue(params.get("timestamp") instanceof Long);
                    break;
                }
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static String elementByLabel(final PcpClient pcp, final String surfaceId, final String role, final String label)
        throws Exception {
        final Map<String, Object> elements = result(call(pcp, "query.elements", JsonTree.object("surface_id", surfaceId), null));
        final List<Map<String, Object>> flat = new ArrayList<>();
        flatten((Map<String, Object>) elements.get("root"), flat);
        for (final Map<String, Object> e : flat) {
            if (role.equals(e.get("role")) && label.equals(e.get("label"))) {
                return (String) e.get("id");
            }
        }
        throw new AssertionError("no " + role + " '" + label + "' in " + surfaceId);
    }
}
