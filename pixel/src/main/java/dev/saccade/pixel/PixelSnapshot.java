package dev.saccade.pixel;

import java.util.Map;

/**
 * What the pixel source read, immutable: one {@link PixelWindow} per window it serves, by X id.
 * A window it serves but has not read yet is absent.
 */
public record PixelSnapshot(long sequence, long captureNs, Map<Long, PixelWindow> windows) {
    public PixelSnapshot {
        windows = Map.copyOf(windows);
    }

    public boolean incomplete() {
        for (final PixelWindow w : windows.values()) {
            if (w.incomplete()) {
                return true;
            }
        }
        return false;
    }
}
