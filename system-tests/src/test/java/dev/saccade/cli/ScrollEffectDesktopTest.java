package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.desktop.TargetIds;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.FilterFlag;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.HelloFlag;
import dev.saccade.protocol.ObserveRequestFlyweight;
import dev.saccade.protocol.QueryFilterFlyweight;
import dev.saccade.protocol.QueryRequestFlyweight;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TextMatch;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * SCROLL through the whole pipeline has a visible effect: wheel notches on the grid cell over
 * gtk3-demo's list of demos move the list, as the list's own accessible objects report.
 */
@WithTestDesktop(apps = DemoApp.GTK3_DEMO)
class ScrollEffectDesktopTest {
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void scrollingTheDemoListMovesItsEntries(final TestDesktop desktop) throws Exception {
        final AppHandle gtk = desktop.apps().get(0);
        try (DesktopOwner owner = DesktopOwner.withAccessibility(desktop, "saccade-scroll")) {
            try (AgentClient client = owner.connect(Duration.ofSeconds(20), HelloFlag.EXTENDED_ROLES)) {
                final int[] entry = entry(client, gtk.windowId(), 30);
                assertTrue(entry != null, "gtk3-demo's first demo entry is a target");
                final long cell = cellAt(client, entry[0], entry[1]);
                final ActionCompletionFlyweight scroll = InputHelperDesktopTest.send(client, new byte[0],
                    a -> a.kind(ActionKind.SCROLL).targetId(cell).deltaYQ8(10 * RectQ8.ONE), 0);
                assertEquals(ResultCode.OK, scroll.result(), ResultCode.name(scroll.result()));
                final int[] now = Await.probe(() -> entry(client, gtk.windowId(), 1), e -> e == null || e[1] != entry[1],
                    Duration.ofSeconds(20), e -> "the demo list to move; the entry still at y " + e[1]);
                // scrolled down: the entry moved up, or out of view (then it is no longer visible/actionable)
                assertTrue(now == null || now[1] < entry[1], "moved up: " + (now == null ? "out of view" : now[1] + " < " + entry[1]));
            }
        }
    }

    /**
     * The centre (x, y Q8) of the visible, not occluded "Application Class" list entry in the
     * window, trying up to {@code tries} generations; null when it is not visible.
     */
    private static int[] entry(final AgentClient client, final long window, final int tries) throws Exception {
        for (int i = 0; i < tries; i++) {
            final byte[] text = "Application Class".getBytes(StandardCharsets.UTF_8);
            final BytesStore<?, ?> req = client.requestStore();
            final long at = client.requestOffset();
            final int total = QueryRequestFlyweight.LENGTH + QueryFilterFlyweight.LENGTH + text.length;
            req.zeroOut(at, at + total);
            final QueryRequestFlyweight q = new QueryRequestFlyweight().wrap(req, at);
            q.header().set(QueryRequestFlyweight.LENGTH, AgentAbi.QUERY_REQUEST, 0);
            q.requestId(2).requestedCapabilityBits(Capability.OBSERVE).maximumResults(50).filterCount(1)
                .filterStride(QueryFilterFlyweight.LENGTH).filtersOffset(QueryRequestFlyweight.LENGTH).totalSize(total);
            q.scope().kind(ScopeKind.DESKTOP).sourceMode(SourceMode.SEMANTIC);
            q.freshness().policy(FreshnessPolicy.AFTER_GENERATION).timeoutNs(i == 0 ? 0 : TimeUnit.MILLISECONDS.toNanos(200));
            new QueryFilterFlyweight().wrap(req, at + QueryRequestFlyweight.LENGTH).flags(FilterFlag.TEXT)
                .textMatch(TextMatch.EXACT).textOffset(QueryRequestFlyweight.LENGTH + QueryFilterFlyweight.LENGTH)
                .textSize(text.length);
            req.write(at + QueryRequestFlyweight.LENGTH + QueryFilterFlyweight.LENGTH, text, 0, text.length);
            client.send(total);
            final var reply = client.receive(AgentAbi.QUERY_COMPLETION);
            final CompletionFlyweight c = new CompletionFlyweight().wrap(reply.bytes(), reply.offset());
            for (int k = 0; k < c.targetCount(); k++) {
                final TargetFlyweight t = new TargetFlyweight().wrap(reply.bytes(),
                    reply.offset() + c.targetsOffset() + (long) k * c.targetStride());
                if (t.windowId() == window && t.role() == Role.TABLE_CELL && t.boundsHeightQ8() > 0
                    && (t.flags() & dev.saccade.protocol.TargetFlag.OCCLUDED) == 0) {
                    return new int[] {t.boundsXQ8() + t.boundsWidthQ8() / 2, t.boundsYQ8() + t.boundsHeightQ8() / 2};
                }
            }
        }
        return null;
    }

    /** The grid cell holding the point. */
    static long cellAt(final AgentClient client, final int xQ8, final int yQ8) throws Exception {
        final BytesStore<?, ?> req = client.requestStore();
        final long at = client.requestOffset();
        req.zeroOut(at, at + ObserveRequestFlyweight.LENGTH);
        final ObserveRequestFlyweight o = new ObserveRequestFlyweight().wrap(req, at);
        o.header().set(ObserveRequestFlyweight.LENGTH, AgentAbi.OBSERVE_REQUEST, 0);
        o.requestId(9).requestedCapabilityBits(Capability.OBSERVE).maximumTargets(4).targetStride(88)
            .totalCapacity(AgentAbi.MAX_MESSAGE_BYTES);
        o.scope().kind(ScopeKind.RECT).sourceMode(SourceMode.GRID).rect(xQ8, yQ8, 1, 1);
        o.freshness().policy(FreshnessPolicy.LATEST_VALID);
        client.send(ObserveRequestFlyweight.LENGTH);
        final var reply = client.receive(AgentAbi.OBSERVE_COMPLETION);
        final CompletionFlyweight c = new CompletionFlyweight().wrap(reply.bytes(), reply.offset());
        assertEquals(1, c.targetCount(), "one grid cell holds the point");
        final long id = new TargetFlyweight().wrap(reply.bytes(), reply.offset() + c.targetsOffset()).targetId();
        assertEquals(2, TargetIds.namespace(id));
        return id;
    }
}
