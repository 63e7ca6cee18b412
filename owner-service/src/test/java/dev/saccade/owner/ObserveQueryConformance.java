package dev.saccade.owner;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.owner.scene.SceneStore;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.CompletionValidator;
import dev.saccade.protocol.FilterFlag;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.HelloCompletionFlyweight;
import dev.saccade.protocol.Relation;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TextMatch;
import dev.saccade.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The observe and query conformance cases of spec §6 (5–8, 14–31) against fixture F. Each
 * subclass carries the frames its own way; {@link SocketConformanceTest} is the proof over the
 * real endpoint.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
abstract class ObserveQueryConformance {
    protected SceneStore store;
    protected Wire wire;

    /** Starts whatever serves {@link #store}. */
    protected abstract void startService() throws Exception;

    protected abstract Wire connect() throws Exception;

    protected abstract void stopService() throws Exception;

    @BeforeEach
    void start() throws Exception {
        store = FixtureF.store();
        FixtureF.publish(store);
        startService();
        wire = connect();
        assertEquals(ResultCode.OK, helloResult(wire.exchange(Requests.hello(7, Capability.POLICY))));
    }

    @AfterEach
    void stop() throws Exception {
        if (wire != null) {
            wire.close();
        }
        stopService();
        store.close();
    }

    static int helloResult(final byte[] reply) {
        assertNotNull(reply, "hello must be answered");
        assertEquals(HelloCompletionFlyweight.LENGTH, reply.length);
        return new HelloCompletionFlyweight().wrap(BytesStore.wrap(reply), 0).result();
    }

    /** The reply viewed as a completion, after the client's own validation. */
    static CompletionFlyweight completion(final byte[] reply) {
        assertNotNull(reply, "expected a completion, the connection was closed");
        assertEquals(CompletionValidator.VALID,
            new CompletionValidator().validate(Bytes.wrapForRead(reply), 0, reply.length, 0),
            "completion is not self-consistent");
        return new CompletionFlyweight().wrap(BytesStore.wrap(reply), 0);
    }

    static TargetFlyweight target(final CompletionFlyweight c, final int i) {
        return new TargetFlyweight().wrap(c.bytes(), c.targetsOffset() + (long) i * c.targetStride());
    }

    static String text(final CompletionFlyweight c, final TargetFlyweight t) {
        final byte[] b = new byte[(int) t.textSize()];
        c.bytes().read(t.textOffset(), b, 0, b.length);
        return new String(b, StandardCharsets.UTF_8);
    }

    private static void assertTyped(final byte[] reply, final int kind, final int result) {
        final CompletionFlyweight c = completion(reply);
        assertEquals(kind, c.header().messageKind());
        assertEquals(result, c.result(), ResultCode.name(c.result()));
        assertEquals(ResultCode.platformErrorFor(result), c.platformError());
        assertEquals(168, c.totalSize());
        assertEquals(0, c.targetCount());
    }

    private byte[] observe(final java.util.function.Consumer<dev.saccade.protocol.ObserveRequestFlyweight> change)
        throws Exception {
        return wire.exchange(Requests.observe(9, change));
    }

    // ---- Hello (5–8) ----

    @Test
    void requestBeforeHelloIsAnsweredInvalidAndTheConnectionStaysOpen() throws Exception {
        try (Wire fresh = connect()) {
            final byte[] reply = fresh.exchange(Requests.observe(9, o -> { }));
            assertEquals(ResultCode.INVALID_MESSAGE, helloResult(reply));
            assertEquals(0, new HelloCompletionFlyweight().wrap(BytesStore.wrap(reply), 0).requestId());
            final byte[] ok = fresh.exchange(Requests.hello(7, Capability.OBSERVE));
            assertEquals(ResultCode.OK, helloResult(ok));
            final HelloCompletionFlyweight h = new HelloCompletionFlyweight().wrap(BytesStore.wrap(ok), 0);
            assertEquals(7, h.requestId());
            assertEquals(Capability.OBSERVE, h.grantedCapabilityBits());
            assertTrue(h.serviceNonce(0) != 0 || h.serviceNonce(1) != 0, "16-byte nonce");
            final CompletionFlyweight c = completion(fresh.exchange(Requests.observe(9, o -> { })));
            assertEquals(ResultCode.OK, c.result());
            assertEquals(9, c.requestId());
            assertEquals(Capability.OBSERVE, c.grantedCapabilityBits());
        }
    }

