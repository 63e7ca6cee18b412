package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.desktop.AccessibilityNode;
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
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A GTK 4 application (gnome-calculator) read and driven through the scene: its buttons are
 * actionable targets whose bounds lie inside its X window (GTK 4 answers extents relative to the
 * window, D46), and clicking 7 × 6 = at those bounds makes the calculator show 42, read from the
 * application itself (AT-SPI {@code Text.GetText} of its display, not our scene).
 */
@WithTestDesktop(apps = {})
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class Gtk4CalculatorDesktopTest extends OwnedDesktopTest {

    @Test
    void buttonsAreActionableOnScreenAndClickingThemComputes() throws Exception {
        final AppHandle calculator = desktop.startApp(DemoApp.GNOME_CALCULATOR);
        try {
            final AccessibilityNode display = display(owner, calculator.pid());
            final String[] keys = {"7", "×", "6", "="};
            final String[] after = {"7", "7×", "7×6", "42"};
            for (int k = 0; k < keys.length; k++) {
                final long button = button(calculator, keys[k]);
                final String key = keys[k];
                FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, new byte[0],
                    a -> a.kind(ActionKind.CLICK).targetId(button).buttonBits(Button.LEFT), 0), "click " + key);
                // each key's effect, read from the calculator before the next: as an agent checks its step
                final String expected = after[k];
                final String shown = Await.probe(() -> owner.service.accessibility()
                        .readText(display, System.nanoTime() + TimeUnit.SECONDS.toNanos(5)).get(10, TimeUnit.SECONDS),
                    expected::equals, Duration.ofSeconds(20), text -> "the display to show " + expected + " after "
                        + key + "; last '" + text + "'");
                assertEquals(expected, shown, "what gnome-calculator shows, read from it");
            }
        } finally {
            desktop.closeApp(calculator);
        }
    }

    /**
     * The actionable button whose text starts with {@code key}, inside the calculator's window:
     * its bounds within the window's, so a click at its safe point lands on it.
     */
    private long button(final AppHandle app, final String key) throws Exception {
        return Await.probe(() -> {
            final CompletionFlyweight c = ActionEffectsDesktopTest.query(client, Role.BUTTON, key, TextMatch.PREFIX);
            final int[] frame = windowBounds(app.windowId());
            for (int i = 0; i < c.targetCount(); i++) {
                final TargetFlyweight t = new TargetFlyweight().wrap(c.bytes(), c.offset() + c.targetsOffset()
                    + (long) i * c.targetStride());
                final int x = t.boundsXQ8() >> 8;
                final int y = t.boundsYQ8() >> 8;
                if (t.windowId() == app.windowId() && (t.flags() & TargetFlag.ACTIONABLE) != 0 && frame != null
                    && x > frame[0] && y > frame[1] && x + (t.boundsWidthQ8() >> 8) <= frame[0] + frame[2]
                    && y + (t.boundsHeightQ8() >> 8) <= frame[1] + frame[3]) {
                    return t.targetId();
                }
            }
            return 0L;
        }, id -> id != 0, Duration.ofSeconds(60), id -> "an actionable button '" + key + "' inside the window");
    }

    /** The window's bounds in the scene (x, y, width, height), or null while it is not there. */
    private int[] windowBounds(final long window) throws Exception {
        final CompletionFlyweight c = ActionEffectsDesktopTest.query(client, Role.WINDOW, null, TextMatch.EXACT);
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = new TargetFlyweight().wrap(c.bytes(), c.offset() + c.targetsOffset()
                + (long) i * c.targetStride());
            if (t.windowId() == window && t.parentId() == 0) {
                return new int[] {t.boundsXQ8() >> 8, t.boundsYQ8() >> 8, t.boundsWidthQ8() >> 8, t.boundsHeightQ8() >> 8};
            }
        }
        return null;
    }

    /** The calculator's display: its one editable text field, in the source's latest tree. */
    static AccessibilityNode display(final DesktopOwner owner, final long pid) {
        return Await.value(() -> {
            for (final AccessibilityNode n : owner.service.accessibility().latest().nodes()) {
                if (n.pid() == pid && n.role() == Role.TEXT_FIELD) {
                    return n;
                }
            }
            return null;
        }, Objects::nonNull, Duration.ofSeconds(30), none -> "the calculator's display in the accessibility tree");
    }
}
