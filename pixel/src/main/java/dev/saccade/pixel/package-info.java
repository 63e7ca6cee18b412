/**
 * The PIXEL source: {@link dev.saccade.pixel.PixelSource} reads the windows pixels serve on
 * its own thread, driven by X DAMAGE, and delivers immutable
 * {@link dev.saccade.pixel.PixelSnapshot}s of {@link dev.saccade.pixel.PixelElement}s
 * (boxes, roles, OCR text, confidences, stable ids) that the scene composer turns into PIXEL
 * targets. Every native call is in a package-private class per library: {@code X11Capture}
 * (libX11, MIT-SHM, DAMAGE), {@code Tesseract} (libtesseract's C API) and {@code LibC}. The owner
 * thread never calls in here.
 */
package dev.saccade.pixel;
