package dev.saccade.pixel;

/**
 * One target the pixel source found in a window: bounds relative to the window's top-left
 * corner (so a moved window keeps its elements), a role from its shape, the text read in it, a
 * confidence (detector × OCR, Q16), target flags (APPROXIMATE when the bounds come from pixels
 * rather than an X window) and its stable id.
 */
public record PixelElement(long targetId, int x, int y, int width, int height, int role, String text,
    int confidenceQ16, int flags) {
}
