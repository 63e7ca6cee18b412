package dev.saccade.pcp;

import static dev.saccade.pcp.PcpSocketTest.MAIL;
import static dev.saccade.pcp.PcpSocketTest.composeParams;
import static dev.saccade.pcp.PcpSocketTest.error;
import static dev.saccade.pcp.PcpSocketTest.result;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A confirmation the user gives, on a real desktop (pcp §5.3): PCP shows it through dunst, a real
 * notification server on the test desktop's session bus, and the agent that asked cannot approve
 * it on the host socket. The user clicks the notification (an XTest click), picks "Allow" in the
 * action menu dunst opens (dmenu, typed through XTest), and the application process runs the
 * capability; the agent is told with {@code confirmation.resolved}. Waving the notification away
 * denies.
 */
@WithTestDesktop
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PcpConfirmationDesktopTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private TestDesktop desktop;
    private Process dunst;
    private PcpFixture fixture;
    private PcpFixture.App app;

    @BeforeAll
    void startNotificationServer(final TestDesktop testDesktop, @TempDir final Path temp) throws Exception {
        desktop = testDesktop;
        final Path config = temp.resolve("dunstrc");
        // A click runs the notification's actions menu; only a deliberate choice there answers.
        Files.writeString(config, String.join("\n", "[global]", "    width = 420", "    origin = top-left",
            "    offset = 40x40", "    font = Monospace 10", "    mouse_left_click = do_action",
            "    mouse_middle_click = close_current", "    dmenu = /usr/bin/dmenu -p dunst:", "[urgency_critical]",
            "    timeout = 0", ""), StandardCharsets.UTF_8);
        dunst = desktop.configure(new ProcessBuilder("dunst", "-config", config.toString()))
            .redirectErrorStream(true).redirectOutput(desktop.logDir().resolve("dunst.log").toFile()).start();
        Await.until(() -> "boolean true".equals(run("dbus-send", "--session", "--print-reply=literal",
            "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner",
            "string:" + NotificationPrompt.NOTIFICATIONS)), WAIT, "dunst owns org.freedesktop.Notifications");
        fixture = new PcpFixture(temp, null, c -> c.notificationBus(desktop.sessionBusAddress()).confirmationWindowMs(90_000));
        app = fixture.app(MAIL);
        result(app.registered());
    }

    @AfterAll
    void stop() throws Exception {
        if (fixture != null) {
            fixture.close();
        }
        if (dunst != null) {
            dunst.descendants().forEach(ProcessHandle::destroyForcibly);
            dunst.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void theUserAllowsAtTheNotificationAndTheAgentCannotApproveItself() throws Exception {
        awaitNoNotification();
        try (PcpClient agent = fixture.client(); PcpClient host = PcpClient.connect(fixture.hostSocket(), WAIT)) {
            final Map<?, ?> data = (Map<?, ?>) error(agent.call("invoke.capability", composeParams(), null),
                PcpError.CONFIRMATION_REQUIRED).get("data");
            assertEquals("notification", data.get("prompt"));
            final String id = (String) data.get("confirmation_id");
            // The agent tries the host socket itself: refused as the requester, whatever code it guesses.
            assertEquals("self_confirmation", ((Map<?, ?>) error(host.call("confirm", JsonTree.object("confirmation_id", id,
                "code", "000000"), null), PcpError.PERMISSION_DENIED).get("data")).get("reason"));

            // The user: a click on the notification opens its actions, and they choose Allow.
            clickNotification("1");
            Await.until(() -> !run("xdotool", "search", "--onlyvisible", "--class", "dmenu").isEmpty(), WAIT,
                "dunst's actions menu (dmenu) is shown");
            run("xdotool", "type", "--delay", "30", "#Allow");
            run("xdotool", "key", "Return");

            assertTrue(app.next("invoked", WAIT).contains("user@example.com"), "the application ran the capability");
            final Map<String, Object> note = agent.readMessage();
            assertEquals(PcpCoreService.CONFIRMATION_RESOLVED, note.get("method"));
            final Map<?, ?> outcome = (Map<?, ?>) ((Map<?, ?>) note.get("params")).get("result");
            assertEquals("success", outcome.get("status"), note::toString);
            assertEquals(app.process.pid(), ((Map<?, ?>) outcome.get("data")).get("pid"));
        }
        final String audit = Files.readString(fixture.endpoint.audit().path());
        assertTrue(audit.contains("\"reason\":\"self_confirmation\"") && audit.contains("\"resolution\":\"confirmed\""),
            audit);
    }

    @Test
    void dismissingTheNotificationDeniesTheRequest() throws Exception {
        awaitNoNotification();
        try (PcpClient agent = fixture.client()) {
            final String id = (String) ((Map<?, ?>) error(agent.call("invoke.capability", composeParams(), null),
                PcpError.CONFIRMATION_REQUIRED).get("data")).get("confirmation_id");
            clickNotification("2"); // dunst closes a notification on a middle click: the user waved it away
            final Map<String, Object> note = agent.readMessage();
            assertEquals(PcpCoreService.CONFIRMATION_RESOLVED, note.get("method"));
            assertEquals((long) PcpError.CONFIRMATION_DENIED,
                ((Map<?, ?>) ((Map<?, ?>) note.get("params")).get("error")).get("code"), note::toString);
            error(agent.call("invoke.capability", JsonTree.object("confirmation_id", id), null), PcpError.CONFIRMATION_DENIED);
        }
    }

    private void awaitNoNotification() {
        Await.until(() -> notificationGeometry() == null, WAIT, "no notification left on the screen");
    }

    /** Clicks the middle of the notification with {@code button}, through XTest, as the user's pointer would. */
    private void clickNotification(final String button) {
        final Map<String, Integer> box = Await.value(this::notificationGeometry, g -> g != null, WAIT, Duration.ZERO,
            g -> "the notification window of dunst on the test desktop");
        run("xdotool", "mousemove", "--sync", Integer.toString(box.get("X") + box.get("WIDTH") / 2),
            Integer.toString(box.get("Y") + box.get("HEIGHT") / 2), "click", button);
    }

    /** X, Y, WIDTH and HEIGHT of dunst's visible window, or null while there is none. */
    private Map<String, Integer> notificationGeometry() {
        final List<String> windows = run("xdotool", "search", "--onlyvisible", "--class", "Dunst").lines().toList();
        if (windows.isEmpty()) {
            return null;
        }
        final Map<String, Integer> box = new HashMap<>();
        for (final String line : run("xdotool", "getwindowgeometry", "--shell", windows.get(0)).split("\n")) {
            final int eq = line.indexOf('=');
            if (eq > 0 && line.substring(eq + 1).matches("-?\\d+")) {
                box.put(line.substring(0, eq), Integer.parseInt(line.substring(eq + 1)));
            }
        }
        return box.keySet().containsAll(List.of("X", "Y", "WIDTH", "HEIGHT")) && box.get("HEIGHT") > 0 ? box : null;
    }

    /** Runs a command on the test desktop and returns what it printed (trimmed), empty when it failed. */
    private String run(final String... command) {
        try {
            final Process p = desktop.configure(new ProcessBuilder(command)).redirectErrorStream(true).start();
            final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : "";
        } catch (final IOException e) {
            throw new AssertionError("cannot run " + command[0], e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted running " + command[0], e);
        }
    }
}
