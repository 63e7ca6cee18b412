package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TextMatch;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A closed GTK 4 popover's items leave the scene with its window (D70). GTK 4.8 goes on
 * reporting them as visible for a while after the popover closed, and a read begun while it was
 * open is composed after its window went; placed without their popup, gnome-calculator's mode
 * items stood at the mode button's origin over the main window, actionable (Advanced measured
 * at 924,441 instead of 830,400, for up to 18 s). Every generation after the item Advanced was
 * clicked shows it where the open popover drew it, or not at all; then not at all.
 */
@WithTestDesktop(apps = {})
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ClosedPopoverDesktopTest extends OwnedDesktopTest {
    @Test
    void aClosedPopoversItemsAreNeverPlacedOutsideIt() throws Exception {
        final AppHandle calculator = desktop.startApp(DemoApp.GNOME_CALCULATOR);
        try {
            final long window = calculator.windowId();
            final long mode = Await.probe(() -> actionable(window, Role.BUTTON, "Basic"), t -> t != null,
                Duration.ofSeconds(60), t -> "the calculator's mode button").targetId;
            click(mode, "the mode menu button");
            final Item open = Await.probe(() -> actionable(window, Role.RADIO, "Advanced"), t -> t != null,
                Duration.ofSeconds(30), t -> "the popover's item Advanced");
            click(open.targetId, "Advanced in the popover");
            final Set<String> misplaced = new LinkedHashSet<>();
            Await.probe(() -> {
                final Item now = actionable(window, Role.RADIO, "Advanced");
                if (now != null && (now.x != open.x || now.y != open.y)) {
                    misplaced.add(now.x + "," + now.y + " in generation " + now.generation);
                }
                return now;
            }, t -> t == null, Duration.ofSeconds(30), t -> "the closed popover's items to leave the scene");
            assertTrue(misplaced.isEmpty(), "the item Advanced, drawn at " + open.x + "," + open.y
                + " while the popover was open, was placed outside it after: " + misplaced);
            Await.probe(() -> actionable(window, Role.BUTTON, "log"), t -> t != null, Duration.ofSeconds(30),
                t -> "the advanced keypad's log key: the click on the item took effect");
        } finally {
            desktop.closeApp(calculator);
        }
    }

    /** A target's id, where it is and the generation it was seen in. */
    private record Item(long targetId, int x, int y, long generation) {
    }

    /** The actionable target of {@code role} in {@code window} whose text starts with {@code text}, or null. */
    private Item actionable(final long window, final int role, final String text) throws Exception {
        final CompletionFlyweight c = ActionEffectsDesktopTest.query(client, role, text, TextMatch.PREFIX);
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = new TargetFlyweight().wrap(c.bytes(), c.offset() + c.targetsOffset()
                + (long) i * c.targetStride());
            if (t.windowId() == window && (t.flags() & TargetFlag.ACTIONABLE) != 0) {
                return new Item(t.targetId(), t.boundsXQ8() >> 8, t.boundsYQ8() >> 8, c.generation().generation());
            }
        }
        return null;
    }

    private void click(final long target, final String what) throws Exception {
        FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, new byte[0],
            a -> a.kind(ActionKind.CLICK).targetId(target).buttonBits(Button.LEFT), 0), "click " + what);
    }
}
