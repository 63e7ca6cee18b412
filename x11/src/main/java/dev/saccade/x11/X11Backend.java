package dev.saccade.x11;

import dev.saccade.desktop.DesktopBackend;
import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.ScreenCapture;
import java.util.function.Consumer;

/**
 * The X11 desktop backend: an {@link X11DesktopReader} on the display, and {@link X11Capture}
 * (MIT-SHM and DAMAGE) for its pixels. It reads any display string, so the owner asks it last,
 * after the backends whose displays carry a prefix.
 */
public final class X11Backend implements DesktopBackend {
    @Override
    public boolean reads(final String display) {
        return true;
    }

    @Override
    public Runnable start(final String display, final Consumer<DesktopSnapshot> listener) {
        return new X11DesktopReader(display, listener).start()::close;
    }

    @Override
    public ScreenCapture openCapture(final String display) {
        return X11Capture.open(display);
    }
}
