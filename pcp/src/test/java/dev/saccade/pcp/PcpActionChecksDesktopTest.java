package dev.saccade.pcp;

import static dev.saccade.pcp.PcpDesktopTest.call;
import static dev.saccade.pcp.PcpDesktopTest.flatten;
import static dev.saccade.pcp.PcpDesktopTest.frontmost;
import static dev.saccade.pcp.PcpDesktopTest.result;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.owner.DesktopService;
import dev.saccade.owner.WithDesktopService;
import dev.saccade.testdesktop.WithTestDesktop;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * PCP actions meet the action path's checks on a real desktop (pcp §6.4): an invoke.action
 * planned against a generation the desktop has left (its window moved, another window came in
 * front) is refused with -32002 and what changed, and the application proves nothing was done:
 * zenity, closed with OK afterwards, prints the entry's text as it was.
 */
@WithTestDesktop(apps = {DemoApp.GTK3_DEMO})
// The owner with its input helper, as `saccade owner run` starts it: every PCP action is a batch.
@WithDesktopService(inputHelper = true)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PcpActionChecksDesktopTest {
    private static final String ORIGINAL = "as it was";

    private TestDesktop desktop;
    private DesktopService d;
    private OwnerPcp pcp;
    private Path pcpSocket;

    @BeforeAll
    void startService(final TestDesktop testDesktop, final DesktopService service) throws Exception {
        desktop = testDesktop;
        d = service;
        pcp = OwnerPcp.start(d.runtime, d.service.endpoint(), desktop.display());
        pcpSocket = PcpDesktopTest.awaitPcp(d.runtime);
    }

    @AfterAll
    void stopService() throws Exception {
        if (pcp != null) {
            pcp.close();
        }
    }

    @Test
    void aSetValuePlannedBeforeTheWindowMovedIsRefusedAndTypesNothing() throws Exception {
        final Process zenity = zenity("PCP moved");
        try (PcpClient client = PcpClient.connect(pcpSocket, Duration.ofSeconds(30))) {
            final Entry entry = entry(client, "PCP moved");
            final Object planned = result(call(client, "query.surface", JsonTree.object("surface_id", entry.surfaceId), null))
                .get("geometry");
            desktop.configure(new ProcessBuilder("xdotool", "windowmove", "--sync", entry.surfaceId.substring(8), "40", "40"))
                .start().waitFor(10, TimeUnit.SECONDS);
            awaitSurface(client, entry.surfaceId, s -> !planned.equals(s.get("geometry")), "moved");

            final Map<String, Object> refused = call(client, "invoke.action", JsonTree.object("surface_id", entry.surfaceId,
                "element_id", entry.field, "action", "set_value", "value", "typed too late", "generation", entry.generation), null);
            final Map<?, ?> error = (Map<?, ?>) refused.get("error");
            assertNotNull(error, refused::toString);
            assertEquals(-32002L, error.get("code"), refused::toString);
            assertEquals("STALE_GENERATION", ((Map<?, ?>) error.get("data")).get("reason"), refused::toString);
            assertEquals("surface_moved", ((Map<?, ?>) error.get("data")).get("changed"), refused::toString);
            assertEquals(entry.generation, ((Map<?, ?>) error.get("data")).get("planned_generation"));

            assertEquals(ORIGINAL, closeWithOk(client, entry, zenity), "the refused set_value typed nothing");
        } finally {
            zenity.destroyForcibly();
        }
    }

    @Test
    void aSetValuePlannedBeforeAnotherWindowCameInFrontIsRefusedAndTypesNothing() throws Exception {
        final AppHandle gtk = desktop.apps().stream().filter(a -> a.app() == DemoApp.GTK3_DEMO).findFirst().orElseThrow();
        final Process zenity = zenity("PCP focus");
        try (PcpClient client = PcpClient.connect(pcpSocket, Duration.ofSeconds(30))) {
            final Entry entry = entry(client, "PCP focus");
            desktop.configure(new ProcessBuilder("xdotool", "windowactivate", "--sync", Long.toString(gtk.windowId())))
                .start().waitFor(10, TimeUnit.SECONDS);
            awaitSurface(client, entry.surfaceId, s -> !"focused".equals(s.get("state")), "behind gtk3-demo");

            final Map<String, Object> refused = call(client, "invoke.action", JsonTree.object("surface_id", entry.surfaceId,
                "element_id", entry.field, "action", "set_value", "value", "typed too late", "generation", entry.generation), null);
            final Map<?, ?> error = (Map<?, ?>) refused.get("error");
            assertNotNull(error, refused::toString);
            assertEquals(-32002L, error.get("code"), refused::toString);
            final Object changed = ((Map<?, ?>) error.get("data")).get("changed");
            assertTrue(List.of("process", "window").contains(changed), refused::toString);

            frontmost(desktop, client, entry.surfaceId);
            assertEquals(ORIGINAL, closeWithOk(client, entry, zenity), "the refused set_value typed nothing");
        } finally {
            zenity.destroyForcibly();
        }
    }

    private Process zenity(final String title) throws Exception {
        return desktop.configure(new ProcessBuilder("zenity", "--entry", "--title=" + title, "--entry-text=" + ORIGINAL))
            .start();
    }

    /** A zenity entry's surface in front, its text field and OK button, and the generation they were read in. */
    private record Entry(String surfaceId, String field, String ok, String generation) {
    }

    @SuppressWarnings("unchecked")
    private Entry entry(final PcpClient client, final String title) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (final Object id : (List<?>) result(call(client, "query.session_context", null, null)).get("active_surfaces")) {
                final Map<String, Object> s = call(client, "query.surface", JsonTree.object("surface_id", id), null);
                if (!s.containsKey("result") || !title.equals(result(s).get("title"))) {
                    continue;
                }
                frontmost(desktop, client, (String) id);
                final Map<String, Object> elements = call(client, "query.elements", JsonTree.object("surface_id", id), null);
                if (!elements.containsKey("result")) {
                    continue;
                }
                final List<Map<String, Object>> flat = new ArrayList<>();
                flatten((Map<String, Object>) result(elements).get("root"), flat);
                String field = null;
                String ok = null;
                for (final Map<String, Object> e : flat) {
                    if ("text_field".equals(e.get("role"))) {
                        field = (String) e.get("id");
                    }
                    if ("button".equals(e.get("role")) && String.valueOf(e.get("label")).replace("_", "").equals("OK")) {
                        ok = (String) e.get("id");
                    }
                }
                if (field != null && ok != null) {
                    return new Entry((String) id, field, ok, (String) result(elements).get("generation"));
                }
            }
        }
        throw new AssertionError("no zenity entry '" + title + "' with a field and OK");
    }

    private static void awaitSurface(final PcpClient client, final String surfaceId,
        final java.util.function.Predicate<Map<String, Object>> done, final String what) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        Map<String, Object> s = null;
        while (System.nanoTime() < deadline) {
            s = result(call(client, "query.surface", JsonTree.object("surface_id", surfaceId), null));
            if (done.test(s)) {
                return;
            }
        }
        throw new AssertionError(surfaceId + " never " + what + ": " + s);
    }

    /** OK through PCP on the latest scene; zenity prints the entry's text as it exits. */
    private static String closeWithOk(final PcpClient client, final Entry entry, final Process zenity) throws Exception {
        result(call(client, "invoke.action", JsonTree.object("surface_id", entry.surfaceId, "element_id", entry.ok,
            "action", "activate"), null));
        assertTrue(zenity.waitFor(20, TimeUnit.SECONDS), "zenity closed on OK");
        return new String(zenity.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    }
}
