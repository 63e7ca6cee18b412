package dev.saccade.kde;

import dev.saccade.desktop.DesktopBackend;
import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.ScreenCapture;
import dev.saccade.wayland.KwinDetection;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * The desktop backend of a KDE Plasma Wayland session: a {@code wayland:<socket>} display whose
 * compositor is KWin ({@link KwinDetection}: KWin's own Wayland globals). Windows
 * come from a KWin script over the session bus ({@link KwinWindowReader}, D37). Pixels would
 * come from KWin's ScreenShot2 interface, which KWin 5.27 serves only with OpenGL compositing;
 * this backend offers no capture yet (docs/desktops/kde.md §1), so the pixel source is off.
 * Asked before the wlroots backend, which would take any Wayland display.
 */
public final class KdeBackend implements DesktopBackend {
    public static final String PREFIX = "wayland:";

    private final String sessionBus;

    /** {@code sessionBus}: the D-Bus session bus KWin is on (null: none, and {@link #start} fails). */
    public KdeBackend(final String sessionBus) {
        this.sessionBus = sessionBus;
    }

    @Override
    public boolean reads(final String display) {
        return display != null && display.startsWith(PREFIX) && KwinDetection.isKwin(display.substring(PREFIX.length()));
    }

    @Override
    public Runnable start(final String display, final Consumer<DesktopSnapshot> listener) throws IOException {
        return new KwinWindowReader(display.substring(PREFIX.length()), sessionBus, listener).start()::close;
    }

    @Override
    public ScreenCapture openCapture(final String display) {
        throw new IllegalStateException("no screen capture on KWin yet: its ScreenShot2 interface needs OpenGL"
            + " compositing and a grant (docs/desktops/kde.md)");
    }
}
