package dev.saccade.owner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.desktop.TargetIds;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.testdesktop.WithTestDesktop;
import java.io.File;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Targets in the right window (§5.13 "Windows", D18) and the size of an active-window observe
 * (D17), through the real endpoint on a real desktop: a modal dialog of gtk3-demo moved over the
 * button of its parent window that opened it.
 */
@WithTestDesktop(apps = {DemoApp.GTK3_DEMO})
@WithDesktopService
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WindowAttributionDesktopTest {
    private TestDesktop desktop;
    private DesktopService d;

    @BeforeAll
    void startService(final TestDesktop testDesktop, final DesktopService service) {
        desktop = testDesktop;
        d = service;
    }

    private void run(final String... command) throws Exception {
        final Process p = desktop.configure(new ProcessBuilder(command)).redirectErrorStream(true)
            .redirectOutput(new File(desktop.logDir().toFile(), "xdotool.log")).start();
        assertTrue(p.waitFor(15, TimeUnit.SECONDS), String.join(" ", command));
        assertEquals(0, p.exitValue(), String.join(" ", command));
    }

    private static TargetFlyweight findText(final CompletionFlyweight c, final Predicate<TargetFlyweight> p,
        final String text) {
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = DesktopService.target(c, i);
            if (p.test(t) && text.equals(DesktopService.text(c, t))) {
                return t;
            }
        }
        return null;
    }

    private static boolean accessible(final TargetFlyweight t) {
        return TargetIds.namespace(t.targetId()) == TargetIds.namespace(TargetIds.ACCESSIBILITY_NAMESPACE);
    }

    private static boolean windowTarget(final TargetFlyweight t) {
        return TargetIds.namespace(t.targetId()) == TargetIds.namespace(TargetIds.WINDOW_NAMESPACE);
    }

    /** The target's bounds hold the pixel. */
    private static boolean holds(final TargetFlyweight t, final int x, final int y) {
        final int x0 = t.boundsXQ8() / 256;
        final int y0 = t.boundsYQ8() / 256;
        return x >= x0 && y >= y0 && x < x0 + t.boundsWidthQ8() / 256 && y < y0 + t.boundsHeightQ8() / 256;
    }

    /** What the wait above looks at, for its failure message. */
    private static String describe(final CompletionFlyweight c, final long openerId, final long dialogXid) {
        final StringBuilder sb = new StringBuilder("active ").append(c.generation().windowId()).append(", dialog ")
            .append(dialogXid).append('\n');
        for (int i = 0; i < c.targetCount(); i++) {
            final TargetFlyweight t = DesktopService.target(c, i);
            if (TargetIds.namespace(t.targetId()) == 2) {
                continue;
            }
            sb.append(t.targetId() == openerId ? "* " : "  ").append(Role.name(t.role())).append(" w=").append(t.windowId())
                .append(" flags=").append(t.flags()).append(" \"").append(DesktopService.text(c, t)).append("\" ")
                .append(t.boundsXQ8() / 256).append(',').append(t.boundsYQ8() / 256).append(' ')
                .append(t.boundsWidthQ8() / 256).append('x').append(t.boundsHeightQ8() / 256).append('\n');
        }
        return sb.toString();
    }

    @Test
    void gtkDemosMainWindowIsAtMost64SemanticTargetsUntruncated() throws Exception {
        final AppHandle gtk = desktop.apps().stream().filter(a -> a.app() == DemoApp.GTK3_DEMO).findFirst().orElseThrow();
        run("xdotool", "windowactivate", "--sync", Long.toString(gtk.windowId()));
        final CompletionFlyweight semantic = d.awaitObserve(o -> o.scope().kind(ScopeKind.ACTIVE_WINDOW)
                .sourceMode(SourceMode.SEMANTIC),
            c -> c.generation().windowId() == gtk.windowId()
                && DesktopService.count(c, t -> t.role() == Role.BUTTON && "Run".equals(DesktopService.text(c, t))) == 1);
        final int count = (int) semantic.targetCount();
        assertTrue(count <= 64, "gtk3-demo's main window, semantic: " + count + " targets");
        assertEquals(0, semantic.header().flags() & AgentAbi.FLAG_TRUNCATED, "untruncated");
        final CompletionFlyweight fused = d.observe(o -> o.scope().kind(ScopeKind.ACTIVE_WINDOW));
        final int grid = DesktopService.count(fused, t -> TargetIds.namespace(t.targetId()) == 2);
        final CompletionFlyweight cells = d.observe(o -> o.scope().kind(ScopeKind.ACTIVE_WINDOW).sourceMode(SourceMode.GRID));
        System.out.println("gtk3-demo main window, active-window observe: semantic " + count + " targets; fused "
            + fused.targetCount() + " (" + grid + " of them grid cells); GRID mode " + cells.targetCount() + " cells");
        // D22: over a window with accessible targets a fused active-window observe leaves the grid cells out
        assertEquals(0, grid, "no grid cell in the fused active-window observe");
        assertTrue(fused.targetCount() <= 64, "fused: " + fused.targetCount() + " targets");
        assertTrue(cells.targetCount() > 0, "GRID mode still returns the window's cells");
    }

    @Test
    void aModalDialogsObserveHoldsOnlyTheDialogAndTheMainWindowKeepsItsObjects() throws Exception {
        final Process dialogs = desktop.configure(new ProcessBuilder("gtk3-demo", "--run=dialog")).redirectErrorStream(true)
            .redirectOutput(new File(desktop.logDir().toFile(), "gtk3-demo-dialog.log")).start();
        try {
            // The demo's window, with the button that opens the modal dialog.
            final CompletionFlyweight before = d.awaitObserve(o -> o.scope().sourceMode(SourceMode.SEMANTIC),
                c -> findText(c, t -> accessible(t) && t.role() == Role.BUTTON && t.windowId() != 0, "Interactive Dialog") != null);
            final TargetFlyweight opener = findText(before, t -> accessible(t) && t.role() == Role.BUTTON, "Interactive Dialog");
            final long openerId = opener.targetId();
            final long parentXid = opener.windowId();
            final int cx = (opener.boundsXQ8() + opener.boundsWidthQ8() / 2) / 256;
            final int cy = (opener.boundsYQ8() + opener.boundsHeightQ8() / 2) / 256;
            assertEquals(ResultCode.PLATFORM_OK,
                (int) d.service.invoke(openerId, System.nanoTime() + TimeUnit.SECONDS.toNanos(5)).get(10, TimeUnit.SECONDS));
            final CompletionFlyweight opened = d.awaitObserve(o -> { },
                c -> findText(c, WindowAttributionDesktopTest::windowTarget, "Interactive Dialog") != null);
            final long dialogXid = findText(opened, WindowAttributionDesktopTest::windowTarget, "Interactive Dialog").windowId();
            // Over the centre of the button that opened it: by position alone (the topmost window of
            // the process holding an object's centre) the button would be the dialog's.
            run("xdotool", "windowmove", "--sync", Long.toString(dialogXid), Integer.toString(Math.max(0, cx - 40)),
                Integer.toString(Math.max(0, cy - 40)));
            run("xdotool", "windowactivate", "--sync", Long.toString(dialogXid));
            d.service.accessibility().requestRefresh().get(10, TimeUnit.SECONDS);
            final CompletionFlyweight covered;
            try {
                covered = d.awaitObserve(o -> { }, c -> {
                    final TargetFlyweight dialog = DesktopService.find(c, TargetIds.window(dialogXid));
                    return c.generation().windowId() == dialogXid && dialog != null && DesktopService.find(c, openerId) != null
                        && holds(dialog, cx, cy) && findText(c, t -> accessible(t) && t.windowId() == dialogXid, "OK") != null;
                });
            } catch (final AssertionError e) {
                throw new AssertionError(e.getMessage() + "\n" + describe(d.observe(o -> { }), openerId, dialogXid), e);
            }
            final TargetFlyweight button = DesktopService.find(covered, openerId);
            assertEquals(parentXid, button.windowId(), "the covered button stays its own window's");
            final Set<Long> parentObjects = new HashSet<>();
            int dialogObjects = 0;
            for (int i = 0; i < covered.targetCount(); i++) {
                final TargetFlyweight t = DesktopService.target(covered, i);
                if (accessible(t) && t.windowId() == parentXid) {
                    parentObjects.add(t.targetId());
                } else if (accessible(t) && t.windowId() == dialogXid) {
                    dialogObjects++;
                }
            }
            assertTrue(parentObjects.size() > 3, "the demo window keeps its objects: " + parentObjects.size());
            assertTrue(dialogObjects > 3, "the dialog has its own: " + dialogObjects);

            final CompletionFlyweight active = d.observe(o -> o.scope().kind(ScopeKind.ACTIVE_WINDOW)
                .sourceMode(SourceMode.SEMANTIC));
            assertEquals(ResultCode.OK, active.result());
            assertEquals(dialogXid, active.generation().windowId(), "the dialog is the active window");
            int accessibleInDialog = 0;
            for (int i = 0; i < active.targetCount(); i++) {
                final TargetFlyweight t = DesktopService.target(active, i);
                assertFalse(parentObjects.contains(t.targetId()),
                    "an object of the demo window in the dialog's observe: " + DesktopService.text(active, t));
                if (accessible(t)) {
                    accessibleInDialog++;
                }
            }
            assertNotNull(findText(active, WindowAttributionDesktopTest::accessible, "OK"), "the dialog's own button");
            assertTrue(accessibleInDialog >= 3 && active.targetCount() <= 64,
                "the dialog's observe: " + active.targetCount() + " targets, " + accessibleInDialog + " accessible");
            System.out.println("modal dialog over its window: active-window observe " + active.targetCount()
                + " targets (" + accessibleInDialog + " accessible); the demo window keeps " + parentObjects.size());
        } finally {
            dialogs.destroy();
            if (!dialogs.waitFor(5, TimeUnit.SECONDS)) {
                dialogs.destroyForcibly();
            }
        }
    }
}
