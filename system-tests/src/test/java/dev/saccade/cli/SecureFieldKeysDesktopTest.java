package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.HelloFlag;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TargetState;
import dev.saccade.protocol.TextMatch;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * No keys into a password field (D30): a zenity form with a user entry and a password entry.
 * The agent types a user name, Tabs on (allowed: the focus was on the user entry), and once the
 * password entry has the focus every KEY, KEY_CHORD and TEXT is SECURE_SURFACE, even a TEXT aimed
 * at the user entry and a connection that asked for SECURE_INPUT (this owner was not granted it).
 * A click on OK (pointer input is not refused) then makes zenity print what its fields hold: the
 * user name and an empty password.
 */
@WithTestDesktop(apps = {})
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SecureFieldKeysDesktopTest extends OwnedDesktopTest {
    private static final String TITLE = "Saccade login";
    private static final int USAGE_A = 0x04;
    private static final int USAGE_TAB = 0x2B;

    @Test
    void keysAndTextAreRefusedWhileAPasswordFieldHasTheFocus() throws Exception {
        final Path out = Files.createTempFile("saccade-login-", ".out");
        final Process form = desktop.configure(new ProcessBuilder("zenity", "--forms", "--title=" + TITLE,
            "--text=Log in", "--add-entry=User", "--add-password=Password")).redirectOutput(out.toFile())
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (AgentClient looking = owner.connect(Duration.ofSeconds(20), HelloFlag.TARGET_STATES);
             AgentClient asking = owner.connect(Duration.ofSeconds(20), HelloFlag.SECURE_INPUT)) {
            final long window = desktop.awaitWindow(form.pid(), TITLE, 30_000);
            final long user = Await.probe(() -> field(looking, window, false, 0), id -> id != 0, Duration.ofSeconds(60),
                Duration.ofMillis(50), id -> "the user entry in the scene");
            FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, "bob".getBytes(StandardCharsets.UTF_8),
                a -> a.kind(ActionKind.TEXT).targetId(user).buttonBits(Button.LEFT), 0), "TEXT into the user entry");
            FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, new byte[0],
                a -> a.kind(ActionKind.KEY).keyUsage(USAGE_TAB), 0), "Tab from the user entry");
            Await.probe(() -> field(looking, window, true, TargetState.FOCUSED), id -> id != 0, Duration.ofSeconds(30),
                Duration.ofMillis(50), id -> "the password entry focused in the scene");

            assertRefused(client, new byte[0], ActionKind.KEY, 0, "KEY a");
            assertRefused(client, new byte[0], ActionKind.KEY_CHORD, Modifier.SHIFT, "KEY_CHORD shift+a");
            assertRefused(asking, new byte[0], ActionKind.KEY, 0, "KEY a, SECURE_INPUT asked but not granted");
            final ActionCompletionFlyweight text = InputHelperDesktopTest.send(client,
                "hunter2".getBytes(StandardCharsets.UTF_8), a -> a.kind(ActionKind.TEXT).targetId(user)
                    .buttonBits(Button.LEFT), 0);
            assertEquals(ResultCode.SECURE_SURFACE, text.result(), "TEXT while the password entry has the focus: "
                + ResultCode.name(text.result()));

            // a click is no key: the form is submitted with OK, and zenity prints what its fields hold
            final long ok = Await.probe(() -> button(looking, window, "OK"), id -> id != 0, Duration.ofSeconds(30),
                Duration.ofMillis(50), id -> "the OK button in the scene");
            FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, new byte[0],
                a -> a.kind(ActionKind.CLICK).targetId(ok).buttonBits(Button.LEFT), 0), "OK");
            assertTrue(form.waitFor(30, TimeUnit.SECONDS), "zenity closed on OK");
            assertEquals("bob|", Files.readString(out, StandardCharsets.UTF_8).strip(),
                "what zenity printed: the user name, and nothing in the password");
        } finally {
            form.destroy();
            form.waitFor(5, TimeUnit.SECONDS);
            Files.deleteIfExists(out);
        }
    }

    private static void assertRefused(final AgentClient agent, final byte[] payload, final int kind, final int modifiers,
        final String what) throws Exception {
        final ActionCompletionFlyweight c = InputHelperDesktopTest.send(agent, payload,
            a -> a.kind(kind).keyUsage(USAGE_A).modifiers(modifiers), 0);
        assertEquals(ResultCode.SECURE_SURFACE, c.result(), what + ": " + ResultCode.name(c.result()));
    }

    /** The actionable button of {@code window} labelled {@code label}; 0 if none. */
    private static long button(final AgentClient looking, final long window, final String label) throws Exception {
        final CompletionFlyweight c = ActionEffectsDesktopTest.query(looking, Role.BUTTON, label, TextMatch.EXACT);
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = new TargetFlyweight().wrap(c.bytes(), c.offset() + c.targetsOffset()
                + (long) i * c.targetStride());
            if (t.windowId() == window && (t.flags() & TargetFlag.ACTIONABLE) != 0) {
                return t.targetId();
            }
        }
        return 0;
    }

    /** The text field of {@code window} that is (or is not) SECURE and has {@code state}; 0 if none. */
    private static long field(final AgentClient looking, final long window, final boolean secure, final int state)
        throws Exception {
        final CompletionFlyweight c = ActionEffectsDesktopTest.query(looking, Role.TEXT_FIELD, null, TextMatch.EXACT);
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = new TargetFlyweight().wrap(c.bytes(), c.offset() + c.targetsOffset()
                + (long) i * c.targetStride());
            if (t.windowId() == window && ((t.flags() & TargetFlag.SECURE) != 0) == secure
                && (t.states() & state) == state) {
                return t.targetId();
            }
        }
        return 0;
    }
}
