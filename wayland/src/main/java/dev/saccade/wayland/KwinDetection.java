package dev.saccade.wayland;

import java.io.IOException;

/**
 * Whether a Wayland display is KWin's, from the globals its compositor announces: one that only
 * KWin has (its virtual desktop management or output device, which every client sees; its fake
 * input or window management where granted) and none of wlroots' virtual devices. Not from
 * {@code XDG_CURRENT_DESKTOP}: that names the session this process was started in, which need not
 * be the display it serves (a nested or headless compositor). The owner's backend choice and the
 * input helper's both ask it, so they always agree.
 */
public final class KwinDetection {
    private static final String[] KWIN_GLOBALS = {
        "org_kde_plasma_virtual_desktop_management", "kde_output_device_v2", "org_kde_kwin_fake_input",
        "org_kde_plasma_window_management"};

    private KwinDetection() {
    }

    /** {@code socket}: a name in XDG_RUNTIME_DIR or an absolute path, as {@link WaylandConnection#connect}. */
    public static boolean isKwin(final String socket) {
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
