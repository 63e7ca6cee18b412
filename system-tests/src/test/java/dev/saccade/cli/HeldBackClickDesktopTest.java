package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Role;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A click the window manager holds back happens before the key sent after it (D68). openbox
 * grabs the buttons of client windows and lets a press through to the application once it has
 * looked at it; stopped (SIGSTOP), it leaves the pointer frozen at the press, as a loaded one does
 * for a while. Enter sent after a CLICK on a zenity list's third row must take that row, not the
 * row the list's cursor was on: zenity prints the row it took.
 */
@WithTestDesktop(apps = {})
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class HeldBackClickDesktopTest extends OwnedDesktopTest {
    /** Longer than any look at the pointer takes, well within the helper's wait for it. */
    private static final long HELD_MS = 300;

    @Test
    void aKeyAfterAHeldBackClickGoesWhereTheClickWent() throws Exception {
        final Path out = Files.createTempFile("saccade-held-click-", ".txt");
        final Process list = desktop.configure(new ProcessBuilder("zenity", "--list", "--title=Saccade list",
            "--column=Name", "alpha", "beta", "gamma")).redirectOutput(out.toFile())
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            desktop.awaitWindow(list.pid(), "Saccade list", 60_000);
            final AccessibilityNode gamma = SwingDesktopTest.node(owner, list.pid(),
                n -> n.role() == Role.TABLE_CELL && "gamma".equals(n.text()), "the row gamma");
            final long id = SwingDesktopTest.inScene(client, gamma);
            final long openbox = desktop.processes().stream()
                .filter(p -> p.info().command().orElse("").endsWith("/openbox")).findFirst()
                .orElseThrow(() -> new AssertionError("no openbox among " + desktop.processes())).pid();
            final CompletableFuture<String> clickThenEnter;
            try (XPointerProbe probe = new XPointerProbe(desktop.display())) {
                signal("-STOP", openbox);
                try {
                    clickThenEnter = CompletableFuture.supplyAsync(() -> {
                        try {
                            FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, new byte[0],
                                a -> a.kind(ActionKind.CLICK).targetId(id).buttonBits(Button.LEFT), 0), "CLICK gamma");
                            FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, new byte[0],
                                a -> a.kind(ActionKind.KEY).keyUsage(0x28), 0), "KEY Enter");
                            return "done";
                        } catch (final Exception e) {
                            throw new IllegalStateException(e);
                        }
                    });
                    // the press went through the X server and froze the pointer under openbox's grab
                    Await.probe(probe::leftHeld, held -> held, Duration.ofSeconds(30), none -> "the press of the CLICK");
                    try {
                        clickThenEnter.get(HELD_MS, TimeUnit.MILLISECONDS);
                        throw new AssertionError("the CLICK and the KEY completed while openbox held the click back");
                    } catch (final TimeoutException expected) {
                        assertFalse(clickThenEnter.isDone(), "the CLICK is not done while its release waits in the server");
                    } catch (final ExecutionException failed) {
                        throw new AssertionError("the CLICK or the KEY while openbox held the click back", failed.getCause());
                    }
                } finally {
                    signal("-CONT", openbox);
                }
            }
            assertEquals("done", clickThenEnter.get(30, TimeUnit.SECONDS));
            assertTrue(list.waitFor(30, TimeUnit.SECONDS), "zenity to take the row and exit");
            assertEquals(0, list.exitValue(), "zenity's exit status");
            assertEquals("gamma", Files.readString(out, StandardCharsets.UTF_8).strip(), "the row zenity printed");
        } finally {
            list.destroy();
            Files.deleteIfExists(out);
        }
    }

    private static void signal(final String which, final long pid) throws Exception {
        final Process kill = new ProcessBuilder("kill", which, Long.toString(pid)).start();
        assertEquals(0, kill.waitFor(), "kill " + which + " " + pid);
    }
}
