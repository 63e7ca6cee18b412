package dev.saccade.owner;

import static dev.saccade.owner.DesktopService.find;
import static dev.saccade.owner.DesktopService.target;
import static dev.saccade.owner.DesktopService.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.desktop.TargetIds;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.FilterFlag;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TextMatch;
import dev.saccade.testdesktop.WithTestDesktop;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The owner service on a real desktop (Xvfb, openbox, D-Bus with AT-SPI2, gtk3-demo, zenity and
 * the Qt calculator): what agents read over the real endpoint matches what the X server says.
 */
@WithTestDesktop(apps = {DemoApp.GTK3_DEMO, DemoApp.ZENITY_ENTRY, DemoApp.QT_CALCULATOR})
@WithDesktopService
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OwnerServiceDesktopTest {
    private TestDesktop desktop;
    private DesktopService d;

    @BeforeAll
    void startService(final TestDesktop testDesktop, final DesktopService service) {
        desktop = testDesktop;
        d = service;
    }

    @Test
    void everyAppWindowIsAWindowTargetWithItsRealBoundsAndTitle() throws Exception {
        final CompletionFlyweight c = observe(o -> { });
        assertEquals(ResultCode.OK, c.result());
        for (final AppHandle app : desktop.apps()) {
            final TargetFlyweight t = find(c, TargetIds.window(app.windowId()));
            assertNotNull(t, app.app() + " window " + app.windowId() + " missing from the scene");
            assertEquals(Role.WINDOW, t.role());
            assertEquals(app.windowId(), t.windowId());
            assertTrue((t.capabilityBits() & TargetCapability.WINDOW_ACTIVATE) != 0);
            assertEquals(SourceBit.ACCESSIBILITY, t.sourceBits());
            assertEquals(desktop.windowTitle(app.windowId()), text(c, t), "title of " + app.app());
            final int[] geometry = xwininfo(app.windowId());
            assertEquals(geometry[0] * RectQ8.ONE, t.boundsXQ8(), app.app() + " x");
            assertEquals(geometry[1] * RectQ8.ONE, t.boundsYQ8(), app.app() + " y");
            assertEquals(geometry[2] * RectQ8.ONE, t.boundsWidthQ8(), app.app() + " width");
            assertEquals(geometry[3] * RectQ8.ONE, t.boundsHeightQ8(), app.app() + " height");
            assertTrue(t.displayId() != 0, "window on a display");
        }
    }

    @Test
    void activeWindowScopeResolvesToTheWindowOpenboxReportsActive() throws Exception {
        final long active = activeWindowFromXprop();
        assertTrue(active != 0, "openbox reports an active window");
        final CompletionFlyweight c = awaitObserve(o -> o.scope().kind(ScopeKind.ACTIVE_WINDOW),
            r -> r.scope().stableId() == active);
        assertEquals(active, c.scope().stableId());
        assertEquals(active, c.generation().windowId());
        assertEquals(desktop.windowPid(active), c.generation().processId(), "foreground process = the window's pid");
        final int[] g = xwininfo(active);
        assertEquals(g[2] * RectQ8.ONE, c.scope().rectWidthQ8());
        assertTrue(c.targetCount() >= 1, "the window itself is in its own scope");
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = target(c, i);
            assertTrue(t.windowId() == active || t.windowId() == 0 || (t.sourceBits() & SourceBit.GRID) != 0);
        }
        // a stale or foreign window id is refused
        final CompletionFlyweight wrong = observe(o -> o.scope().kind(ScopeKind.ACTIVE_WINDOW).stableId(active + 12345));
        assertEquals(ResultCode.TARGET_NOT_FOUND, wrong.result());
    }

    @Test
    void openingANewWindowAnswersAnAfterGenerationReadWithANewerGeneration() throws Exception {
        final long before = observe(o -> { }).generation().generation();
        final byte[] waiting = Requests.observe(7, o -> o.freshness().policy(FreshnessPolicy.AFTER_GENERATION)
            .afterGeneration(before).timeoutNs(TimeUnit.SECONDS.toNanos(30)));
        d.client.sendRaw(SocketWire.prefix(waiting.length));
        d.client.sendRaw(waiting);
        final AppHandle opened = desktop.startApp(DemoApp.ZENITY_ENTRY);
        try {
            final CompletionFlyweight c = ObserveQueryConformance.completion(d.client.readReply());
            assertEquals(ResultCode.OK, c.result());
            assertTrue(Long.compareUnsigned(c.generation().generation(), before) > 0,
                "generation " + c.generation().generation() + " is not newer than " + before);
            // the new window shows up (possibly a generation or two later, as openbox maps it)
            final CompletionFlyweight withWindow = awaitObserve(o -> { },
                r -> find(r, TargetIds.window(opened.windowId())) != null);
            assertNotNull(find(withWindow, TargetIds.window(opened.windowId())));
        } finally {
            desktop.closeApp(opened);
        }
        awaitObserve(o -> { }, r -> find(r, TargetIds.window(opened.windowId())) == null);
    }

    @Test
    void textFilterFindsExactlyTheCalculatorWindow() throws Exception {
        final AppHandle calculator = app(DemoApp.QT_CALCULATOR);
        final CompletionFlyweight c = query(Requests.query(50, desktop.windowTitle(calculator.windowId()),
            q -> q.generation(0), f -> f.flags(FilterFlag.TEXT | FilterFlag.ROLE).role(Role.WINDOW).textMatch(TextMatch.EXACT)));
        assertEquals(List.of(TargetIds.window(calculator.windowId())), ids(c));
        assertEquals(0, query(Requests.query(51, "no such window title", q -> q.generation(0),
            f -> f.flags(FilterFlag.TEXT).textMatch(TextMatch.SUBSTRING))).targetCount());
    }

    @Test
    void rectScopeAndGeometryFilterReturnExactlyTheWindowsThatIntersect() throws Exception {
        final AppHandle calculator = app(DemoApp.QT_CALCULATOR);
        final int[] g = xwininfo(calculator.windowId());
        // a 4 × 4 rect inside the calculator: every window whose bounds intersect it, per xwininfo
        final int rx = g[0] + 2;
        final int ry = g[1] + 2;
        final TreeSet<Long> expected = new TreeSet<>();
        for (final long xid : desktop.clientList()) {
            final int[] w = xwininfo(xid);
            if (RectQ8.intersects(w[0], w[1], w[2], w[3], rx, ry, 4, 4)) {
                expected.add(TargetIds.window(xid));
            }
        }
        assertTrue(expected.contains(TargetIds.window(calculator.windowId())));
        final CompletionFlyweight c = query(Requests.query(52, "x", q -> q.generation(0).scope().kind(ScopeKind.RECT)
            .rect(rx * RectQ8.ONE, ry * RectQ8.ONE, 4 * RectQ8.ONE, 4 * RectQ8.ONE),
            f -> f.flags(FilterFlag.ROLE).role(Role.WINDOW)));
        final TreeSet<Long> x11Windows = new TreeSet<>();
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = target(c, i);
            assertEquals(Role.WINDOW, t.role());
            assertTrue(RectQ8.intersects(t.boundsXQ8(), t.boundsYQ8(), t.boundsWidthQ8(), t.boundsHeightQ8(),
                rx * 256L, ry * 256L, 4 * 256L, 4 * 256L), "every returned target intersects the rect");
            if (TargetIds.namespace(t.targetId()) == 1) {
                x11Windows.add(t.targetId()); // accessible frames are WINDOW targets too
            }
        }
        assertEquals(expected, x11Windows);
        // GRID mode over the same rect: exactly the grid cells under it (one, or up to four at a seam)
        final CompletionFlyweight cells = query(Requests.query(53, "x", q -> q.generation(0).scope().kind(ScopeKind.RECT)
            .sourceMode(SourceMode.GRID).rect(rx * RectQ8.ONE, ry * RectQ8.ONE, 4 * RectQ8.ONE, 4 * RectQ8.ONE), f -> { }));
        assertTrue(cells.targetCount() >= 1 && cells.targetCount() <= 4, "cells: " + cells.targetCount());
        for (int i = 0; i < cells.targetCount(); i++) {
            final TargetFlyweight t = target(cells, i);
            assertEquals(SourceBit.GRID, t.sourceBits());
            assertTrue((t.flags() & TargetFlag.APPROXIMATE) != 0);
            assertTrue(RectQ8.intersects(t.boundsXQ8(), t.boundsYQ8(), t.boundsWidthQ8(), t.boundsHeightQ8(),
                rx * 256L, ry * 256L, 4 * 256L, 4 * 256L));
        }
    }

    @Test
    void displayScopeReturnsEveryTargetOfThatDisplayAndNothingForAnother() throws Exception {
        final CompletionFlyweight all = observe(o -> { });
        final long display = all.generation().displayId();
        assertTrue(display != 0, "current display known");
        final CompletionFlyweight onDisplay = observe(o -> o.scope().kind(ScopeKind.DISPLAY).stableId(display));
        assertEquals(all.targetCount(), onDisplay.targetCount(), "one monitor: every target is on it");
        final int cells = 16 * 9;
        int grid = 0;
        for (int i = 0; i < onDisplay.targetCount(); i++) {
            if (target(onDisplay, i).sourceBits() == SourceBit.GRID) {
                grid++;
            }
        }
        assertEquals(cells, grid, "the default 16 × 9 grid over the one display");
        assertEquals(0, observe(o -> o.scope().kind(ScopeKind.DISPLAY).stableId(display + 1)).targetCount());
    }

    @Test
    void generationsKeepGrowingAcrossARestartOfTheService() throws Exception {
        final long before = observe(o -> { }).generation().generation();
        d.stopService();
        assertTrue(GenerationFile.read(d.runtime.resolve(OwnerContext.GENERATION_FILE_NAME)) >= before,
            "the last published generation is kept in the runtime directory");

        // A restart numbers above the old owner, even when the old owner ran ahead of the wall clock.
        final long ahead = System.currentTimeMillis() * 1000L + 1_000_000_000_000L;
        try (GenerationFile file = new GenerationFile(d.runtime.resolve(OwnerContext.GENERATION_FILE_NAME))) {
            file.write(ahead);
        }
        d.startService();
        final long after = observe(o -> { }).generation().generation();
        assertTrue(Long.compareUnsigned(after, ahead) > 0, "generation " + after + " not above the kept " + ahead);
        assertTrue(Long.compareUnsigned(after, before) > 0);
        // a query pinned to the old owner's generation is stale, never matched by accident
        final CompletionFlyweight pinned = ObserveQueryConformance.completion(d.client.exchange(
            Requests.query(60, "x", q -> q.generation(before), f -> { })));
        assertEquals(ResultCode.STALE_GENERATION, pinned.result());
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

    private CompletionFlyweight observe(final java.util.function.Consumer<dev.saccade.protocol.ObserveRequestFlyweight> change)
        throws IOException {
        return d.observe(change);
    }

    private CompletionFlyweight query(final byte[] request) throws IOException {
        return d.query(request);
    }

    /** Observes until {@code done} holds: the scene follows X events within milliseconds. */
    private CompletionFlyweight awaitObserve(
        final java.util.function.Consumer<dev.saccade.protocol.ObserveRequestFlyweight> change,
        final java.util.function.Predicate<CompletionFlyweight> done) throws IOException {
        return d.awaitObserve(change, done, Duration.ofSeconds(20));
    }

    private static List<Long> ids(final CompletionFlyweight c) {
        final List<Long> out = new ArrayList<>();
        for (int i = 0; i < c.targetCount(); i++) {
            out.add(target(c, i).targetId());
        }
        return out;
    }

    private static final Pattern GEOMETRY = Pattern.compile(
        "Absolute upper-left X:\\s+(-?\\d+).*Absolute upper-left Y:\\s+(-?\\d+).*Width:\\s+(\\d+).*Height:\\s+(\\d+)",
        Pattern.DOTALL);

    /** x, y, width, height of a window as xwininfo reports it. */
    private int[] xwininfo(final long xid) throws Exception {
        final String out = run("xwininfo", "-id", Long.toString(xid));
        final Matcher m = GEOMETRY.matcher(out);
        assertTrue(m.find(), "xwininfo output: " + out);
        return new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
            Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4))};
    }

    private long activeWindowFromXprop() throws Exception {
        final String out = run("xprop", "-root", "_NET_ACTIVE_WINDOW");
        final Matcher m = Pattern.compile("window id # (0x[0-9a-f]+)").matcher(out);
        return m.find() ? Long.decode(m.group(1)) : 0;
    }

    private String run(final String... command) throws Exception {
        final Process p = desktop.configure(new ProcessBuilder(command)).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(10, TimeUnit.SECONDS), String.join(" ", command) + " hung");
        return out;
    }

}
