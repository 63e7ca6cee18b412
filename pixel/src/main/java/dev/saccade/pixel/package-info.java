/**
 * The PIXEL source: {@link dev.saccade.pixel.PixelSource} reads the windows pixels serve on
 * its own thread, driven by X DAMAGE, and delivers immutable
 * {@link dev.saccade.pixel.PixelSnapshot}s of {@link dev.saccade.pixel.PixelElement}s
 * (boxes, roles, OCR text, confidences, stable ids) that the scene composer turns into PIXEL
 * targets. X11 capture is the x11 module's {@code X11Capture} (libX11, MIT-SHM, DAMAGE); the
 * native calls of this package are in a package-private class per library: {@code Tesseract}
 * (libtesseract's C API) and {@code LibC}. The owner thread never calls in here.
 */
package dev.saccade.pixel;