    @Test
    void clipboardOnlyHelloIsDeniedAndMalformedHellosAreInvalid() throws Exception {
        try (Wire fresh = connect()) {
            final byte[] denied = fresh.exchange(Requests.hello(7, Capability.CLIPBOARD));
            assertEquals(ResultCode.CAPABILITY_DENIED, helloResult(denied));
            assertEquals(0, new HelloCompletionFlyweight().wrap(BytesStore.wrap(denied), 0).grantedCapabilityBits());
            assertEquals(-13, new HelloCompletionFlyweight().wrap(BytesStore.wrap(denied), 0).platformError());
            assertEquals(ResultCode.INVALID_MESSAGE,
                helloResult(fresh.exchange(Arrays.copyOf(Requests.hello(7, 1), 47))));
            assertEquals(ResultCode.INVALID_MESSAGE,
                helloResult(fresh.exchange(Arrays.copyOf(Requests.hello(7, 1), 49))));
            // still unauthenticated: an observe is another bad Hello attempt
            assertEquals(ResultCode.INVALID_MESSAGE, helloResult(fresh.exchange(Requests.observe(9, o -> { }))));
            // unknown and denied bits are never granted
            final byte[] ok = fresh.exchange(Requests.hello(8, 0xFFFF_FFFF));
            assertEquals(Capability.POLICY, new HelloCompletionFlyweight().wrap(BytesStore.wrap(ok), 0).grantedCapabilityBits());
        }
    }

    @Test
    void authenticatedBadHeadersCloseTheConnection() throws Exception {
        final byte[][] bad = {
            Requests.hello(7, 1),
            withInt(Requests.observe(9, o -> { }), 4, 0x00010000),
            withInt(Requests.observe(9, o -> { }), 8, AgentAbi.OBSERVE_COMPLETION),
            withInt(Requests.observe(9, o -> { }), 0, 97)};
        for (final byte[] frame : bad) {
            try (Wire fresh = connect()) {
                assertEquals(ResultCode.OK, helloResult(fresh.exchange(Requests.hello(7, Capability.POLICY))));
                assertNull(fresh.exchange(frame), "must disconnect");
            }
        }
    }

    private static byte[] withInt(final byte[] frame, final int at, final int value) {
        BytesStore.wrap(frame).writeInt(at, value);
        return frame;
    }

    // ---- Observe (14–24) ----

    @Test
    void desktopObserveReturnsFixtureFWithItsTextLane() throws Exception {
        final CompletionFlyweight c = completion(observe(o -> { }));
        assertEquals(ResultCode.OK, c.result());
        assertEquals(2, c.targetCount());
        assertEquals(42, c.generation().generation());
        assertEquals(42, c.generation().sceneEpoch());
        assertEquals(43, c.generation().frameId());
        assertEquals(49, c.generation().captureTimeNs());
        assertEquals(700, c.generation().processId());
        assertEquals(7, c.generation().windowId());
        assertEquals(8, c.generation().displayId());
        assertEquals(46, c.generation().transformEpoch());
        assertEquals(47, c.generation().topologyEpoch());
        assertEquals(9, c.generation().permissionEpoch());
        assertEquals(AgentAbi.FLAG_SOURCE_INCOMPLETE, c.header().flags());
        final TargetFlyweight t0 = target(c, 0);
        assertEquals(11, t0.targetId());
        assertTrue((t0.capabilityBits() & TargetCapability.TEXT_SELECT) != 0);
        assertEquals(344, t0.textOffset());
        assertEquals("Button", text(c, t0));
        assertEquals(350, target(c, 1).textOffset());
        assertEquals("Cancel", text(c, target(c, 1)));
        assertEquals(356, c.totalSize());
    }

