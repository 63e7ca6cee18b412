package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.Role;
import dev.saccade.testdesktop.WithTestDesktop;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Keyboard layouts, read back from what zenity prints: keys by symbol and text of any character
 * under US, AZERTY, QWERTZ and Russian layouts and in the Russian group of "us,ru", switched with
 * setxkbmap while the service runs, after {@code xdotool type} rebound a key code. Each round:
 * TEXT "wrong text", KEY_CHORD ctrl+a, TEXT of ASCII, Latin-1, € and brackets, KEY '1' (Shift+&amp;
 * on AZERTY), KEY Enter; zenity prints exactly the second text and the 1.
 * {@value FocusedTypingDesktopTest#ROUNDS_PROP} sets the rounds per layout (10 / 5 here).
 */
@WithTestDesktop(apps = {})
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class LayoutTypingDesktopTest extends OwnedDesktopTest {
    private static final int ROUNDS = Math.max(1, Integer.getInteger(FocusedTypingDesktopTest.ROUNDS_PROP, 10) / 5);
    private static final String MIXED = "Hello, wörld! AZqy 42 €[]{}@#|\\~ ß àé ₤";

    /** Runs before the owner stops (a subclass's @AfterAll first): the desktop's layout back to US. */
    @AfterAll
    void resetLayout() throws Exception {
        if (desktop != null && !desktop.isClosed()) {
            run("setxkbmap", "-layout", "us", "-option", "");
        }
    }

    @Test
    void keysAndTextArriveExactlyUnderEveryLayout() throws Exception {
        for (final List<String> layout : List.of(List.of("us"), List.of("fr"), List.of("de"), List.of("ru"),
            List.of("us,ru", "grp:caps_toggle"), List.of("us"))) {
            final String name = String.join(" ", layout);
            run("setxkbmap", "-layout", layout.get(0), "-option", "");
            if (layout.size() > 1) {
                run("setxkbmap", "-layout", layout.get(0), "-option", layout.get(1));
                run("xdotool", "key", "ISO_Next_Group"); // lock the second (Russian) group
            }
            for (int round = 0; round < ROUNDS; round++) {
                final AppHandle entry = desktop.startApp(DemoApp.ZENITY_ENTRY);
                try {
                    FocusedTypingDesktopTest.targets(client, entry, Role.TEXT_FIELD, null, 1); // the entry is in the scene
                    if (round % 2 == 1) {
                        run("xdotool", "type", "--delay", "0", "ŧ"); // xdotool binds a spare key code and restores it
                    }
                    FocusedTypingDesktopTest.type(client, entry, 0, 1, "wrong text", name + " TEXT");
                    FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, new byte[0],
                        a -> a.kind(ActionKind.KEY_CHORD).keyUsage(0x04).modifiers(Modifier.CONTROL), 0), name + " ctrl+a");
                    FocusedTypingDesktopTest.type(client, entry, 0, 1, MIXED, name + " mixed TEXT");
                    FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, new byte[0], a -> a.kind(ActionKind.KEY).keyUsage(0x1E), 0),
                        name + " 1");
                    FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, new byte[0], a -> a.kind(ActionKind.KEY).keyUsage(0x28), 0),
                        name + " Enter");
                    assertEquals(MIXED + "1", FocusedTypingDesktopTest.printed(entry), name + ", round " + round);
                } finally {
                    desktop.closeApp(entry);
                }
            }
        }
    }

    /** Runs an X client on the test desktop and waits for it to exit 0. */
    private void run(final String... command) throws Exception {
        final Process p = desktop.configure(new ProcessBuilder(command)).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(true, p.waitFor(20, TimeUnit.SECONDS), String.join(" ", command) + " finished");
        assertEquals(0, p.exitValue(), String.join(" ", command) + ": " + out);
    }
}
