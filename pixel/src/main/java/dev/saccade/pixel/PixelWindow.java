package dev.saccade.pixel;

import java.util.List;

/**
 * The pixel source's reading of one window: its X id, the size it had, the hash of the pixels
 * read (an unchanged window is not read again), the elements found, and whether a deadline or a
 * budget cut the reading short.
 */
public record PixelWindow(long xid, int width, int height, long pixelHash, List<PixelElement> elements,
    boolean incomplete, long analysisNs) {
}