    @Test
    void activeWindowScopeResolvesTheWindowAndFillsZeroIds() throws Exception {
        final CompletionFlyweight c = completion(observe(o -> o.scope().kind(ScopeKind.ACTIVE_WINDOW).sourceMode(SourceMode.PIXEL)));
        assertEquals(2, c.targetCount());
        assertEquals(7, c.scope().stableId());
        assertEquals(10, c.scope().rectXQ8());
        assertEquals(20, c.scope().rectYQ8());
        assertEquals(1000, c.scope().rectWidthQ8());
        assertEquals(800, c.scope().rectHeightQ8());
        assertEquals(7, target(c, 1).windowId());
        assertEquals(8, target(c, 1).displayId());

        assertTyped(observe(o -> o.scope().kind(ScopeKind.ACTIVE_WINDOW).stableId(8)),
            AgentAbi.OBSERVE_COMPLETION, ResultCode.TARGET_NOT_FOUND);
        assertEquals(2, completion(observe(o -> o.scope().kind(ScopeKind.ACTIVE_WINDOW).stableId(7))).targetCount());
    }

    @Test
    void activeWindowScopeDropsAZeroWindowTargetOutsideTheWindow() throws Exception {
        FixtureF.publish(store, t12 -> t12.bounds(2000, 200, 300, 400), p -> { });
        awaitGeneration(43);
        final CompletionFlyweight c = completion(observe(o -> o.scope().kind(ScopeKind.ACTIVE_WINDOW).sourceMode(SourceMode.PIXEL)));
        assertEquals(1, c.targetCount());
        assertEquals(11, target(c, 0).targetId());
    }

    /** D22: a FUSED active-window observe of a window with accessible targets leaves its grid cells out. */
    @Test
    void activeWindowObserveOfASemanticWindowLeavesItsGridCellsOut() throws Exception {
        FixtureF.publish(store, t12 -> t12.windowId(7).sourceBits(SourceBit.GRID).role(Role.UNKNOWN),
            p -> new TargetFlyweight().wrap(p.bytes(), p.recordAt(0)).sourceBits(SourceBit.ACCESSIBILITY));
        awaitGeneration(43);
        CompletionFlyweight c = completion(observe(o -> o.scope().kind(ScopeKind.ACTIVE_WINDOW).sourceMode(SourceMode.FUSED)));
        assertEquals(1, c.targetCount(), "the grid cell is left out");
        assertEquals(11, target(c, 0).targetId());
        assertEquals(1, completion(observe(o -> o.scope().kind(ScopeKind.ACTIVE_WINDOW))).targetCount(), "mode 0 is FUSED");
        c = completion(observe(o -> o.scope().kind(ScopeKind.ACTIVE_WINDOW).sourceMode(SourceMode.GRID)));
        assertEquals(1, c.targetCount(), "asked for: GRID mode returns it");
        assertEquals(12, target(c, 0).targetId());
        assertEquals(2, completion(observe(o -> o.scope().kind(ScopeKind.DESKTOP))).targetCount(), "other scopes keep it");

        // a window without accessible targets keeps its grid cells
        FixtureF.publish(store, t12 -> t12.windowId(7).sourceBits(SourceBit.GRID).role(Role.UNKNOWN), p -> { });
        awaitGeneration(44);
        assertEquals(2, completion(observe(o -> o.scope().kind(ScopeKind.ACTIVE_WINDOW))).targetCount());
    }

    @Test
    void capacityLimitsTruncateRecordsAndText() throws Exception {
        CompletionFlyweight c = completion(observe(o -> o.maximumTargets(1)));
        assertEquals(1, c.targetCount());
        assertEquals(AgentAbi.FLAG_TRUNCATED | AgentAbi.FLAG_SOURCE_INCOMPLETE, c.header().flags());
        assertEquals(262, c.totalSize());

        c = completion(observe(o -> o.totalCapacity(350)));
        assertEquals(2, c.targetCount());
        assertEquals(350, c.totalSize());
        assertTrue((c.header().flags() & AgentAbi.FLAG_TRUNCATED) != 0);
        final TargetFlyweight t12 = target(c, 1);
        assertTrue((t12.flags() & TargetFlag.TEXT_TRUNCATED) != 0);
        assertEquals(0, t12.textOffset());
        assertEquals(0, t12.textSize());
        assertEquals("Button", text(c, target(c, 0)));

        final byte[] reply = observe(o -> o.targetStride(96));
        c = completion(reply);
        assertEquals(96, c.targetStride());
        assertEquals(360, target(c, 0).textOffset());
        for (int pad = 168 + 88; pad < 168 + 96; pad++) {
            assertEquals(0, reply[pad], "records are zero-padded to the stride");
        }
        assertEquals(12, target(c, 1).targetId());
    }

