package dev.saccade.owner;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.SwayApp;
import dev.saccade.demodesktop.SwayDesktop;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.TargetFlyweight;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The PIXEL source on a real headless sway: an XWayland xmessage (no accessibility tree) is read
 * through screencopy and OCR, and its label and its Yes and No buttons (XWayland's child windows
 * of the window, as on X11) become PIXEL targets inside its window.
 */
@Tag("desktop")
@Timeout(120)
class WaylandPixelDesktopTest {
    @Test
    void anAppWithoutATreeGetsPixelTargetsThroughScreencopy() throws Exception {
        try (SwayDesktop sway = SwayDesktop.start(1024, 768, true)) {
            // Floating from its first map, at its own size: tiled it would fill the output and lay its
            // buttons out apart. A rule rather than a command after the launch: in a CI run the
            // window floated by a command kept its tiled size (1024x768) at the floating position,
            // its buttons below the output, as a tiled configure applied after the command would.
            sway.swaymsg("for_window [class=\"(?i)^xmessage$\"] floating enable");
            final SwayApp xmessage = sway.launch("xmessage", true, "xmessage", "-print", "-buttons", "Yes,No",
                "Proceed?");
            final int[][] seen = {null};
            dev.saccade.testsupport.Await.until(() -> {
                final int[] now = sway.windowContent(xmessage.pid());
                final boolean settled = now[2] < 1024 && java.util.Arrays.equals(now, seen[0]);
                seen[0] = now;
                return settled;
            }, java.time.Duration.ofSeconds(30), java.time.Duration.ofMillis(200),
                () -> "xmessage floating at its own size, last " + java.util.Arrays.toString(seen[0]));
            // The owner reads the XWayland window's child windows (xmessage's buttons) from XWayland.
            System.setProperty("saccade.wayland.xdisplay", sway.xDisplay());
            try (DesktopService service = DesktopService.start("wayland:" + sway.waylandSocket(), sway.busAddress())) {
                assertNotNull(service.service.pixels(), "a pixel source on screencopy");
                final int[] content = sway.windowContent(xmessage.pid());
                final String[] last = new String[1];
                final CompletionFlyweight c;
                try {
                    c = service.awaitObserve(o -> { }, r -> {
                        last[0] = all(r) + " window " + java.util.Arrays.toString(content);
                        return texts(r, content).containsAll(List.of("Proceed?", "Yes", "No"));
                    }, java.time.Duration.ofSeconds(30));
                } catch (final AssertionError e) {
                    throw new AssertionError(e.getMessage() + ": " + last[0], e);
                }
                assertTrue(texts(c, content).containsAll(List.of("Proceed?", "Yes", "No")), texts(c, content).toString());
            } finally {
                System.clearProperty("saccade.wayland.xdisplay");
            }
        }
    }

    private static String all(final CompletionFlyweight c) {
        final StringBuilder b = new StringBuilder();
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = DesktopService.target(c, i);
            if ((t.sourceBits() & SourceBit.PIXEL) != 0 || t.role() == dev.saccade.protocol.Role.WINDOW) {
                b.append('[').append(DesktopService.text(c, t)).append(' ').append(t.boundsXQ8() >> 8).append(',')
                    .append(t.boundsYQ8() >> 8).append(' ').append(t.boundsWidthQ8() >> 8).append('x')
                    .append(t.boundsHeightQ8() >> 8).append(" src=").append(t.sourceBits()).append(']');
            }
        }
        return b.toString();
    }

    /** Texts of the PIXEL targets lying inside the rectangle. */
    private static List<String> texts(final CompletionFlyweight c, final int[] rect) {
        final List<String> out = new ArrayList<>();
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = DesktopService.target(c, i);
            final int x = t.boundsXQ8() >> 8;
            final int y = t.boundsYQ8() >> 8;
            if ((t.sourceBits() & SourceBit.PIXEL) != 0 && x >= rect[0] && y >= rect[1]
                && x + (t.boundsWidthQ8() >> 8) <= rect[0] + rect[2] && y + (t.boundsHeightQ8() >> 8) <= rect[1] + rect[3]) {
                out.add(DesktopService.text(c, t));
            }
        }
        return out;
    }
}
