package dev.saccade.helper;

import dev.saccade.helper.backend.BackendUnavailableException;
import dev.saccade.helper.backend.InputBackend;
import dev.saccade.helper.backend.UserInputListener;
import dev.saccade.helper.backend.mutter.MutterBackend;
import dev.saccade.helper.backend.wayland.WaylandBackend;
import dev.saccade.helper.backend.xtest.UserInputMonitor;
import dev.saccade.helper.backend.xtest.XTestBackend;
import dev.saccade.wayland.KwinDetection;
import dev.saccade.wayland.SwayIpc;

/**
 * Picks the input backend for the helper's {@code --display}: {@code wayland:<socket>} (a socket
 * name in XDG_RUNTIME_DIR or an absolute path) is a wlroots compositor through virtual keyboard
 * and pointer ({@link WaylandBackend}), KWin through its fake input when the compositor is KWin
 * ({@link KwinDetection}), or GNOME through mutter's RemoteDesktop session ({@link MutterBackend})
 * when the session bus has it; anything else is an X display through XTest. Only X11 has
 * a user-input monitor: a Wayland client cannot see other devices' input (docs/architecture.md, "Release paths of held input").
 */
public final class HelperBackends {
    public static final String WAYLAND_PREFIX = "wayland:";

    private HelperBackends() {
    }

    public static boolean isWayland(final String display) {
        return display != null && display.startsWith(WAYLAND_PREFIX);
    }

    /** The display a helper started without --display serves: DISPLAY, else the Wayland session's. */
    public static String defaultDisplay() {
        final String x = System.getenv("DISPLAY");
        final String wayland = System.getenv("WAYLAND_DISPLAY");
        if ((x == null || x.isEmpty()) && wayland != null && !wayland.isEmpty()) {
            return WAYLAND_PREFIX + wayland;
        }
        return x;
    }

    public static InputBackend open(final String display) throws BackendUnavailableException {
        if (isWayland(display)) {
            final String socket = display.substring(WAYLAND_PREFIX.length());
            if (KwinDetection.isKwin(socket)) {
                return WaylandBackend.openKde(socket);
            }
            // GNOME offers none of the wlroots protocols: its session bus has mutter's RemoteDesktop.
            final String bus = MutterBackend.sessionBusOf(socket, System.getenv("DBUS_SESSION_BUS_ADDRESS"));
            if (MutterBackend.isGnome(bus)) {
                return MutterBackend.open(bus);
            }
            return WaylandBackend.open(socket, SwayIpc.locate(socket));
        }
        return XTestBackend.open(display);
    }

    /** The user-input monitor of {@code display}; a no-op where the platform shows us none. */
    public static AutoCloseable monitor(final String display, final UserInputListener listener)
        throws BackendUnavailableException {
        if (isWayland(display)) {
            return () -> { };
        }
        return UserInputMonitor.start(display, listener);
    }
}
