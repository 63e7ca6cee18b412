package dev.saccade.owner;

import dev.saccade.desktop.DesktopBackend;
import dev.saccade.gnome.GnomeBackend;
import dev.saccade.kde.KdeBackend;
import dev.saccade.wlroots.WlrootsBackend;
import dev.saccade.x11.X11Backend;
import java.util.List;

/**
 * The desktop backends the owner knows, in the order it asks them which reads its display:
 * those whose displays carry a prefix first (GNOME before wlroots: both read {@code wayland:}
 * displays, and GNOME's is the one told by its session bus), X11 (any other display string) last. A new
 * platform module adds its backend here. The wlroots backend gets X11's for the child windows
 * of XWayland windows in its capture. KDE's comes first among the Wayland ones (it reads only
 * KWin's displays, wlroots any) and is made per call, with the session bus KWin is on.
 */
public final class DesktopBackends {
    private static final X11Backend X11 = new X11Backend();
    static final List<DesktopBackend> ALL = List.of(new GnomeBackend(OwnerConfiguration::sessionBus),
        new WlrootsBackend(X11), X11);

    private DesktopBackends() {
    }

    /** The first backend that reads {@code display}, KWin's on the session bus of {@link OwnerConfiguration}. */
    public static DesktopBackend of(final String display) {
        return of(display, OwnerConfiguration.sessionBus());
    }

    /** The first backend that reads {@code display}; {@code sessionBus} is the bus a KWin session is read over. */
    public static DesktopBackend of(final String display, final String sessionBus) {
        final KdeBackend kde = new KdeBackend(sessionBus);
        if (kde.reads(display)) {
            return kde;
        }
        for (final DesktopBackend backend : ALL) {
            if (backend.reads(display)) {
                return backend;
            }
        }
        throw new IllegalArgumentException("no desktop backend reads display " + display);
    }
}
