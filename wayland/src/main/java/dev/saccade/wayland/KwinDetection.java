package dev.saccade.wayland;

import java.io.IOException;
import java.util.Locale;

/**
 * Whether a Wayland display is KWin's: the session says so ({@code XDG_CURRENT_DESKTOP} names
 * KDE) or the compositor announces a global only KWin has (its server decoration manager, which
 * every client sees, or its fake input and window management where granted) and none of
 * wlroots' virtual devices. The owner's backend choice and the input helper's both ask it, so
 * they always agree.
 */
public final class KwinDetection {
    private static final String[] KWIN_GLOBALS = {
        "org_kde_kwin_server_decoration_manager", "org_kde_kwin_fake_input", "org_kde_plasma_window_management"};

    private KwinDetection() {
    }

    /** {@code socket}: a name in XDG_RUNTIME_DIR or an absolute path, as {@link WaylandConnection#connect}. */
    public static boolean isKwin(final String socket) {
        final String desktop = System.getenv("XDG_CURRENT_DESKTOP");
        if (desktop != null && desktop.toUpperCase(Locale.ROOT).contains("KDE")) {
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
            return false; // not a display we can read at all: the caller's own connect reports why
        }
    }
}
