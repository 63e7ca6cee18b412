package dev.saccade.cli;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.KdeDesktop;
import dev.saccade.demodesktop.SwayApp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A GTK 4 popover on KDE Plasma's Wayland session (KWin 5.27) driven by its targets (D72): KWin
 * lists the popover's {@code xdg_popup} surface as a popup client, whose buffer geometry is the
 * size gnome-calculator (a native Wayland client) reports for the popover's root, so its items are
 * placed by that surface. Proof is the application's: after the item Advanced is clicked by its
 * target, its own accessible tree (read with dbus-send) holds the Advanced keypad's log key.
 * Placed by the main window instead, the item lay 106 px right of and 13 px above where it is
 * drawn, and a click near its right end missed the popover.
 */
@Tag("desktop")
@Timeout(300)
class KdePopoverDesktopTest {
    private static KdeDesktop kde;

    @BeforeAll
    static void startKde() {
        kde = KdeDesktop.start(1280, 800, "us");
    }

    @AfterAll
    static void stopKde() {
        if (kde != null) {
            kde.close();
        }
    }

    @Test
    void anItemOfAWaylandPopoverIsClickedByItsTarget() throws Exception {
        final SwayApp calculator = kde.launch("calculator", "gnome-calculator");
        kde.place(calculator.pid(), 100, 100);
        try (DesktopOwner owner = DesktopOwner.onDisplay("wayland:" + kde.waylandSocket(), kde.busAddress(),
            "saccade-kde-popover"); AgentClient client = owner.connect()) {
            CalculatorModePopover.chooseAdvanced(client, () -> kde.accessibleObjects(calculator.pid()));
        }
    }
}
