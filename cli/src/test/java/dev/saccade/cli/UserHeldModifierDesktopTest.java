package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.helper.backend.xtest.XvfbDeviceInput;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.PhysicalFlag;
import dev.saccade.testdesktop.AppHandle;
import dev.saccade.testdesktop.DemoApp;
import dev.saccade.testdesktop.WithTestDesktop;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 15, "Modifiers": a modifier the user holds on a real keyboard (here the Xvfb keyboard,
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

    @Test
    void aShiftTheUserHoldsIsReportedAndNeverReleasedForThem() throws Exception {
        final AppHandle entry = desktop.startApp(DemoApp.ZENITY_ENTRY);
        try (XPointerProbe probe = new XPointerProbe(desktop.display());
             XvfbDeviceInput user = XvfbDeviceInput.open(desktop.display(), xvfbKeyboard())) {
            FocusedTypingDesktopTest.type(client, entry, 0, 1, "abc", "TEXT");
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
            final ActionCompletionFlyweight enter = InputHelperDesktopTest.send(client, new byte[0],
                a -> a.kind(ActionKind.KEY).keyUsage(0x28), 0);
            FocusedTypingDesktopTest.ok(enter, "Enter");
            assertEquals(0, enter.physicalState().userModifiers(), "nothing held by the user any more");
            assertEquals("abcA", FocusedTypingDesktopTest.printed(entry), "shift+a typed 'A'");
        } finally {
            desktop.closeApp(entry);
        }
    }

    private long xvfbKeyboard() throws Exception {
        final Process list = desktop.configure(new ProcessBuilder("xinput", "list", "--id-only", "Xvfb keyboard")).start();
        final long id = Long.parseLong(new String(list.getInputStream().readAllBytes()).trim());
        assertTrue(list.waitFor(10, TimeUnit.SECONDS));
        return id;
    }

    /** Queries the physical state until it says USER_OVERRIDE (the helper's monitor saw the key). */
    private void awaitUserOverride() throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            final ActionCompletionFlyweight q = InputHelperDesktopTest.send(client, new byte[0],
                a -> a.kind(ActionKind.QUERY_PHYSICAL_STATE), 0);
            if ((q.physicalState().flags() & PhysicalFlag.USER_OVERRIDE) != 0) {
                return;
            }
        }
        throw new AssertionError("the helper never reported the user's key (USER_OVERRIDE)");
    }
}