    @Test
    void sourceModesAndRectScopesSelectAsTheSpecSays() throws Exception {
        assertEquals(0, completion(observe(o -> o.scope().sourceMode(SourceMode.SEMANTIC))).targetCount());
        assertEquals(2, completion(observe(o -> o.scope().sourceMode(SourceMode.PIXEL))).targetCount());
        assertEquals(0, completion(observe(o -> o.scope().sourceMode(SourceMode.GRID))).targetCount());
        assertEquals(2, completion(observe(o -> o.scope().sourceMode(0))).targetCount());
        assertEquals(0, completion(observe(o -> o.scope().sourceMode(9))).targetCount());
        assertEquals(0, completion(observe(o -> o.scope().kind(ScopeKind.RECT).rect(0, 200, 100, 400))).targetCount());
        final CompletionFlyweight c = completion(observe(o -> o.scope().kind(ScopeKind.RECT).rect(0, 200, 101, 400)));
        assertEquals(2, c.targetCount());
        assertEquals(ScopeKind.RECT, c.scope().kind());
        assertEquals(101, c.scope().rectWidthQ8());
        assertEquals(1, completion(observe(o -> o.scope().kind(ScopeKind.DISPLAY).stableId(8))).targetCount());
        assertEquals(0, completion(observe(o -> o.scope().kind(77))).targetCount());
    }

    @Test
    void freshnessAndCapabilityErrorsAreTypedOrDisconnect() throws Exception {
        assertTyped(observe(o -> o.freshness().policy(FreshnessPolicy.FORCE_REFRESH)),
            AgentAbi.OBSERVE_COMPLETION, ResultCode.ACTION_UNSUPPORTED);
        assertTyped(observe(o -> o.freshness().flags(1)), AgentAbi.OBSERVE_COMPLETION, ResultCode.ACTION_UNSUPPORTED);
        for (final int caps : new int[] {0, Capability.POINTER, Capability.OBSERVE | Capability.CLIPBOARD}) {
            final byte[] reply = observe(o -> o.requestedCapabilityBits(caps).scope().kind(ScopeKind.RECT).rect(1, 2, 3, 4));
            assertTyped(reply, AgentAbi.OBSERVE_COMPLETION, ResultCode.CAPABILITY_DENIED);
            final CompletionFlyweight c = completion(reply);
            assertEquals(ScopeKind.RECT, c.scope().kind(), "scope echoed");
            assertEquals(4, c.scope().rectHeightQ8());
            assertEquals(Capability.POLICY, c.grantedCapabilityBits());
        }
        assertDisconnects(Requests.observe(9, o -> o.freshness().policy(0)));
        assertDisconnects(Requests.observe(9, o -> o.freshness().policy(4)));
        assertDisconnects(Requests.observe(9, o -> o.freshness().flags(4)));
        assertDisconnects(Requests.observe(9, o -> o.maximumTargets(0)));
        assertDisconnects(Requests.observe(9, o -> o.maximumTargets(10_001)));
        assertDisconnects(Requests.observe(9, o -> o.targetStride(87)));
        assertDisconnects(Requests.observe(9, o -> o.totalCapacity(167)));
        assertDisconnects(Requests.observe(9, o -> o.totalCapacity(1_048_577)));
    }

