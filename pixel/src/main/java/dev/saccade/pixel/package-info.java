/**
 * The PIXEL source: {@link dev.saccade.pixel.PixelSource} reads the windows pixels serve on
 * its own thread, driven by the damage of a {@link dev.saccade.desktop.ScreenCapture}, and delivers immutable
 * {@link dev.saccade.pixel.PixelSnapshot}s of {@link dev.saccade.pixel.PixelElement}s
 * (boxes, roles, OCR text, confidences, stable ids) that the scene composer turns into PIXEL
 * targets. The capture is the desktop backend's ({@code DesktopBackend.openCapture}: X11's
 * MIT-SHM and DAMAGE in {@code x11}, screencopy in {@code wlroots}), so a new platform brings its
 * own and this package knows none. The native calls of this package are in a package-private class per library: {@code Tesseract}
 * (libtesseract's C API) and {@code LibC}. The owner thread never calls in here.
 */
package dev.saccade.pixel;
