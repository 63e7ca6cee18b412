package dev.saccade.owner;

import dev.saccade.owner.wayland.SwayDesktopReader;
import dev.saccade.owner.x11.DesktopSnapshot;
import dev.saccade.wayland.SwayIpc;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The owner's display string for a Wayland session, {@code wayland:<socket>} (the same one the
 * input helper takes, its {@code HelperBackends}), and the desktop reader it gets: sway's IPC
 * beside that socket ({@link SwayIpc#locate}). A compositor without sway's IPC has no reader yet
 * (GNOME and KDE are designed in docs/wayland.md, unverified).
 */
final class WaylandDesktop {
    static final String PREFIX = "wayland:";

    private WaylandDesktop() {
    }

    static boolean isWayland(final String display) {
        return display != null && display.startsWith(PREFIX);
    }

    static SwayDesktopReader startReader(final String display, final Consumer<DesktopSnapshot> listener)
        throws IOException {
        final String socket = display.substring(PREFIX.length());
        final Path ipc = SwayIpc.locate(socket);
        if (ipc == null) {
            throw new IOException("no sway IPC socket for Wayland display " + socket
                + " (set SWAYSOCK; compositors without sway's IPC are not supported yet)");
        }
        return new SwayDesktopReader(ipc, listener).start();
    }
}