    @Test
    void stateEpochsThatDisagreeWithTheSceneAreStale() throws Exception {
        // transform epoch off by one (45 for 46), then topology (48 for 47)
        FixtureF.publish(store, t -> { }, p -> p.stateEpochs(43, 45, 47));
        assertTyped(awaitResult(ResultCode.STALE_GENERATION), AgentAbi.OBSERVE_COMPLETION, ResultCode.STALE_GENERATION);
        FixtureF.publish(store);
        awaitGeneration(44);
        FixtureF.publish(store, t -> { }, p -> p.stateEpochs(45, 46, 48));
        assertTyped(awaitResult(ResultCode.STALE_GENERATION), AgentAbi.OBSERVE_COMPLETION, ResultCode.STALE_GENERATION);
        FixtureF.publish(store);
        awaitGeneration(46);
        assertEquals(ResultCode.OK, completion(observe(o -> { })).result());
    }

    @Test
    void afterGenerationWithZeroTimeoutTimesOutAtOnce() throws Exception {
        assertTyped(observe(o -> o.freshness().policy(FreshnessPolicy.AFTER_GENERATION).afterGeneration(42)),
            AgentAbi.OBSERVE_COMPLETION, ResultCode.TIMEOUT);
        // an older generation is answered at once
        assertEquals(42, completion(observe(o -> o.freshness().policy(FreshnessPolicy.AFTER_GENERATION)
            .afterGeneration(41).timeoutNs(1_000_000_000L))).generation().generation());
    }

    @Test
    void afterGenerationParksUntilANewerSceneIsPublished() throws Exception {
        final Thread publisher = new Thread(() -> {
            try {
                TimeUnit.MILLISECONDS.sleep(100); // the spec's "scene becomes 43 after 100 ms"
            } catch (final InterruptedException e) {
                return;
            }
            FixtureF.publish(store);
        });
        publisher.start();
        final CompletionFlyweight c = completion(observe(o -> o.freshness().policy(FreshnessPolicy.AFTER_GENERATION)
            .afterGeneration(42).timeoutNs(5_000_000_000L)));
        publisher.join();
        assertEquals(ResultCode.OK, c.result());
        assertEquals(43, c.generation().generation());
    }

    @Test
    void afterGenerationTimesOutAtItsDeadlineWhenNothingNewAppears() throws Exception {
        final long start = System.nanoTime();
        assertTyped(observe(o -> o.freshness().policy(FreshnessPolicy.AFTER_GENERATION).afterGeneration(42)
            .timeoutNs(300_000_000L)), AgentAbi.OBSERVE_COMPLETION, ResultCode.TIMEOUT);
        final long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(elapsedMs >= 300, "answered before the deadline: " + elapsedMs + " ms");
        assertTrue(elapsedMs < 3_000, "answered long after the deadline: " + elapsedMs + " ms");
    }

    // ---- Query (25–31) ----

    @Test
    void queryFiltersByRoleTextSourceAndCapability() throws Exception {
        CompletionFlyweight c = completion(wire.exchange(Requests.query(FilterFlag.ROLE, f -> f.role(Role.BUTTON))));
        assertEquals(AgentAbi.QUERY_COMPLETION, c.header().messageKind());
        assertEquals(1, c.targetCount());
        assertEquals(88, c.targetStride());
        assertEquals(AgentAbi.FLAG_SOURCE_INCOMPLETE, c.header().flags());
        assertEquals(11, target(c, 0).targetId());

        assertEquals(1, completion(wire.exchange(Requests.queryText(TextMatch.EXACT, "Button"))).targetCount());
        assertEquals(1, completion(wire.exchange(Requests.queryText(TextMatch.PREFIX, "But"))).targetCount());
        assertEquals(1, completion(wire.exchange(Requests.queryText(TextMatch.SUBSTRING, "tto"))).targetCount());
        assertEquals(0, completion(wire.exchange(Requests.queryText(TextMatch.EXACT, "button"))).targetCount());
        c = completion(wire.exchange(Requests.queryText(TextMatch.SUBSTRING, "n")));
        assertEquals(2, c.targetCount());
        assertEquals("Cancel", text(c, target(c, 1)));

        assertEquals(2, completion(wire.exchange(Requests.query(FilterFlag.SOURCE,
            f -> f.sourceBits(SourceBit.ACCESSIBILITY | SourceBit.NEURAL)))).targetCount());
        assertEquals(0, completion(wire.exchange(Requests.query(FilterFlag.SOURCE,
            f -> f.sourceBits(SourceBit.GRID)))).targetCount());
        assertEquals(0, completion(wire.exchange(Requests.query(FilterFlag.CAPABILITY,
            f -> f.forbiddenCapabilityBits(TargetCapability.INVOKE)))).targetCount());
        assertEquals(2, completion(wire.exchange(Requests.query(FilterFlag.CAPABILITY,
            f -> f.requiredCapabilityBits(TargetCapability.CLICK | TargetCapability.INVOKE)))).targetCount());
        assertEquals(1, completion(wire.exchange(Requests.query(FilterFlag.STABLE_ID, f -> f.targetId(12)))).targetCount());
        assertEquals(2, completion(wire.exchange(Requests.query(FilterFlag.CONFIDENCE,
            f -> f.minimumConfidenceQ16(65000)))).targetCount());
        assertEquals(0, completion(wire.exchange(Requests.query(FilterFlag.CONFIDENCE,
            f -> f.minimumConfidenceQ16(65001)))).targetCount());
        assertEquals(2, completion(wire.exchange(Requests.query(FilterFlag.GEOMETRY,
            f -> f.geometry(399, 599, 1, 1)))).targetCount());
        assertEquals(0, completion(wire.exchange(Requests.query(FilterFlag.GEOMETRY,
            f -> f.geometry(400, 600, 1, 1)))).targetCount());
        assertEquals(2, completion(wire.exchange(Requests.query(0, f -> { }))).targetCount());
    }

