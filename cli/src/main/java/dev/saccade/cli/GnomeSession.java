package dev.saccade.cli;

import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.gnome.GnomeBackend;
import dev.saccade.gnome.ShellExtension;
import dev.saccade.owner.OwnerConfiguration;
import java.io.IOException;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * What {@code saccade doctor} and {@code saccade up} need to know of a GNOME session
 * (docs/desktops/gnome.md): that it is one (mutter's RemoteDesktop and GNOME Shell on the session
 * bus), that input needs no consent there (mutter's RemoteDesktop D-Bus API serves the
 * session's own user; the portal path, which asks, is not implemented), and whether Saccade's
 * Shell extension answers, with the exact steps when it does not.
 */
final class GnomeSession {
    private GnomeSession() {
    }

    static GnomeBackend backend() {
        return new GnomeBackend(OwnerConfiguration::sessionBus);
    }

    /** Whether {@code display} ({@code wayland:<socket>}) is a GNOME session's. */
    static boolean isGnome(final String display) {
        return backend().reads(display);
    }

    /** Checks the session; returns the desktop as the extension lists it, or null. */
    static DesktopSnapshot check(final String display, final Consumer<String> ok, final Consumer<String> info,
        final BiConsumer<String, String> problem) {
        final GnomeBackend backend = backend();
        ok.accept("desktop backend: GNOME (mutter's RemoteDesktop and GNOME Shell on the session bus)");
        ok.accept("input: mutter's RemoteDesktop D-Bus session, open to this user's own processes without a dialog");
        info.accept("the RemoteDesktop portal path (a consent dialog and a restore token) is not implemented");
        try {
            final DesktopSnapshot s = backend.readOnce(display);
            ok.accept("windows and pixels: GNOME Shell extension " + ShellExtension.UUID + ": " + s.windows().size()
                + " windows, " + s.monitors().size() + " monitors");
            return s;
        } catch (final IOException e) {
            problem.accept("GNOME Shell extension " + ShellExtension.UUID + " does not answer: no window list or pixels",
                "run `saccade install --gnome-extension`, log out and in again (GNOME on Wayland loads new extensions "
                    + "at login), then check that `gnome-extensions info " + ShellExtension.UUID + "` says ENABLED");
            return null;
        }
    }
}
