package dev.saccade.helper;

import dev.saccade.wayland.WaylandConnection;
import java.io.IOException;

/**
 * Whether a Wayland display is KWin's: the session says so ({@code XDG_CURRENT_DESKTOP} names
 * KDE) or the compositor announces a KWin-only global (its fake input, its window management or
 * its server decoration manager) and none of wlroots' virtual devices. Decided once per open.
 */
final class KwinSession {
    private static final String[] KWIN_GLOBALS = {
        "org_kde_kwin_fake_input", "org_kde_plasma_window_management", "org_kde_kwin_server_decoration_manager"};

    private KwinSession() {
    }

    static boolean is(final String socket) {
        final String desktop = System.getenv("XDG_CURRENT_DESKTOP");
        if (desktop != null && desktop.toUpperCase(java.util.Locale.ROOT).contains("KDE")) {
            return true;
        }
        try (WaylandConnection connection = WaylandConnection.connect(socket)) {
            if (connection.global("zwp_virtual_keyboard_manager_v1") != null) {
                return false;
            }
            for (final String name : KWIN_GLOBALS) {
                if (connection.global(name) != null) {
                    return true;
                }
            }
            return false;
        } catch (final IOException | UnsatisfiedLinkError e) {
            return false; // the backend's own connect reports the failure
        }
    }
}
