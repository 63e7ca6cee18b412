package dev.saccade.cli;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.GnomeDesktop;
import dev.saccade.demodesktop.SwayApp;
import dev.saccade.gnome.ShellExtension;
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
            CalculatorModePopover.chooseAdvanced(client, () -> gnome.accessibleObjects(calculator.pid()));
        }
    }
}
