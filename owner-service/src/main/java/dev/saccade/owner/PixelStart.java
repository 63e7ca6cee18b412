package dev.saccade.owner;

import dev.saccade.owner.source.DesktopSceneComposer;
import dev.saccade.pixel.PixelConfiguration;
import dev.saccade.pixel.PixelSource;
import dev.saccade.pixel.PixelSourceContext;
import java.io.IOException;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the owner's pixel source when it is on ({@code saccade.owner.pixel.enabled}): its
 * readings go to the composer. Without OCR (no libtesseract, no model) or an X extension it
 * says what to install and the owner runs without PIXEL targets. The capture is the display's
 * desktop backend's ({@link DesktopBackends}).
 */
final class PixelStart {
    private static final Logger LOG = LoggerFactory.getLogger(PixelStart.class);

    private PixelStart() {
    }

    static PixelSource start(final String display, final boolean trees, final DesktopSceneComposer composer,
        final LongConsumer persist) {
        final PixelSourceContext context = new PixelSourceContext().display(display)
            .backend(DesktopBackends.of(display)).treesExpected(trees);
        if (!context.enabled()) {
            LOG.info("event=pixel_off reason=disabled property={}", PixelConfiguration.ENABLED_PROP_NAME);
            return null;
        }
        try {
            return new PixelSource(context, reading -> {
                composer.acceptPixels(reading);
                persist.accept(composer.lastGeneration());
            }).start();
        } catch (final IOException e) {
            LOG.warn("event=pixel_off reason=\"{}\" effect=\"windows without an accessibility tree get no PIXEL targets\"",
                e.getMessage());
            return null;
        }
    }
}