    @Test
    void queryPinFreshnessAndBadFiltersGiveTheSpecsAnswers() throws Exception {
        assertTyped(wire.exchange(Requests.query(30, "Button", q -> q.generation(41), f -> { })),
            AgentAbi.QUERY_COMPLETION, ResultCode.STALE_GENERATION);
        assertEquals(ResultCode.OK, completion(wire.exchange(Requests.query(30, "Button", q -> q.generation(0), f -> { }))).result());
        assertTyped(wire.exchange(Requests.query(31, "Button",
            q -> q.freshness().policy(FreshnessPolicy.FORCE_REFRESH), f -> { })),
            AgentAbi.QUERY_COMPLETION, ResultCode.ACTION_UNSUPPORTED);
        assertTyped(wire.exchange(Requests.query(FilterFlag.RELATION, f -> f.relation(Relation.NEAREST).relationTargetId(11))),
            AgentAbi.QUERY_COMPLETION, ResultCode.ACTION_UNSUPPORTED);
        assertTyped(wire.exchange(Requests.query(32, "Button",
            q -> q.generation(0).freshness().policy(FreshnessPolicy.AFTER_GENERATION).afterGeneration(42), f -> { })),
            AgentAbi.QUERY_COMPLETION, ResultCode.TIMEOUT);
        assertDisconnects(Requests.query(33, "Button", q -> q.filtersOffset(0), f -> { }));
        assertDisconnects(Requests.query(FilterFlag.RELATION, f -> f.relation(10)));
        assertDisconnects(Requests.query(FilterFlag.TEXT, f -> f.textSize(0)));
        assertDisconnects(Requests.query(FilterFlag.TEXT, f -> f.textSize(16_385)));
        assertDisconnects(Requests.query(FilterFlag.TEXT, f -> f.textOffset(120)));
        assertDisconnects(Requests.query(FilterFlag.TEXT, f -> f.textMatch(4)));
        assertDisconnects(Requests.query(34, "Button", q -> q.filterCount(33), f -> { }));
        assertDisconnects(Requests.query(35, "Button", q -> q.filterStride(71), f -> { }));
        final byte[] overlong = Requests.query(FilterFlag.TEXT, f -> f.textSize(2));
        overlong[184] = (byte) 0xC0;
        overlong[185] = (byte) 0x80;
        assertDisconnects(overlong);
    }

