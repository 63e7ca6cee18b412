package dev.saccade.cli;

import static dev.saccade.cli.FocusedTypingDesktopTest.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.protocol.ActionFlag;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.testdesktop.WithTestDesktop;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A DRAG_DROP that GTK's drag-and-drop accepts, read back from what zenity
 * prints. The first entry of a three-field form holds a selected text; one DRAG_DROP from that
 * text to the second entry moves it there through GTK's drag-and-drop (XDND between the two
 * widgets), which needs motion past the drag threshold and time for the drop target to answer.
 * {@value FocusedTypingDesktopTest#ROUNDS_PROP} sets the rounds (10 here).
 */
@WithTestDesktop(apps = {})
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class DragDropDesktopTest extends OwnedDesktopTest {
    private static final int ROUNDS = Integer.getInteger(FocusedTypingDesktopTest.ROUNDS_PROP, 10);

    @Test
    void aDragDropMovesSelectedTextFromOneEntryToAnother() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            final AppHandle form = desktop.startApp(DemoApp.ZENITY_FORM);
            try {
                final List<TargetFlyweight> fields = FocusedTypingDesktopTest.targets(client, form, Role.TEXT_FIELD, null, 3);
                fields.sort(Comparator.comparingInt(TargetFlyweight::boundsYQ8));
                final TargetFlyweight from = fields.get(0);
                final long to = fields.get(1).targetId();
                final String text = "dragged " + round;
                FocusedTypingDesktopTest.type(client, form, 0, 3, text, "TEXT");
                ok(InputHelperDesktopTest.send(client, new byte[0],
                    a -> a.kind(ActionKind.KEY_CHORD).keyUsage(0x04).modifiers(Modifier.CONTROL), 0), "ctrl+a");
                // on the selected text (GTK's entry starts its text about 8 px in)
                final int x = from.boundsXQ8() + 20 * RectQ8.ONE;
                final int y = from.boundsYQ8() + from.boundsHeightQ8() / 2;
                ok(InputHelperDesktopTest.send(client, new byte[0], a -> a.kind(ActionKind.DRAG_DROP)
                    .flags(ActionFlag.EXPLICIT_POINTS).targetId(from.targetId()).point(x, y)
                    .secondaryTargetId(to).secondaryPoint(fields.get(1).safePointXQ8(), fields.get(1).safePointYQ8())
                    .buttonBits(Button.LEFT), 0), "DRAG_DROP");
                FocusedTypingDesktopTest.pressOk(client, form);
                final String[] printed = FocusedTypingDesktopTest.printed(form).split("\\|", -1);
                assertEquals(text, printed.length > 1 ? printed[1] : "", "round " + round + ": the second field got the text: "
                    + String.join("|", printed));
            } finally {
                desktop.closeApp(form);
            }
        }
    }
}
