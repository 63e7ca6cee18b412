package dev.saccade.owner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.desktop.TargetIds;
import dev.saccade.pixel.Geometry;
import dev.saccade.pixel.PixelConfiguration;
import dev.saccade.pixel.PixelElement;
import dev.saccade.pixel.PixelSnapshot;
import dev.saccade.pixel.PixelSourceContext;
import dev.saccade.pixel.PixelWindow;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.testdesktop.WithTestDesktop;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Pixel and accessible targets fused on a real desktop, with pixels serving every window
 * ({@code saccade.owner.pixel.serve=all}): the calculator's buttons, which the tree and the pixels
 * both find, are listed once (their accessible targets carry the PIXEL bit), and the pixel mode
 * finds them; zenity's password field, SECURE in the tree, is never read: no pixel element lies
 * over it, though the rest of its dialog is read.
 */
@WithTestDesktop(apps = {DemoApp.QT_CALCULATOR, DemoApp.ZENITY_PASSWORD})
@WithDesktopService(properties = PixelConfiguration.SERVE_PROP_NAME + "=all")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PixelFusionDesktopTest {
    private final TestDesktop desktop;
    private DesktopService d;

    /** The instance is made before {@code @BeforeAll} resolves the service: the windows move first. */
    PixelFusionDesktopTest(final TestDesktop testDesktop) throws Exception {
        desktop = testDesktop;
        // side by side, so each is read whole
        desktop.moveWindow(app(DemoApp.QT_CALCULATOR).windowId(), 0, 0);
        desktop.moveWindow(app(DemoApp.ZENITY_PASSWORD).windowId(), 800, 0);
    }

    @BeforeAll
    void startService(final DesktopService service) {
        d = service;
        assertNotNull(d.service.pixels(), "the pixel source runs (libtesseract5 and tesseract-ocr-eng installed)");
    }

    @Test
    void buttonsBothSourcesFindAreListedOnceWithBothBits() throws Exception {
        final long calc = app(DemoApp.QT_CALCULATOR).windowId();
        final CompletionFlyweight fused = awaitObserve(c -> find(c, calc, "7", SourceBit.ACCESSIBILITY | SourceBit.PIXEL) != null);
        final TargetFlyweight seven = find(fused, calc, "7", SourceBit.ACCESSIBILITY | SourceBit.PIXEL);
        assertEquals(TargetIds.namespace(TargetIds.ACCESSIBILITY_NAMESPACE), TargetIds.namespace(seven.targetId()));
        assertEquals(Role.BUTTON, seven.role());
        final long id = seven.targetId();
        assertEquals(1, DesktopService.count(fused, t -> t.windowId() == calc && "7".equals(text(fused, t))),
            "one target for the 7 in fused mode");
        final CompletionFlyweight pixel = d.observe(o -> o.scope().sourceMode(SourceMode.PIXEL));
        assertNotNull(DesktopService.find(pixel, id), "pixel mode finds the accessible 7 pixels confirm");
        final CompletionFlyweight semantic = d.observe(o -> o.scope().sourceMode(SourceMode.SEMANTIC));
        assertNotNull(DesktopService.find(semantic, id), "semantic mode too");
        assertEquals(0, DesktopService.count(pixel, t -> (t.sourceBits() & (SourceBit.PIXEL | SourceBit.NEURAL)) == 0),
            "pixel mode: targets with the PIXEL bit only");
    }

    @Test
    void theSecureFieldIsNeverReadByPixels() throws Exception {
        final AppHandle zenity = app(DemoApp.ZENITY_PASSWORD);
        // a secret in the field (focused in the active dialog), typed through XTest
        // (the field is blanked before the window's pixels are hashed: typing into it is captured,
        // but leaves the hash, so it may count as a cache hit rather than an analysis)
        final long typedAt = d.service.pixels().captures();
        final Process type = desktop.configure(new ProcessBuilder("xdotool", "windowactivate", "--sync",
            Long.toString(zenity.windowId()), "type", "hunter2")).redirectErrorStream(true).start();
        assertTrue(type.waitFor(10, TimeUnit.SECONDS) && type.exitValue() == 0, "xdotool type");
        final CompletionFlyweight c = awaitObserve(s -> secureField(s, zenity.windowId()) != null && d.service.pixels().captures() > typedAt
                && DesktopService.count(s, t -> t.windowId() == zenity.windowId() && t.sourceBits() == SourceBit.PIXEL
                && t.textSize() > 0) > 0);
        final TargetFlyweight field = secureField(c, zenity.windowId());
        final int fx = field.boundsXQ8() / RectQ8.ONE;
        final int fy = field.boundsYQ8() / RectQ8.ONE;
        final int fw = field.boundsWidthQ8() / RectQ8.ONE;
        final int fh = field.boundsHeightQ8() / RectQ8.ONE;
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = ObserveQueryConformance.target(c, i);
            if (t.sourceBits() == SourceBit.PIXEL) {
                assertFalse(Geometry.intersects(t.boundsXQ8() / RectQ8.ONE, t.boundsYQ8() / RectQ8.ONE, t.boundsWidthQ8() / RectQ8.ONE,
                    t.boundsHeightQ8() / RectQ8.ONE, fx, fy, fw, fh), "a PIXEL target over the secure field: " + text(c, t));
                assertFalse(text(c, t).contains("hunter2"), text(c, t));
            }
        }
        // the reading itself has nothing there either (not only the scene)
        final PixelSnapshot reading = d.service.pixels().latest();
        final PixelWindow w = reading.windows().get(zenity.windowId());
        assertNotNull(w, "the dialog was read");
        final int[] window = windowBounds(c, zenity.windowId());
        for (final PixelElement e : w.elements()) {
            assertFalse(Geometry.intersects(window[0] + e.x(), window[1] + e.y(), e.width(), e.height(), fx, fy, fw, fh),
                "an element over the secure field: " + e);
        }
        assertTrue(d.service.accessibility().latest().nodes().stream().anyMatch(
            (AccessibilityNode n) -> n.hasFlag(TargetFlag.SECURE)), "the tree marks the field SECURE");
    }

    /** A FUSED observe once {@code done} holds; on failure says what the pixel source read. */
    private CompletionFlyweight awaitObserve(final java.util.function.Predicate<CompletionFlyweight> done) throws Exception {
        try {
            // a toolkit can answer the first tree read with its place before the move: read again until it holds
            return d.awaitObserve(o -> o.scope().sourceMode(SourceMode.FUSED), c -> {
                if (done.test(c)) {
                    return true;
                }
                d.service.accessibility().requestRefresh();
                return false;
            });
        } catch (final AssertionError e) {
            final CompletionFlyweight c = d.observe(o -> o.scope().sourceMode(SourceMode.FUSED));
            final StringBuilder seen = new StringBuilder();
            for (int i = 0; i < c.targetCount(); i++) {
                final TargetFlyweight t = ObserveQueryConformance.target(c, i);
                if (t.sourceBits() != SourceBit.GRID) {
                    seen.append(" [").append(t.windowId()).append(' ').append(t.sourceBits()).append(" f").append(t.flags()).append(" '")
                        .append(text(c, t)).append("']");
                }
            }
            throw new AssertionError(e.getMessage() + "; analyses " + d.service.pixels().analyses() + "; pixels " + d.service.pixels().latest() + " served "
                + d.service.pixels().servedWindows() + "; scene" + seen, e);
        }
    }

    private static TargetFlyweight secureField(final CompletionFlyweight c, final long window) {
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = ObserveQueryConformance.target(c, i);
            if (t.windowId() == window && (t.flags() & TargetFlag.SECURE) != 0 && t.boundsWidthQ8() > 0) {
                return t;
            }
        }
        return null;
    }

    private static int[] windowBounds(final CompletionFlyweight c, final long window) {
        final TargetFlyweight t = DesktopService.find(c, TargetIds.window(window));
        return new int[] {t.boundsXQ8() / RectQ8.ONE, t.boundsYQ8() / RectQ8.ONE};
    }

    private static TargetFlyweight find(final CompletionFlyweight c, final long window, final String text, final int bits) {
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = ObserveQueryConformance.target(c, i);
            if (t.windowId() == window && t.sourceBits() == bits && text.equals(text(c, t))) {
                return t;
            }
        }
        return null;
    }

    private static String text(final CompletionFlyweight c, final TargetFlyweight t) {
        final byte[] b = new byte[(int) t.textSize()];
        c.bytes().read(c.offset() + t.textOffset(), b, 0, b.length);
        return new String(b, StandardCharsets.UTF_8);
    }

    private AppHandle app(final DemoApp which) {
        for (final AppHandle a : desktop.apps()) {
            if (a.app() == which) {
                return a;
            }
        }
        throw new AssertionError(which + " not running");
    }
}
