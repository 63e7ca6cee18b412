package dev.saccade.cli;

import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.MonitorInfo;
import dev.saccade.wayland.KwinDetection;
import dev.saccade.wayland.SwayIpc;
import dev.saccade.wayland.WaylandConnection;
import dev.saccade.wlroots.SwayDesktopReader;
import dev.saccade.wlroots.ToplevelDesktopReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * What {@code saccade up} and {@code saccade doctor} need to know of a Wayland session: whether
 * this is one ({@code wayland:<socket>}, or WAYLAND_DISPLAY in a Wayland session), which
 * compositor it is, which of the protocols Saccade uses it offers, and what is missing. Input and
 * capture need the wlroots protocols; windows come from sway's IPC, or without it from
 * foreign-toplevel (no geometry or pid: approximate bounds, docs/wayland.md §1). A GNOME session
 * is checked by {@link GnomeSession} (docs/desktops/gnome.md).
 */
final class WaylandSession {
    static final String PREFIX = "wayland:";
    private static final String FOREIGN_TOPLEVEL = "zwlr_foreign_toplevel_manager_v1";
    /** The globals Saccade uses: interface name and what it is for. */
    static final String[][] PROTOCOLS = {
        {"zwp_virtual_keyboard_manager_v1", "keys and text (input helper)"},
        {"zwlr_virtual_pointer_manager_v1", "pointer moves, clicks and scrolls (input helper)"},
        {"zwlr_screencopy_manager_v1", "pixel capture"},
        {"zwlr_foreign_toplevel_manager_v1", "window list on wlroots compositors without sway's IPC (approximate bounds)"},
        {"wl_seat", "the seat the virtual devices join"},
        {"wl_output", "outputs: the layout's extent for absolute pointer motion"},
    };

    private WaylandSession() {
    }

    /**
     * The Wayland display to serve, {@code wayland:<socket>}, or null for X11: an explicit
     * {@code wayland:} display, else WAYLAND_DISPLAY when DISPLAY is unset or the session says it
     * is Wayland (XDG_SESSION_TYPE=wayland).
     */
    static String displayToServe(final String explicit) {
        if (explicit != null) {
            return explicit.startsWith(PREFIX) ? explicit : null;
        }
        final String wayland = System.getenv("WAYLAND_DISPLAY");
        final String x11 = System.getenv("DISPLAY");
        if (wayland == null || wayland.isEmpty()) {
            return null;
        }
        return x11 == null || x11.isEmpty() || "wayland".equals(System.getenv("XDG_SESSION_TYPE")) ? PREFIX + wayland : null;
    }

    /**
     * Checks the session for {@code saccade doctor}: reports through ok, info and problem (line,
     * fix) and returns the desktop as sway shows it, or null.
     */
    private static String outputs(final DesktopSnapshot s) {
        final StringBuilder outputs = new StringBuilder();
        for (final MonitorInfo m : s.monitors()) {
            outputs.append(outputs.length() == 0 ? "" : ", ").append(m.name()).append(' ').append(m.width())
                .append('x').append(m.height()).append('+').append(m.x()).append('+').append(m.y());
        }
        return outputs.toString();
    }

    /**
     * Whether the owner can list this session's windows: sway's IPC, KWin (its scripting), or
     * foreign-toplevel (whose bounds are approximate); {@code saccade up} serves such a session.
     */
    static boolean listsWindows(final String socket) {
        if (SwayIpc.locate(socket) != null || KwinDetection.isKwin(socket) || GnomeSession.isGnome(PREFIX + socket)) {
            return true;
        }
        try (WaylandConnection connection = WaylandConnection.connect(socket)) {
            return connection.global(FOREIGN_TOPLEVEL) != null;
        } catch (final IOException | UnsatisfiedLinkError e) {
            return false;
        }
    }

    static DesktopSnapshot check(final String display, final Consumer<String> ok, final Consumer<String> info,
        final BiConsumer<String, String> problem) {
        if (GnomeSession.isGnome(display)) {
            return GnomeSession.check(display, ok, info, problem);
        }
        final String socket = display.substring(PREFIX.length());
        final List<String> missing = new ArrayList<>();
        try (WaylandConnection connection = WaylandConnection.connect(socket)) {
            for (final String[] p : PROTOCOLS) {
                final WaylandConnection.Global g = connection.global(p[0]);
                if (g != null) {
                    ok.accept("wayland protocol " + p[0] + " v" + g.version() + ": " + p[1]);
                } else {
                    missing.add(p[0]);
                    problem.accept("wayland protocol " + p[0] + " is not offered: no " + p[1],
                        "use a wlroots compositor (sway, Hyprland, river, labwc); GNOME and KDE are not supported yet");
                }
            }
            if (connection.global("org_kde_kwin_fake_input") != null) {
                info.accept("compositor offers org_kde_kwin_fake_input (KDE): designed in docs/wayland.md, unverified, not used");
            }
        } catch (final IOException | UnsatisfiedLinkError e) {
            problem.accept("wayland display " + socket + ": cannot connect (" + e.getMessage() + ")",
                "run inside the Wayland session, or set WAYLAND_DISPLAY (install libwayland-client0)");
            return null;
        }
        final Path ipc = ToplevelDesktopReader.forced() ? null : SwayIpc.locate(socket);
        if (ipc == null && !missing.contains(FOREIGN_TOPLEVEL)) {
            try {
                final DesktopSnapshot s = ToplevelDesktopReader.readOnce(socket);
                ok.accept("compositor: no sway IPC used; windows from " + FOREIGN_TOPLEVEL
                    + " (titles and states; no geometry or pid: each window has its output's bounds, marked approximate)");
                ok.accept("display " + display + ": " + s.windows().size() + " windows, outputs " + outputs(s)
                    + (missing.isEmpty() ? "" : "; missing " + missing));
                return s;
            } catch (final IOException | RuntimeException e) {
                problem.accept("display " + display + ": cannot read " + FOREIGN_TOPLEVEL + " (" + e.getMessage() + ")",
                    "restart the compositor");
                return null;
            }
        }
        if (ipc == null) {
            problem.accept("compositor: no sway IPC socket (SWAYSOCK) beside " + socket + " and no " + FOREIGN_TOPLEVEL + ": no window list",
                "run sway, or set SWAYSOCK, or use a wlroots compositor offering " + FOREIGN_TOPLEVEL);
            return null;
        }
        try (SwayIpc sway = SwayIpc.connect(ipc)) {
            final String version = sway.request(SwayIpc.GET_VERSION, "");
            final int at = version.indexOf("\"human_readable\"");
            final String human = at < 0 ? "?" : version.substring(version.indexOf('"', at + 17) + 1,
                version.indexOf('"', version.indexOf('"', at + 17) + 1));
            ok.accept("compositor: sway " + human + " (IPC " + ipc + ")");
        } catch (final IOException | RuntimeException e) {
            problem.accept("compositor: sway IPC " + ipc + " does not answer (" + e.getMessage() + ")", "restart sway");
            return null;
        }
        try {
            final DesktopSnapshot s = SwayDesktopReader.readOnce(ipc);
            ok.accept("display " + display + ": " + s.windows().size() + " windows, outputs " + outputs(s)
                + (missing.isEmpty() ? "" : "; missing " + missing));
            return s;
        } catch (final IOException | RuntimeException e) {
            problem.accept("display " + display + ": cannot read sway's tree (" + e.getMessage() + ")", "restart sway");
            return null;
        }
    }
}
