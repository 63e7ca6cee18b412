package dev.saccade.wlroots;

import dev.saccade.desktop.DesktopBackend;
import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.ScreenCapture;
import dev.saccade.wayland.SwayIpc;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The owner's display string for a Wayland session, {@code wayland:<socket>} (the same one the
 * input helper takes, its {@code HelperBackends}), and the desktop reader it gets: sway's IPC
 * beside that socket ({@link SwayIpc#locate}), which has everything foreign-toplevel has plus
 * geometry and pid; without it (or with {@code saccade.wayland.windows=foreign-toplevel}) the
 * {@code zwlr_foreign_toplevel_manager_v1} reader, whose bounds are approximate (docs/wayland.md
 * §1). GNOME and KDE offer neither (designed in docs/wayland.md, unverified). Its pixels are
 * screencopy's ({@link WaylandCapture}); the child windows of XWayland windows come from the
 * capture of the backend given for XWayland's display, so this module links no X11 code.
 */
public final class WlrootsBackend implements DesktopBackend {
    public static final String PREFIX = "wayland:";
    public static final String WINDOWS_PROPERTY = WaylandConfiguration.WINDOWS_PROP_NAME;
    public static final String FOREIGN_TOPLEVEL = WaylandConfiguration.FOREIGN_TOPLEVEL;

    private final DesktopBackend xwayland;

    /** A backend whose capture reads no XWayland child windows. */
    public WlrootsBackend() {
        this(null);
    }

    /** A backend whose capture reads XWayland windows' children through {@code xwayland}'s capture (the X11 backend). */
    public WlrootsBackend(final DesktopBackend xwayland) {
        this.xwayland = xwayland;
    }

    public static boolean isWayland(final String display) {
        return display != null && display.startsWith(PREFIX);
    }

    @Override
    public boolean reads(final String display) {
        return isWayland(display);
    }

    /** Starts the reader for {@code display}; the returned action closes it. */
    @Override
    public Runnable start(final String display, final Consumer<DesktopSnapshot> listener)
        throws IOException {
        final String socket = display.substring(PREFIX.length());
        final Path ipc = ToplevelDesktopReader.forced() ? null : SwayIpc.locate(socket);
        if (ipc == null) {
            return new ToplevelDesktopReader(socket, listener).start()::close;
        }
        return new SwayDesktopReader(ipc, listener).start()::close;
    }

    /** Screencopy on the compositor of {@code display}, a {@code wayland:<socket>} display string. */
    @Override
    public ScreenCapture openCapture(final String display) {
        return WaylandCapture.open(display.substring(PREFIX.length()), xwayland);
    }
}
