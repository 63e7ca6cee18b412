package dev.saccade.owner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.SwayApp;
import dev.saccade.demodesktop.SwayDesktop;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The owner on a real headless sway session: window targets with the titles
 * and bounds sway reports, the accessible targets of a native Wayland GTK app moved from its
 * window-relative extents into its window's bounds, and an XWayland app served the same way.
 */
@Tag("desktop")
@Timeout(90)
class WaylandSceneDesktopTest {
    private static SwayDesktop sway;
    private static SwayApp nativeApp;
    private static SwayApp x11App;
    private static DesktopService service;

    @BeforeAll
    static void start() throws Exception {
        sway = SwayDesktop.start(1280, 720, true);
        nativeApp = sway.launch("zenity", false, "zenity", "--entry", "--title=Native entry", "--text=Native");
        x11App = sway.launch("zenity-x11", true, "zenity", "--entry", "--title=XWayland entry", "--text=XWayland");
        // Away from the origin, so window-relative extents left untranslated would fall outside it.
        sway.swaymsg("[pid=" + nativeApp.pid() + "] floating enable, move position 200 150");
        service = DesktopService.start("wayland:" + sway.waylandSocket(), sway.busAddress());
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (service != null) {
                service.close();
            }
        } finally {
            sway.close();
        }
    }


    /** Accessible text fields of the window {@code w}. */
    private static List<TargetFlyweight> fields(final CompletionFlyweight c, final TargetFlyweight w) {
        final List<TargetFlyweight> out = new ArrayList<>();
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = DesktopService.target(c, i);
            if ((t.sourceBits() & SourceBit.ACCESSIBILITY) != 0 && t.windowId() == w.windowId()
                && t.role() == Role.TEXT_FIELD) {
                out.add(t);
            }
        }
        return out;
    }


    private static String describe(final TargetFlyweight t) {
        return (t.boundsXQ8() >> 8) + "," + (t.boundsYQ8() >> 8) + " " + (t.boundsWidthQ8() >> 8) + "x"
            + (t.boundsHeightQ8() >> 8);
    }

    @Test
    void windowTargetsCarrySwaysTitlesAndBounds() throws Exception {
        final int[] nativeContent = sway.windowContent(nativeApp.pid());
        final int[] x11Content = sway.windowContent(x11App.pid());
        final CompletionFlyweight c = service.awaitObserve(o -> { },
            r -> bounds(DesktopService.window(r, "Native entry")).equals(asList(nativeContent))
                && bounds(DesktopService.window(r, "XWayland entry")).equals(asList(x11Content)));
        assertEquals(asList(nativeContent), bounds(DesktopService.window(c, "Native entry")));
        assertEquals(List.of(200, 150), bounds(DesktopService.window(c, "Native entry")).subList(0, 2));
        assertEquals(asList(x11Content), bounds(DesktopService.window(c, "XWayland entry")));
        assertEquals(0, DesktopService.window(c, "Native entry").flags() & TargetFlag.APPROXIMATE, "sway's IPC has the geometry");
    }

    private static List<Integer> asList(final int[] rect) {
        return List.of(rect[0], rect[1], rect[2], rect[3]);
    }

    private static List<Integer> bounds(final TargetFlyweight w) {
        return w == null ? List.of() : List.of(w.boundsXQ8() >> 8, w.boundsYQ8() >> 8, w.boundsWidthQ8() >> 8,
            w.boundsHeightQ8() >> 8);
    }

    @Test
    void accessibleTargetsOfNativeAndXWaylandAppsLieInsideTheirWindows() throws Exception {
        final CompletionFlyweight c = service.awaitObserve(o -> { }, r -> {
            final TargetFlyweight n = DesktopService.window(r, "Native entry");
            final TargetFlyweight x = DesktopService.window(r, "XWayland entry");
            return n != null && x != null && (n.boundsXQ8() >> 8) == 200 && !fields(r, n).isEmpty()
                && !fields(r, x).isEmpty();
        });
        for (final String title : List.of("Native entry", "XWayland entry")) {
            final TargetFlyweight w = DesktopService.window(c, title);
            final List<TargetFlyweight> entries = fields(c, w);
            assertEquals(1, entries.size(), title);
            assertTrue(DesktopService.inside(entries.get(0), w), title + ": entry at " + describe(entries.get(0)) + " outside window "
                + describe(w));
        }
        // The native app's extents were window-relative: the window is not at the origin, so an
        // untranslated entry would lie outside it (the check above could not pass by accident).
        final TargetFlyweight nativeWindow = DesktopService.window(c, "Native entry");
        assertEquals(List.of(200, 150), List.of(nativeWindow.boundsXQ8() >> 8, nativeWindow.boundsYQ8() >> 8),
            describe(nativeWindow));
    }
}
