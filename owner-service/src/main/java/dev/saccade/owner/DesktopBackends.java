package dev.saccade.owner;

import dev.saccade.desktop.DesktopBackend;
import dev.saccade.wlroots.WlrootsBackend;
import dev.saccade.x11.X11Backend;
import java.util.List;

/**
 * The desktop backends the owner knows, in the order it asks them which reads its display:
 * those whose displays carry a prefix first, X11 (any other display string) last. A new
 * platform module adds its backend here.
 */
final class DesktopBackends {
    static final List<DesktopBackend> ALL = List.of(new WlrootsBackend(), new X11Backend());

    private DesktopBackends() {
    }

    /** The first backend that reads {@code display}. */
    static DesktopBackend of(final String display) {
        for (final DesktopBackend backend : ALL) {
            if (backend.reads(display)) {
                return backend;
            }
        }
        throw new IllegalArgumentException("no desktop backend reads display " + display);
    }
}
