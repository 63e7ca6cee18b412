package dev.saccade.pcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.desktop.TargetIds;
import dev.saccade.owner.AgentService;
import dev.saccade.owner.OwnerEndpoint;
import dev.saccade.owner.action.NoInputExecutor;
import dev.saccade.owner.scene.ScenePacket;
import dev.saccade.owner.scene.SceneStore;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Events and paging from real generations of a real agent endpoint (scene store, AgentService,
 * socket), with PCP Core called in process: an in-process subscriber receives
 * generation.published, surface.created/destroyed, surface.focus_changed and
 * element.state_changed as the published scenes change; a window of more than
 * {@link AgentScene#MAX_ELEMENTS} elements answers -32020 and pages with focus_id.
 */
@Timeout(30)
class SceneEventsTest {
    private static final long A = 10;
    private static final long B = 20;

    @TempDir
    Path dir;
    private SceneStore store;
    private OwnerEndpoint endpoint;
    private PcpCoreService core;
    private SceneEvents events;
    private AgentScene scene;

    /** The in-process transport's peer: notifications land in a queue. */
    private static final class Listener implements PcpPeer {
        final LinkedBlockingQueue<Object[]> received = new LinkedBlockingQueue<>();

        public String name() {
            return "in-process";
        }

        public boolean isOpen() {
            return true;
        }

        public boolean notify(final String method, final Map<String, Object> params) {
            received.add(new Object[] {method, params});
            return true;
        }

        public CompletableFuture<Object> request(final String method, final Map<String, Object> params) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException());
        }

        /** Received but not yet taken, in arrival order. */
        private final List<Object[]> seen = new ArrayList<>();

        /** The oldest notification of {@code method} not yet taken (others stay), within 10 s. */
        Map<?, ?> next(final String method) throws InterruptedException {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (true) {
                for (int i = 0; i < seen.size(); i++) {
                    if (method.equals(seen.get(i)[0])) {
                        return (Map<?, ?>) seen.remove(i)[1];
                    }
                }
                final Object[] n = received.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (n == null) {
                    throw new AssertionError("no " + method + " notification");
                }
                seen.add(n);
            }
        }
    }

    @BeforeEach
    void start() throws Exception {
        store = new SceneStore(4, 4_000, 1 << 18, SceneStore.seedGeneration(0));
        endpoint = OwnerEndpoint.serve(dir.resolve("agent.sock"), store, 8, Duration.ofSeconds(1),
            new AgentService(store, NoInputExecutor.INSTANCE, null));
        publish(A, List.of(A), 0, 1);
        final AuditLog audit = new AuditLog(dir.resolve("audit.jsonl"), 1 << 20);
        scene = new AgentScene(endpoint.path(), null, Duration.ofSeconds(5));
        core = new PcpCoreService(scene, new TrustedKeys(dir.resolve("trust")), audit, 15_000, 5_000);
        events = new SceneEvents(endpoint.path(), core).start();
        core.subscriptionHook(events::subscribed);
    }

    @AfterEach
    void stop() throws Exception {
        events.close();
        scene.close();
        core.close();
        endpoint.close();
        store.close();
    }

    /** Windows {@code windows} (topmost first), {@code active} focused, each with {@code children} buttons of flags. */
    private long publish(final long active, final List<Long> windows, final int buttonFlags, final int children) {
        final ScenePacket p = store.claim();
        p.frame(1, System.nanoTime()).epochs(1, 1).state(4242, active, 1, 1, 0, 0, q8(400), q8(300));
        for (final long xid : windows) {
            add(p, TargetIds.window(xid), 0, xid, Role.WINDOW, TargetCapability.WINDOW_ACTIVATE, TargetFlag.ACTIONABLE, "w" + xid);
            for (int i = 0; i < children; i++) {
                add(p, TargetIds.ACCESSIBILITY_NAMESPACE | (xid << 20) | i, TargetIds.window(xid), xid, Role.BUTTON,
                    TargetCapability.CLICK, TargetFlag.ACTIONABLE | buttonFlags, "b" + i);
            }
        }
        return store.publish(p);
    }

    private static void add(final ScenePacket p, final long id, final long parent, final long xid, final int role,
        final int capabilities, final int flags, final String text) {
        final TargetFlyweight t = p.addTarget();
        t.targetId(id).parentId(parent).windowId(xid).displayId(1).bounds(0, 0, q8(400), q8(300))
            .safePoint(q8(10), q8(10)).capabilityBits(capabilities).flags(flags).role(role)
            .sourceBits(SourceBit.ACCESSIBILITY).confidenceQ16(0xFFFF).order(p.targetCount() - 1);
        final byte[] b = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        p.text(t, b, 0, b.length);
    }

    private static int q8(final int px) {
        return px * RectQ8.ONE;
    }

    @Test
    void sceneChangesArePushedToSubscribersInProcess() throws Exception {
        final Listener listener = new Listener();
        core.connected(listener);
        final Map<?, ?> sub = (Map<?, ?>) core.call(listener, "subscribe.events", JsonTree.object("event_types", List.of(
            "surface.focus_changed", "surface.created", "surface.destroyed", "element.state_changed", "generation.published")));
        final long g2 = publish(B, List.of(B, A), 0, 1); // B appears and takes focus
        assertEquals(Long.toUnsignedString(g2), listener.next("generation.published").get("generation"));
        assertEquals("surface-" + B, listener.next("surface.created").get("surface_id"));
        final Map<?, ?> lost = listener.next("surface.focus_changed");
        assertEquals("surface-" + A, lost.get("surface_id"));
        assertEquals(false, lost.get("focused"));
        final Map<?, ?> gained = listener.next("surface.focus_changed");
        assertEquals("surface-" + B, gained.get("surface_id"));
        assertEquals(true, gained.get("focused"));
        assertEquals(sub.get("subscription_id"), gained.get("subscription_id"));

        publish(B, List.of(B), TargetFlag.DISABLED, 1); // A goes away, B's button is disabled
        assertEquals("surface-" + A, listener.next("surface.destroyed").get("surface_id"));
        final Map<?, ?> state = listener.next("element.state_changed");
        assertEquals(List.of("actionable", "disabled"), state.get("states"));
        assertEquals(List.of("actionable"), state.get("previous_states"));

        core.disconnected(listener);
        assertEquals(false, core.hasSubscribers(), "subscriptions end with their connection");
    }

    @Test
    void aHugeElementTreeAnswersTextTooLargeAndPagesWithFocusId() throws Exception {
        publish(A, List.of(A), 0, AgentScene.MAX_ELEMENTS + 100);
        final PcpError tooLarge = org.junit.jupiter.api.Assertions.assertThrows(PcpError.class,
            () -> scene.elements("surface-" + A, null));
        assertEquals(PcpError.TEXT_TOO_LARGE, tooLarge.code());
        assertTrue(((String) tooLarge.data().get("hint")).contains("focus_id"));
        final String child = "el-" + Long.toUnsignedString(TargetIds.ACCESSIBILITY_NAMESPACE | (A << 20) | 7);
        final Map<String, Object> page = scene.elements("surface-" + A, child);
        assertEquals("b7", ((Map<?, ?>) page.get("root")).get("label"));
        final List<Object> surfaces = new ArrayList<>(scene.surfaces());
        assertEquals(1, surfaces.size());
        assertEquals("focused", ((Map<?, ?>) surfaces.get(0)).get("state"));
    }
}
