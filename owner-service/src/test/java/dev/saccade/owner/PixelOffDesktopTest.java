package dev.saccade.owner;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.pixel.PixelConfiguration;
import dev.saccade.pixel.PixelSourceContext;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testdesktop.WithTestDesktop;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Without usable OCR (here: a language with no model) or with pixels switched off, the owner
 * runs without its pixel source and still serves windows, trees and grid cells.
 */
@WithTestDesktop(apps = {DemoApp.XMESSAGE})
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PixelOffDesktopTest {
    @Test
    void aMissingLanguageModelLeavesTheOwnerRunningWithoutPixels(final TestDesktop desktop) throws Exception {
        assertServesWithoutPixels(desktop, PixelConfiguration.LANGUAGES_PROP_NAME, "eng+zzz");
    }

    @Test
    void pixelsSwitchedOffLeaveTheOwnerRunningWithoutPixels(final TestDesktop desktop) throws Exception {
        assertServesWithoutPixels(desktop, PixelConfiguration.ENABLED_PROP_NAME, "false");
    }

    private static void assertServesWithoutPixels(final TestDesktop desktop, final String property, final String value)
        throws Exception {
        System.setProperty(property, value);
        final DesktopService d;
        try {
            d = DesktopService.start(desktop);
        } finally {
            System.clearProperty(property);
        }
        try (d) {
            assertNull(d.service.pixels(), "no pixel source");
            final long xmessage = desktop.apps().get(0).windowId();
            final CompletionFlyweight c = d.awaitObserve(o -> { },
                s -> DesktopService.find(s, dev.saccade.desktop.TargetIds.window(xmessage)) != null);
            assertTrue(c.result() == ResultCode.OK && c.targetCount() > 0);
            assertTrue(DesktopService.count(c, t -> (t.sourceBits() & dev.saccade.protocol.SourceBit.PIXEL) != 0) == 0,
                "no PIXEL targets");
        }
    }
}
