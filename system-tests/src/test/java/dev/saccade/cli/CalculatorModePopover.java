package dev.saccade.cli;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.SwayDesktop;
import dev.saccade.protocol.ActionFlag;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TextMatch;
import dev.saccade.testsupport.Await;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * gnome-calculator's mode popover driven by its targets on a Wayland session (D71, D72): the
 * popover opened by the mode button's target, its item Advanced clicked by an explicit point near
 * the item's right end, and the Advanced keypad's log key awaited in the calculator's own tree.
 * A plain CLICK may go through the item's own action, which works wherever the scene puts it;
 * placed by the main window the item lay 106 px right of and 13 px above the drawn popover, and
 * this point beyond it, so the click misses and the keypad never comes.
 */
final class CalculatorModePopover {
    private CalculatorModePopover() {
    }

    /** {@code tree}: the calculator's accessible objects, read by the test from the application. */
    static void chooseAdvanced(final AgentClient client, final Supplier<List<SwayDesktop.Accessible>> tree)
        throws Exception {
        final Item mode = Await.probe(() -> actionable(client, Role.BUTTON, "Basic"), t -> t != null,
            Duration.ofSeconds(60), t -> "the calculator's mode button");
        FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, new byte[0],
            a -> a.kind(ActionKind.CLICK).targetId(mode.targetId).buttonBits(Button.LEFT), 0), "click the mode button");
        final Item advanced = Await.probe(() -> actionable(client, Role.RADIO, "Advanced"), t -> t != null,
            Duration.ofSeconds(30), t -> "the popover's item Advanced");
        FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, new byte[0], a -> a.kind(ActionKind.CLICK)
            .flags(ActionFlag.EXPLICIT_POINTS).targetId(advanced.targetId).point(advanced.rightXQ8 - (8 << 8),
                advanced.centreYQ8).buttonBits(Button.LEFT), 0), "click Advanced in the popover near its right end");
        Await.until(() -> tree.get().stream().anyMatch(a -> a.isButton() && a.name() != null
            && a.name().startsWith("log")), Duration.ofSeconds(30),
            () -> "the calculator's advanced keypad (a log key in its own tree) after the click on Advanced");
    }

    /** A target's id, right edge and vertical centre (Q8). */
    private record Item(long targetId, int rightXQ8, int centreYQ8) {
    }

    /** The actionable target of {@code role} whose text starts with {@code text}, or null. */
    private static Item actionable(final AgentClient client, final int role, final String text) throws Exception {
        final CompletionFlyweight c = ActionEffectsDesktopTest.query(client, role, text, TextMatch.PREFIX);
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = new TargetFlyweight().wrap(c.bytes(), c.offset() + c.targetsOffset()
                + (long) i * c.targetStride());
            if ((t.flags() & TargetFlag.ACTIONABLE) != 0) {
                return new Item(t.targetId(), t.boundsXQ8() + t.boundsWidthQ8(), t.boundsYQ8() + t.boundsHeightQ8() / 2);
            }
        }
        return null;
    }
}
