package dev.saccade.cli;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.GnomeDesktop;
import dev.saccade.demodesktop.SwayApp;
import dev.saccade.gnome.ShellExtension;
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
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A GTK 4 popover on GNOME's Wayland session driven by its targets (D64 on Wayland): the popover
 * is an {@code xdg_popup} surface the Shell extension lists as a dropdown menu, at its buffer
 * rectangle; gnome-calculator (a native Wayland client) reports the popover's items relative to
 * its mode button, so they are placed by that surface. Proof is the application's: after the
 * item Advanced is clicked by its target, its own accessible tree (read with dbus-send) holds the
 * Advanced keypad's log key. Placed by the main window instead, the item lay 106 px right of
 * where it is drawn, and a click near its right end missed the popover.
 */
@Tag("desktop")
@Timeout(300)
class GnomePopoverDesktopTest {
    private static GnomeDesktop gnome;

    @BeforeAll
    static void startGnome() {
        gnome = GnomeDesktop.start(1280, 800, "us", ShellExtension.UUID, ShellExtension.files());
    }

    @AfterAll
    static void stopGnome() {
        if (gnome != null) {
            gnome.close();
        }
    }

    @Test
    void anItemOfAWaylandPopoverIsClickedByItsTarget() throws Exception {
        final SwayApp calculator = gnome.launch("calculator", Map.of("GDK_BACKEND", "wayland"), "gnome-calculator");
        try (DesktopOwner owner = DesktopOwner.onDisplay("wayland:" + gnome.waylandSocket(), gnome.busAddress(),
            "saccade-gnome-popover"); AgentClient client = owner.connect()) {
            final Item mode = Await.probe(() -> actionable(client, Role.BUTTON, "Basic"), t -> t != null,
                Duration.ofSeconds(60), t -> "the calculator's mode button");
            click(client, mode.targetId, "the mode menu button");
            final Item advanced = Await.probe(() -> actionable(client, Role.RADIO, "Advanced"), t -> t != null,
                Duration.ofSeconds(30), t -> "the popover's item Advanced");
            // the pointer near the item's right end, where the scene puts it (a plain CLICK may go
            // through the item's own action, which works wherever the scene puts it); placed by the
            // main window the item lay 106 px right of and 13 px above the popover's, and this
            // point beyond the popover
            FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, new byte[0], a -> a.kind(ActionKind.CLICK)
                .flags(ActionFlag.EXPLICIT_POINTS).targetId(advanced.targetId).point(advanced.rightXQ8 - (8 << 8),
                    advanced.centreYQ8).buttonBits(Button.LEFT), 0), "click Advanced in the popover near its right end");
            Await.until(() -> gnome.accessibleObjects(calculator.pid()).stream().anyMatch(a -> a.isButton()
                && a.name() != null && a.name().startsWith("log")), Duration.ofSeconds(30),
                () -> "the calculator's advanced keypad (a log key in its own tree) after the click on Advanced");
        }
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

    private static void click(final AgentClient client, final long target, final String what) throws Exception {
        FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, new byte[0],
            a -> a.kind(ActionKind.CLICK).targetId(target).buttonBits(Button.LEFT), 0), "click " + what);
    }
}
