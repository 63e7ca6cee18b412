package dev.saccade.cli;

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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * API 0x00010002's exact-window scope and background actions, seen by a client written from
 * upstream's header alone ({@link MinorTwoWire}) on two real zenity dialogs behind a third:
 * one zenity dialog's OK is invoked while it stays in the background (the X server's active window
 * and stacking order untouched), another's OK clicked at coordinates is refused with
 * ACTIVATION_REQUIRED until the action allows activation. What each dialog printed proves what
 * reached it.
 */
@WithTestDesktop(apps = {})
@ExtendWith(DesktopOwnerExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class BackgroundWindowDesktopTest {
    private static final Duration APPEAR = Duration.ofSeconds(40);
    private static final Pattern WINDOW_IDS = Pattern.compile("0x[0-9a-f]+");

    private TestDesktop desktop;
    private DesktopOwner owner;
    private final List<Process> started = new ArrayList<>();

    @BeforeAll
    void takeOwner(final TestDesktop testDesktop, final DesktopOwner desktopOwner) {
        desktop = testDesktop;
        owner = desktopOwner;
    }

    @AfterAll
    void stopApps() {
        started.forEach(Process::destroyForcibly);
    }

    @Test
    void aBackgroundDialogIsInvokedInPlaceAndAClickNeedsActivation() throws Exception {
        final Path dir = Files.createTempDirectory(desktop.directory(), "background");
        final Dialog quiet = zenity(dir, "Quiet dialog", "invoked-in-background");
        final Dialog clicked = zenity(dir, "Clicked dialog", "clicked-after-activation");
        final long front = front();
        activate(front);

        try (MinorTwoWire wire = MinorTwoWire.open(owner.service.endpoint())) {
            // the exact-window read of a window that is not the active one
            final MinorTwoWire.Observed seen = awaitButton(wire, quiet.window);
            assertEquals(MinorTwoWire.VERSION, seen.version());
            assertEquals(quiet.window, seen.windowId(), "the generation names the observed window");
            assertEquals(quiet.process.pid(), seen.processId(), "... and the process that owns it");
            assertEquals(quiet.window, seen.scopeId());
            for (final MinorTwoWire.Target t : seen.targets()) {
                assertEquals(quiet.window, t.window(), "only the named window's targets: " + t);
                assertEquals(1, Integer.bitCount(t.dispositions()), "exactly one disposition: " + t);
            }
            final MinorTwoWire.Target ok = okButton(seen);
            assertEquals(MinorTwoWire.T_BACKGROUND_ACTIONABLE, ok.dispositions(), ok.toString());

            final String stacking = stacking();
            assertEquals(front, activeWindow());
            final MinorTwoWire.Acted invoked = wire.act(seen, MinorTwoWire.INVOKE, MinorTwoWire.A_EXPLICIT_WINDOW, ok);
            assertEquals(0, invoked.result(), invoked.toString());
            assertEquals(MinorTwoWire.R_BACKGROUND_ACCESSIBILITY,
                invoked.rows().get(0).flags() & MinorTwoWire.R_BACKGROUND_ACCESSIBILITY, invoked.toString());
            assertTrue(quiet.process.waitFor(20, TimeUnit.SECONDS), "the invoked dialog finished");
            assertEquals("invoked-in-background", quiet.output(), "zenity printed its entry: OK was invoked");
            assertEquals(front, activeWindow(), "the active window never changed");
            assertEquals(withoutWindow(stacking, quiet.window), withoutWindow(stacking(), quiet.window),
                "the stacking order of the other windows is untouched");

            // a window that closes between the read and the action: nothing is activated, nothing sent
            final Dialog doomed = zenity(dir, "Doomed dialog", "never-clicked");
            activate(front);
            final MinorTwoWire.Observed gone = awaitButton(wire, doomed.window);
            doomed.process.destroy();
            assertTrue(doomed.process.waitFor(20, TimeUnit.SECONDS), "the dialog closed");
            Await.until(() -> !stacking().contains(String.format("0x%x", doomed.window)), APPEAR, "its window to go");
            final MinorTwoWire.Acted late = wire.act(gone, MinorTwoWire.CLICK,
                MinorTwoWire.A_EXPLICIT_WINDOW | MinorTwoWire.A_EXPLICIT_POINTS | MinorTwoWire.A_ALLOW_ACTIVATION, okButton(gone));
            assertTrue(late.result() < 0, "refused: " + late);
            assertEquals(front, activeWindow(), "nothing was activated for a window that is gone");

            // a click at coordinates on a background window: refused, nothing activated or sent
            final MinorTwoWire.Observed other = awaitButton(wire, clicked.window);
            final MinorTwoWire.Target otherOk = okButton(other);
            final String before = stacking();
            final MinorTwoWire.Acted refused = wire.act(other, MinorTwoWire.CLICK,
                MinorTwoWire.A_EXPLICIT_WINDOW | MinorTwoWire.A_EXPLICIT_POINTS, otherOk);
            assertEquals(MinorTwoWire.ERROR_ACTIVATION_REQUIRED, refused.result(), refused.toString());
            assertEquals(MinorTwoWire.ERROR_ACTIVATION_REQUIRED, refused.rows().get(0).result());
            assertEquals(before, stacking(), "nothing was raised");
            assertEquals(front, activeWindow(), "nothing was activated");
            assertTrue(clicked.process.isAlive(), "the dialog was not clicked");

            // allowed to activate: the window comes to the front, the click lands, the dialog prints
            final MinorTwoWire.Acted allowed = wire.act(other, MinorTwoWire.CLICK,
                MinorTwoWire.A_EXPLICIT_WINDOW | MinorTwoWire.A_EXPLICIT_POINTS | MinorTwoWire.A_ALLOW_ACTIVATION, otherOk);
            assertEquals(0, allowed.result(), allowed.toString());
            assertEquals(MinorTwoWire.R_WINDOW_ACTIVATED,
                allowed.rows().get(0).flags() & MinorTwoWire.R_WINDOW_ACTIVATED, allowed.toString());
            assertTrue(clicked.process.waitFor(20, TimeUnit.SECONDS), "the clicked dialog finished");
            assertEquals("clicked-after-activation", clicked.output(), "zenity printed its entry: OK was clicked");
        }
    }

    /** A zenity entry dialog that prints {@code text} when its OK is pressed. */
    private Dialog zenity(final Path dir, final String title, final String text) throws IOException {
        final Path out = dir.resolve(text + ".out");
        final Process p = desktop.configure(new ProcessBuilder("zenity", "--entry", "--title=" + title,
            "--text=" + title, "--entry-text=" + text)).redirectOutput(out.toFile())
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        started.add(p);
        return new Dialog(p, desktop.awaitWindow(p.pid(), title, APPEAR.toMillis()), out);
    }

    /** A third dialog, the one in front. */
    private long front() throws IOException {
        final Process p = desktop.configure(new ProcessBuilder("zenity", "--info", "--title=Front", "--text=In front"))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        started.add(p);
        return desktop.awaitWindow(p.pid(), "Front", APPEAR.toMillis());
    }

    private void activate(final long window) {
        Await.until(() -> {
            run("xdotool", "windowactivate", Long.toString(window));
            return activeWindow() == window;
        }, APPEAR, "window " + window + " to become active");
    }

    /** The window's read, once its accessible OK button is in it. */
    private static MinorTwoWire.Observed awaitButton(final MinorTwoWire wire, final long window) throws Exception {
        return Await.probe(() -> wire.observeWindow(window),
            o -> o.result() == 0 && o.targets().stream().anyMatch(BackgroundWindowDesktopTest::isOk), APPEAR,
            o -> "zenity's OK in the read of window " + window + ": " + o);
    }

    private static boolean isOk(final MinorTwoWire.Target t) {
        return t.role() == MinorTwoWire.ROLE_BUTTON && t.text().replace("_", "").equals("OK");
    }

    private static MinorTwoWire.Target okButton(final MinorTwoWire.Observed o) {
        return o.targets().stream().filter(BackgroundWindowDesktopTest::isOk).findFirst().orElseThrow();
    }

    /** {@code _NET_ACTIVE_WINDOW} from the X server. */
    private long activeWindow() {
        final Matcher m = WINDOW_IDS.matcher(run("xprop", "-root", "_NET_ACTIVE_WINDOW"));
        return m.find() ? Long.parseLong(m.group().substring(2), 16) : -1;
    }

    /** {@code _NET_CLIENT_LIST_STACKING} from the X server, bottom to top. */
    private String stacking() {
        return run("xprop", "-root", "_NET_CLIENT_LIST_STACKING").trim();
    }

    private static String withoutWindow(final String stacking, final long window) {
        final Matcher m = WINDOW_IDS.matcher(stacking);
        final List<String> ids = new ArrayList<>();
        while (m.find()) {
            if (Long.parseLong(m.group().substring(2), 16) != window) {
                ids.add(m.group());
            }
        }
        return String.join(",", ids);
    }

    private String run(final String... command) {
        try {
            final Process p = desktop.configure(new ProcessBuilder(command)).redirectErrorStream(true).start();
            final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(Arrays.toString(command) + " failed: " + out);
            }
            return out;
        } catch (final IOException e) {
            throw new IllegalStateException(e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A dialog the test started, its window and where its standard output goes. */
    private record Dialog(Process process, long window, Path out) {
        String output() throws IOException {
            return Files.readString(out, StandardCharsets.UTF_8).trim();
        }
    }
}
