package dev.saccade.owner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.desktop.TargetIds;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.FilterFlag;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TextMatch;
import dev.saccade.testdesktop.WithTestDesktop;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The fused scene on a real desktop through the real endpoint: AT-SPI2 objects of gtk3-demo and the Qt
 * calculator are targets of the same generations as windows and grid cells, and the semantic
 * invoke drives the calculator.
 */
@WithTestDesktop(apps = {DemoApp.GTK3_DEMO, DemoApp.QT_CALCULATOR})
@WithDesktopService
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class FusedSceneDesktopTest {
    private TestDesktop desktop;
    private DesktopService d;

    @BeforeAll
    void startService(final TestDesktop testDesktop, final DesktopService service) {
        desktop = testDesktop;
        d = service;
    }

    @Test
    void gtkButtonsAreSemanticTargetsInsideTheirWindowWithStableIdsAndExactTextLookup() throws Exception {
        final AppHandle gtk = app(DemoApp.GTK3_DEMO);
        final CompletionFlyweight first = d.awaitObserve(o -> o.scope().sourceMode(SourceMode.SEMANTIC),
            c -> DesktopService.count(c, t -> t.role() == Role.BUTTON && t.windowId() == gtk.windowId()) > 0);
        final Map<Long, String> buttons = new HashMap<>();
        for (int i = 0; i < first.targetCount(); i++) {
            final TargetFlyweight t = ObserveQueryConformance.target(first, i);
            assertEquals(SourceBit.ACCESSIBILITY, t.sourceBits() & SourceBit.ACCESSIBILITY, "semantic mode: accessibility only");
            assertTrue(TargetIds.namespace(t.targetId()) == 3 || TargetIds.namespace(t.targetId()) == 1);
            if (t.role() == Role.BUTTON && t.windowId() == gtk.windowId() && t.textSize() > 0) {
                // inside the X window's bounds (what xwininfo reports for the client area)
                final TargetFlyweight window = DesktopService.find(first, TargetIds.window(gtk.windowId()));
                assertNotNull(window);
                assertTrue(t.boundsXQ8() >= window.boundsXQ8() && t.boundsYQ8() >= window.boundsYQ8()
                    && t.boundsXQ8() + t.boundsWidthQ8() <= window.boundsXQ8() + window.boundsWidthQ8()
                    && t.boundsYQ8() + t.boundsHeightQ8() <= window.boundsYQ8() + window.boundsHeightQ8(),
                    "button " + ObserveQueryConformance.text(first, t) + " outside its window");
                // A base-ABI client sees gtk3-demo's notebook tabs as buttons too: clicked, not invoked.
                assertTrue((t.capabilityBits() & TargetCapability.CLICK) != 0);
                buttons.put(t.targetId(), ObserveQueryConformance.text(first, t));
            }
        }
        assertTrue(!buttons.isEmpty(), "gtk3-demo shows named buttons");

        // a later generation keeps the same ids for the same buttons
        final long g = first.generation().generation();
        desktop.configure(new ProcessBuilder("xdotool", "mousemove", "1", "1")).start().waitFor(10, TimeUnit.SECONDS);
        d.service.accessibility().requestRefresh().get(10, TimeUnit.SECONDS);
        final CompletionFlyweight later = d.observe(o -> o.scope().sourceMode(SourceMode.SEMANTIC));
        for (final Map.Entry<Long, String> b : buttons.entrySet()) {
            final TargetFlyweight t = DesktopService.find(later, b.getKey());
            assertNotNull(t, "button " + b.getValue() + " lost its id after generation " + g);
            assertEquals(b.getValue(), ObserveQueryConformance.text(later, t));
        }

        // exact text finds exactly that button (pick a label that is unique among buttons)
        String unique = null;
        for (final String name : buttons.values()) {
            if (java.util.Collections.frequency(buttons.values(), name) == 1 && !name.isBlank()) {
                unique = name;
                break;
            }
        }
        assertNotNull(unique, "a uniquely named button: " + buttons.values());
        final CompletionFlyweight found = query(unique, FilterFlag.TEXT | FilterFlag.ROLE, Role.BUTTON);
        assertEquals(1, found.targetCount(), "exact text '" + unique + "'");
        assertTrue(buttons.containsKey(ObserveQueryConformance.target(found, 0).targetId()));
    }

    @Test
    void invokingSevenPlusFiveEqualsMakesTheCalculatorShowTwelve() throws Exception {
        final AppHandle calc = app(DemoApp.QT_CALCULATOR);
        d.awaitObserve(o -> o.scope().sourceMode(SourceMode.SEMANTIC),
            c -> DesktopService.count(c, t -> t.role() == Role.BUTTON && t.windowId() == calc.windowId()) >= 10);
        for (final String key : new String[] {"7", "+", "5", "="}) {
            final CompletionFlyweight c = query(key, FilterFlag.TEXT | FilterFlag.ROLE, Role.BUTTON);
            long id = 0;
            for (int i = 0; i < c.targetCount(); i++) {
                if (ObserveQueryConformance.target(c, i).windowId() == calc.windowId()) {
                    id = ObserveQueryConformance.target(c, i).targetId();
                }
            }
            assertTrue(id != 0, "calculator button " + key);
            final int result = d.service.invoke(id, System.nanoTime() + TimeUnit.SECONDS.toNanos(5)).get(10, TimeUnit.SECONDS);
            assertEquals(ResultCode.PLATFORM_OK, result, "invoke " + key);
        }
        // the display (a read-only line edit: TEXT) reads 12 in a later generation
        final CompletionFlyweight shown = d.awaitObserve(o -> o.scope().sourceMode(SourceMode.SEMANTIC),
            c -> DesktopService.count(c, t -> t.windowId() == calc.windowId() && t.role() == Role.TEXT
                && "12".equals(ObserveQueryConformance.text(c, t))) == 1);
        assertNotNull(shown);
        assertEquals(ResultCode.PLATFORM_NOT_FOUND,
            d.service.invoke(TargetIds.ACCESSIBILITY_NAMESPACE | 12345, System.nanoTime() + 1_000_000_000L).get());
    }

    @Test
    void oneGenerationHoldsWindowSemanticAndGridTargetsAndModesSelectThem() throws Exception {
        final CompletionFlyweight fused = d.awaitObserve(o -> { },
            c -> DesktopService.count(c, t -> t.sourceBits() == SourceBit.ACCESSIBILITY && TargetIds.namespace(t.targetId()) == 3) > 10);
        final int windows = DesktopService.count(fused, t -> t.role() == Role.WINDOW && TargetIds.namespace(t.targetId()) == 1);
        final int semantic = DesktopService.count(fused, t -> TargetIds.namespace(t.targetId()) == 3);
        final int grid = DesktopService.count(fused, t -> t.sourceBits() == SourceBit.GRID);
        assertTrue(windows >= 2 && semantic > 10 && grid == 144, windows + " windows, " + semantic + " semantic, " + grid);
        final CompletionFlyweight gridOnly = d.observe(o -> o.scope().sourceMode(SourceMode.GRID));
        assertEquals(144, gridOnly.targetCount());
        // the active window's scope keeps the semantic targets inside that window
        final CompletionFlyweight active = d.observe(o -> o.scope().kind(ScopeKind.ACTIVE_WINDOW).sourceMode(SourceMode.SEMANTIC));
        final long window = active.scope().stableId();
        assertTrue(active.targetCount() > 1, "semantic targets of the active window");
        for (int i = 0; i < active.targetCount(); i++) {
            assertEquals(window, ObserveQueryConformance.target(active, i).windowId());
        }
        // relations: every gtk3-demo object descends from its window target
        final AppHandle gtk = app(DemoApp.GTK3_DEMO);
        final CompletionFlyweight descendants = ObserveQueryConformance.completion(d.client.exchange(Requests.query(70, "x",
            q -> q.generation(0).maximumResults(10_000),
            f -> f.flags(FilterFlag.RELATION).relation(dev.saccade.protocol.Relation.DESCENDANT)
                .relationTargetId(TargetIds.window(gtk.windowId())))));
        assertTrue(descendants.targetCount() > 10, "descendants of the gtk3-demo window: " + descendants.targetCount());
        for (int i = 0; i < descendants.targetCount(); i++) {
            assertEquals(gtk.windowId(), ObserveQueryConformance.target(descendants, i).windowId());
        }
    }

    // ---- helpers ----

    private AppHandle app(final DemoApp which) {
        for (final AppHandle a : desktop.apps()) {
            if (a.app() == which) {
                return a;
            }
        }
        throw new AssertionError(which + " not running");
    }


    private CompletionFlyweight query(final String text, final int flags, final int role) throws IOException {
        final CompletionFlyweight c = ObserveQueryConformance.completion(d.client.exchange(Requests.query(71, text,
            q -> q.generation(0).maximumResults(1_000), f -> f.flags(flags).role(role).textMatch(TextMatch.EXACT))));
        assertEquals(ResultCode.OK, c.result(), ResultCode.name(c.result()));
        return c;
    }




}
