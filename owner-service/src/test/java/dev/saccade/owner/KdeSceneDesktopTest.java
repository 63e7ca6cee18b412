package dev.saccade.owner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.KdeDesktop;
import dev.saccade.demodesktop.SwayApp;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.TargetFlyweight;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The owner on a real headless KWin 5.27 (kwin_wayland --virtual): the KDE backend is chosen for
 * the display, window targets carry the captions and the frame geometry KWin reports through its
 * script (where a KWin script put the windows), the active window follows KWin's activation, and
 * the accessible targets of a native GTK and a native Qt app lie inside their windows.
 */
@Tag("desktop")
@Timeout(120)
class KdeSceneDesktopTest {
    private static KdeDesktop kde;
    private static SwayApp gtk;
    private static SwayApp qt;
    private static DesktopService service;

    @BeforeAll
    static void start() throws Exception {
        kde = KdeDesktop.start(1280, 800, "us");
        gtk = kde.launch("zenity", "zenity", "--entry", "--title=Native entry", "--text=Native");
        qt = kde.launch("qt-calculator", "/usr/lib/x86_64-linux-gnu/qt5/examples/widgets/widgets/calculator/calculator");
        kde.place(gtk.pid(), 200, 150);
        kde.place(qt.pid(), 700, 100);
        service = DesktopService.start("wayland:" + kde.waylandSocket(), kde.busAddress());
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (service != null) {
                service.close();
            }
        } finally {
            kde.close();
        }
    }


    private static List<TargetFlyweight> accessible(final CompletionFlyweight c, final TargetFlyweight w, final int role) {
        final List<TargetFlyweight> out = new ArrayList<>();
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = DesktopService.target(c, i);
            if ((t.sourceBits() & SourceBit.ACCESSIBILITY) != 0 && t.windowId() == w.windowId() && t.role() == role) {
                out.add(t);
            }
        }
        return out;
    }


    private static List<Integer> origin(final TargetFlyweight w) {
        return w == null ? List.of() : List.of(w.boundsXQ8() >> 8, w.boundsYQ8() >> 8);
    }

    private static String describe(final TargetFlyweight t) {
        return (t.boundsXQ8() >> 8) + "," + (t.boundsYQ8() >> 8) + " " + (t.boundsWidthQ8() >> 8) + "x"
            + (t.boundsHeightQ8() >> 8);
    }

    @Test
    void windowTargetsCarryKwinsCaptionsAndGeometry() throws Exception {
        final CompletionFlyweight c = service.awaitObserve(o -> { },
            r -> origin(DesktopService.window(r, "Native entry")).equals(List.of(200, 150))
                && origin(DesktopService.window(r, "Calculator")).equals(List.of(700, 100)));
        assertTrue((DesktopService.window(c, "Native entry").boundsWidthQ8() >> 8) > 100, describe(DesktopService.window(c, "Native entry")));
        assertTrue((DesktopService.window(c, "Calculator").boundsHeightQ8() >> 8) > 100, describe(DesktopService.window(c, "Calculator")));
        // The last place() activated the calculator: KWin's active window is the foreground one.
        final CompletionFlyweight active = service.awaitObserve(o -> { }, r -> DesktopService.window(r, "Calculator") != null
            && r.generation().windowId() == DesktopService.window(r, "Calculator").windowId());
        assertEquals(qt.pid(), active.generation().processId(), "the foreground process is the calculator's");
    }

    @Test
    void accessibleTargetsOfNativeGtkAndQtAppsLieInsideTheirWindows() throws Exception {
        final CompletionFlyweight c = service.awaitObserve(o -> { }, r -> {
            final TargetFlyweight g = DesktopService.window(r, "Native entry");
            final TargetFlyweight q = DesktopService.window(r, "Calculator");
            return g != null && q != null && origin(g).equals(List.of(200, 150)) && !accessible(r, g, Role.TEXT_FIELD)
                .isEmpty() && accessible(r, q, Role.BUTTON).size() > 10;
        });
        final TargetFlyweight g = DesktopService.window(c, "Native entry");
        for (final TargetFlyweight t : accessible(c, g, Role.TEXT_FIELD)) {
            assertTrue(DesktopService.inside(t, g), "entry at " + describe(t) + " outside " + describe(g));
        }
        final TargetFlyweight q = DesktopService.window(c, "Calculator");
        for (final TargetFlyweight t : accessible(c, q, Role.BUTTON)) {
            assertTrue(DesktopService.inside(t, q), "button at " + describe(t) + " outside " + describe(q));
        }
    }
}
