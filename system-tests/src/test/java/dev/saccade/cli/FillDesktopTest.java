package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionFlag;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.testdesktop.WithTestDesktop;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * TEXT with FILL (D48): the text replaces a GTK entry's whole text through the application's
 * EditableText and is read back, so the row says OK only when the entry holds it; what zenity
 * prints on OK is the proof. A password entry is never filled (SECURE_SURFACE), and stays empty.
 */
@WithTestDesktop(apps = {})
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class FillDesktopTest extends OwnedDesktopTest {

    @Test
    void aFillReplacesTheEntrysTextAndZenityPrintsIt() throws Exception {
        final AppHandle entry = desktop.startApp(DemoApp.ZENITY_ENTRY);
        try {
            final long field = FocusedTypingDesktopTest.targets(client, entry, Role.TEXT_FIELD, null, 1).get(0).targetId();
            FocusedTypingDesktopTest.ok(fill(field, "first text, replaced"), "first fill");
            final StringBuilder text = new StringBuilder(1000);
            while (text.length() < 1000) {
                text.append("line ").append(text.length()).append(" é€ ");
            }
            final String thousand = text.substring(0, 1000);
            FocusedTypingDesktopTest.ok(fill(field, thousand), "fill of 1,000 characters");
            FocusedTypingDesktopTest.pressOk(client, entry);
            assertEquals(thousand, FocusedTypingDesktopTest.printed(entry), "what the entry dialog printed");
        } finally {
            desktop.closeApp(entry);
        }
    }

    @Test
    void aPasswordFieldIsNeverFilled() throws Exception {
        final AppHandle password = desktop.startApp(DemoApp.ZENITY_PASSWORD);
        try {
            final long field = FocusedTypingDesktopTest.targets(client, password, Role.TEXT_FIELD, null, 1).get(0)
                .targetId();
            assertEquals(ResultCode.SECURE_SURFACE, fill(field, "secret").result(), "refused");
            FocusedTypingDesktopTest.pressOk(client, password);
            assertEquals("", FocusedTypingDesktopTest.printed(password), "nothing went into the password field");
        } finally {
            desktop.closeApp(password);
        }
    }

    @Test
    void fillIsRefusedOnATargetWithoutText() throws Exception {
        final AppHandle entry = desktop.startApp(DemoApp.ZENITY_ENTRY);
        try {
            final long ok = FocusedTypingDesktopTest.targets(client, entry, Role.BUTTON, "OK", 1).get(0).targetId();
            final ActionCompletionFlyweight c = fill(ok, "text");
            assertTrue(c.result() == ResultCode.TARGET_NOT_FOUND, "a button has no TEXT: " + ResultCode.name(c.result()));
            assertTrue(entry.isRunning(), "nothing pressed the button");
        } finally {
            desktop.closeApp(entry);
        }
    }

    private ActionCompletionFlyweight fill(final long target, final String text) throws Exception {
        return InputHelperDesktopTest.send(client, text.getBytes(StandardCharsets.UTF_8),
            a -> a.kind(ActionKind.TEXT).flags(ActionFlag.FILL).targetId(target).buttonBits(Button.LEFT), 0);
    }
}
