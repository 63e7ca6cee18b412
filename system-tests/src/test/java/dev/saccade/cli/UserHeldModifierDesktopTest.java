package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.helper.backend.xtest.XvfbDeviceInput;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.PhysicalFlag;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Modifiers (D23): a modifier the user holds on a real keyboard (here the Xvfb keyboard,
 * driven through its own device as {@link XvfbDeviceInput} does, which the helper's monitor takes
 * for a user) when a batch starts is reported in the completion's physical state
 * (user_modifiers, §5.11) and is still down after the batch, as the X server itself says; a chord
 * that asks for it still does what it asks (shift+a types 'A' into zenity, read from what zenity
 * prints).
 */
@WithTestDesktop(apps = {})
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class UserHeldModifierDesktopTest extends OwnedDesktopTest {
    private static final int SHIFT_L = 50;
    private static final int SHIFT_MASK = 1;
    private static final int CONTROL_L = 37;
    private static final int CONTROL_MASK = 4;

    @Test
    void aShiftTheUserHoldsIsReportedAndNeverReleasedForThem() throws Exception {
        final String printed = inEntry("abc", (entry, probe, user) -> {
            user.key(SHIFT_L, true); // the user holds Shift on their keyboard
            try {
                assertTrue((probe.mask() & SHIFT_MASK) != 0, "the X server has the user's Shift down");
                awaitUserOverride(); // the helper saw the user's key before the batch
                final ActionCompletionFlyweight chord = InputHelperDesktopTest.send(client, new byte[0],
                    a -> a.kind(ActionKind.KEY_CHORD).keyUsage(0x04).modifiers(Modifier.SHIFT), 0);
                FocusedTypingDesktopTest.ok(chord, "shift+a");
                assertEquals(Modifier.SHIFT, chord.physicalState().userModifiers(), "the user's Shift reported");
                assertEquals(0, chord.physicalState().modifiers(), "no synthetic modifier held");
                assertTrue((probe.mask() & SHIFT_MASK) != 0, "the user's Shift is still down after the chord");
            } finally {
                user.key(SHIFT_L, false);
            }
            assertEquals(0, probe.mask() & SHIFT_MASK, "the user let go of Shift");
        });
        assertEquals("abcA", printed, "shift+a typed 'A'");
    }

    /**
     * D24: TEXT under the user's Shift comes out as asked (lower case too) and leaves their Shift
     * down; TEXT under their Control is refused before any key (it would be shortcuts: ctrl+a
     * would select all), and the entry holds only what was typed before.
     */
    @Test
    void textComesOutAsAskedUnderTheUsersShiftAndIsRefusedUnderTheirControl() throws Exception {
        final String printed = inEntry("ab", (entry, probe, user) -> {
            final long field = FocusedTypingDesktopTest.targets(client, entry, Role.TEXT_FIELD, null, 1).get(0).targetId();
            user.key(SHIFT_L, true);
            try {
                awaitUserOverride();
                final ActionCompletionFlyweight shifted = text(field, "cD1!e[");
                FocusedTypingDesktopTest.ok(shifted, "TEXT under the user's Shift");
                assertEquals(Modifier.SHIFT, shifted.physicalState().userModifiers(), "the user's Shift reported");
                assertTrue((probe.mask() & SHIFT_MASK) != 0, "the user's Shift is still down after the text");
            } finally {
                user.key(SHIFT_L, false);
            }
            user.key(CONTROL_L, true);
            try {
                awaitUserOverride();
                final ActionCompletionFlyweight refused = text(field, "a");
                assertEquals(ResultCode.BACKEND, refused.result(), "TEXT under the user's Control: "
                    + ResultCode.name(refused.result()));
                assertEquals(0, refused.completedActionCount(), "nothing of it ran");
                assertEquals(Modifier.CONTROL, refused.physicalState().userModifiers(), "the user's Control reported");
                assertTrue((probe.mask() & CONTROL_MASK) != 0, "the user's Control is still down");
            } finally {
                user.key(CONTROL_L, false);
            }
        });
        assertEquals("abcD1!e[", printed, "what zenity read");
    }

    /** What a test does between typing into a fresh zenity entry and pressing Enter there. */
    private interface EntryScript {
        void run(AppHandle entry, XPointerProbe probe, XvfbDeviceInput user) throws Exception;
    }

    /**
     * A fresh zenity entry with {@code typed} in it, the script run with the X server's pointer mask
     * and the user's keyboard, then Enter (nothing held by the user any more): what zenity printed.
     */
    private String inEntry(final String typed, final EntryScript script) throws Exception {
        final AppHandle entry = desktop.startApp(DemoApp.ZENITY_ENTRY);
        try (XPointerProbe probe = new XPointerProbe(desktop.display());
             XvfbDeviceInput user = XvfbDeviceInput.open(desktop.display(), xvfbKeyboard())) {
            FocusedTypingDesktopTest.type(client, entry, 0, 1, typed, "TEXT");
            script.run(entry, probe, user);
            final ActionCompletionFlyweight enter = InputHelperDesktopTest.send(client, new byte[0],
                a -> a.kind(ActionKind.KEY).keyUsage(0x28), 0);
            FocusedTypingDesktopTest.ok(enter, "Enter");
            assertEquals(0, enter.physicalState().userModifiers(), "nothing held by the user any more");
            return FocusedTypingDesktopTest.printed(entry);
        } finally {
            desktop.closeApp(entry);
        }
    }

    private ActionCompletionFlyweight text(final long target, final String text) throws Exception {
        return InputHelperDesktopTest.send(client, text.getBytes(StandardCharsets.UTF_8),
            a -> a.kind(ActionKind.TEXT).targetId(target).buttonBits(Button.LEFT), 0);
    }

    private long xvfbKeyboard() throws Exception {
        final Process list = desktop.configure(new ProcessBuilder("xinput", "list", "--id-only", "Xvfb keyboard")).start();
        final long id = Long.parseLong(new String(list.getInputStream().readAllBytes()).trim());
        assertTrue(list.waitFor(10, TimeUnit.SECONDS));
        return id;
    }

    /** Queries the physical state until it says USER_OVERRIDE (the helper's monitor saw the key). */
    private void awaitUserOverride() throws Exception {
        Await.probe(() -> InputHelperDesktopTest.send(client, new byte[0], a -> a.kind(ActionKind.QUERY_PHYSICAL_STATE), 0),
            q -> (q.physicalState().flags() & PhysicalFlag.USER_OVERRIDE) != 0, Duration.ofSeconds(10),
            q -> "the helper to report the user's key (USER_OVERRIDE); flags 0x"
                + Integer.toHexString(q.physicalState().flags()));
    }
}