    @Test
    void queryAfterGenerationIsAnsweredWhenTheNextScenePublishes() throws Exception {
        final Thread publisher = new Thread(() -> {
            try {
                TimeUnit.MILLISECONDS.sleep(100);
            } catch (final InterruptedException e) {
                return;
            }
            FixtureF.publish(store);
        });
        publisher.start();
        final CompletionFlyweight c = completion(wire.exchange(Requests.query(36, "Button",
            q -> q.generation(0).freshness().policy(FreshnessPolicy.AFTER_GENERATION).afterGeneration(42)
                .timeoutNs(5_000_000_000L), f -> f.flags(FilterFlag.ROLE).role(Role.LINK))));
        publisher.join();
        assertEquals(43, c.generation().generation());
        assertEquals(1, c.targetCount());
        assertEquals(12, target(c, 0).targetId());
    }

    @Test
    void relationsFollowParentLinksAndBounds() throws Exception {
        // T12 becomes a child of T11 and shrinks inside it.
        FixtureF.publish(store, t12 -> t12.parentId(11).bounds(110, 210, 10, 10), p -> { });
        awaitGeneration(43);
        assertEquals(List12.of(11), ids(relation(Relation.SELF, 11)));
        assertEquals(List12.of(11), ids(relation(Relation.PARENT, 12)));
        assertEquals(List12.of(12), ids(relation(Relation.CHILD, 11)));
        assertEquals(List12.of(11), ids(relation(Relation.ANCESTOR, 12)));
        assertEquals(List12.of(12), ids(relation(Relation.DESCENDANT, 11)));
        assertEquals(List12.of(), ids(relation(Relation.SIBLING, 11)));
        assertEquals(List12.of(11, 12), ids(relation(Relation.CONTAINS, 12)));
        assertEquals(List12.of(12), ids(relation(Relation.CONTAINED_BY, 12)));
        assertEquals(List12.of(), ids(relation(Relation.SELF, 99)));
    }

    /** A query of the current scene (no pin) with one RELATION filter. */
    private static byte[] relation(final int relation, final long relatedId) {
        return Requests.query(40, "Button", q -> q.generation(0),
            f -> f.flags(FilterFlag.RELATION).relation(relation).relationTargetId(relatedId));
    }

    private java.util.List<Long> ids(final byte[] request) throws Exception {
        final CompletionFlyweight c = completion(wire.exchange(request));
        assertEquals(ResultCode.OK, c.result(), ResultCode.name(c.result()));
        final java.util.List<Long> out = new java.util.ArrayList<>();
        for (int i = 0; i < c.targetCount(); i++) {
            out.add(target(c, i).targetId());
        }
        return out;
    }

    /** List.of for longs, readable in the assertions above. */
    static final class List12 {
        static java.util.List<Long> of(final long... ids) {
            final java.util.List<Long> out = new java.util.ArrayList<>();
            for (final long id : ids) {
                out.add(id);
            }
            return out;
        }
    }

    // ---- helpers ----

    protected void assertDisconnects(final byte[] frame) throws Exception {
        try (Wire fresh = connect()) {
            assertEquals(ResultCode.OK, helloResult(fresh.exchange(Requests.hello(7, Capability.POLICY))));
            assertNull(fresh.exchange(frame), "must disconnect without a reply");
        }
    }

    /** Waits until the service reads generation {@code g}: an observe answers with it. */
    protected void awaitGeneration(final long g) throws Exception {
        Await.probe(() -> completion(wire.exchange(Requests.observe(99,
            o -> o.freshness().policy(FreshnessPolicy.AFTER_GENERATION).afterGeneration(g - 1)
                .timeoutNs(1_000_000_000L)))),
            c -> c.result() != ResultCode.TIMEOUT && c.generation().generation() >= g, Duration.ofSeconds(5),
            c -> "generation " + g + " to become current; last: " + ResultCode.name(c.result()) + " at generation "
                + c.generation().generation());
    }

    /** Observes until the answer has {@code result}; returns that reply. */
    protected byte[] awaitResult(final int result) throws Exception {
        return Await.probe(() -> wire.exchange(Requests.observe(98, o -> { })),
            reply -> completion(reply).result() == result, Duration.ofSeconds(5),
            reply -> "an observe answered " + ResultCode.name(result) + "; last: "
                + ResultCode.name(completion(reply).result()));
    }

    static void assertBytes(final byte[] expected, final byte[] actual) {
        assertArrayEquals(expected, actual);
    }
}
