package dev.saccade.cli;

import dev.saccade.owner.DesktopBackends;
import dev.saccade.pixel.OcrEngine;
import dev.saccade.pixel.PixelConfiguration;
import dev.saccade.pixel.PixelSource;
import dev.saccade.pixel.PixelSourceContext;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * {@code saccade doctor}'s check of the pixel source: the OCR engine (found, version, the
 * languages installed and those configured) and whether the display can be captured (MIT-SHM,
 * DAMAGE). Whether pixels can serve windows without an accessibility tree follows from both.
 */
final class OcrCheck {
    private OcrCheck() {
    }

    /**
     * @param display the X display, or null when there is none to check
     * @return true when the owner's pixel source can serve windows without a tree
     */
    static boolean report(final String display, final Consumer<String> ok, final BiConsumer<String, String> problem) {
        final PixelSourceContext context = new PixelSourceContext();
        if (!context.enabled()) {
            ok.accept("pixels: off (" + PixelConfiguration.ENABLED_PROP_NAME + "=false): windows without a tree get no PIXEL targets");
            return false;
        }
        final String version = OcrEngine.version();
        if (version == null) {
            problem.accept("OCR engine: libtesseract.so.5 not found (" + OcrEngine.loadFailure() + ")",
                "apt-get install libtesseract5 tesseract-ocr-eng (PIXEL targets for windows without an accessibility tree)");
            return false;
        }
        final Path tessdata = context.tessdata() != null ? context.tessdata() : OcrEngine.findTessdata();
        final List<String> installed = tessdata == null ? List.of() : OcrEngine.languages(tessdata);
        final StringBuilder missing = new StringBuilder();
        for (final String language : context.languages().split("\\+")) {
            if (!installed.contains(language)) {
                missing.append(missing.length() == 0 ? "" : " ").append("tesseract-ocr-").append(language);
            }
        }
        final String what = "OCR engine: tesseract " + version + ", languages " + String.join("+", installed)
            + " installed in " + tessdata + ", " + context.languages() + " configured ("
            + PixelConfiguration.LANGUAGES_PROP_NAME + ")";
        if (missing.length() > 0) {
            problem.accept(what, "apt-get install " + missing);
            return false;
        }
        ok.accept(what);
        if (display == null) {
            return false;
        }
        final String capture = PixelSource.captureProblem(DesktopBackends.of(display), display);
        if (capture != null) {
            problem.accept("pixel capture on " + display + ": " + capture,
                "an X server with MIT-SHM and DAMAGE (Xorg and Xvfb have both)");
            return false;
        }
        ok.accept("pixel capture on " + display + ": MIT-SHM and DAMAGE; PIXEL targets serve windows without an"
            + " accessibility tree (" + PixelConfiguration.SERVE_PROP_NAME + "=" + context.serve().name().toLowerCase() + ")");
        return true;
    }
}
