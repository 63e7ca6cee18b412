package dev.saccade.pixel;

import dev.saccade.x11.X11Capture;
import java.util.List;

/** {@link X11Capture} as a {@link PixelCapture}. */
final class X11PixelCapture implements PixelCapture {
    private final X11Capture x;

    X11PixelCapture(final X11Capture x) {
        this.x = x;
    }

    @Override
    public int screenWidth() {
        return x.screenWidth();
    }

    @Override
    public int screenHeight() {
        return x.screenHeight();
    }

    @Override
    public long captures() {
        return x.captures();
    }

    @Override
    public boolean capture(final int px, final int py, final int width, final int height, final int[] out) {
        return x.capture(px, py, width, height, out);
    }

    @Override
    public void descendants(final long window, final List<int[]> out) {
        x.descendants(window, out);
    }

    @Override
    public int drainDamage(final X11Capture.DamageSink sink) {
        return x.drainDamage(sink);
    }

    @Override
    public int await(final int wakeFd, final int timeoutMs) {
        return x.await(wakeFd, timeoutMs);
    }

    @Override
    public void close() {
        x.close();
    }
}
