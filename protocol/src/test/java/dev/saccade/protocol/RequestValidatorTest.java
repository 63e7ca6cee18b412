package dev.saccade.protocol;

import static dev.saccade.protocol.Frames.NOW_NS;
import static dev.saccade.protocol.Frames.store;
import static dev.saccade.protocol.RequestValidator.ACCEPT;
import static dev.saccade.protocol.RequestValidator.REJECT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.function.Consumer;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;

/** The frame-level conformance cases of spec §6 (4–8, 11, 21–23, 25, 30, 32, 33, 42, 45). */
class RequestValidatorTest {
    private static final int ALL = Capability.POLICY;
    private static final long R = AgentAbi.MAX_MESSAGE_BYTES;
    private final RequestValidator validator = new RequestValidator();

    private int verdict(final byte[] frame) {
        return verdict(frame, ALL, R);
    }

    /** Reads through an exact-size {@code Bytes}, so any read outside the frame throws. */
    private int verdict(final byte[] frame, final int available, final long r) {
        return validator.validate(Bytes.wrapForRead(frame), 0, frame.length, available, r, NOW_NS);
    }

    private static byte[] edit(final byte[] frame, final Consumer<BytesStore<?, byte[]>> change) {
        final byte[] copy = frame.clone();
        change.accept(store(copy));
        return copy;
    }

    private static byte[] observe(final Consumer<ObserveRequestFlyweight> change) {
        return edit(Frames.observe(), s -> change.accept(new ObserveRequestFlyweight().wrap(s, 0)));
    }

    private static byte[] query(final Consumer<QueryRequestFlyweight> change) {
        return edit(Frames.queryWithText(TextMatch.EXACT, "Button"),
            s -> change.accept(new QueryRequestFlyweight().wrap(s, 0)));
    }

    private static byte[] filter(final Consumer<QueryFilterFlyweight> change) {
        return edit(Frames.queryWithText(TextMatch.EXACT, "Button"),
            s -> change.accept(new QueryFilterFlyweight().wrap(s, QueryRequestFlyweight.LENGTH)));
    }

    private static byte[] batch(final Consumer<ActionBatchFlyweight> change) {
        return edit(Frames.abortBatch(), s -> change.accept(new ActionBatchFlyweight().wrap(s, 0)));
    }

    @Test
    void frameLengthsOutsideSixteenToOneMebibyteDisconnect() {
        assertFalse(RequestValidator.isValidFrameLength(15));
        assertFalse(RequestValidator.isValidFrameLength(1_048_577));
        assertTrue(RequestValidator.isValidFrameLength(16));
        assertTrue(RequestValidator.isValidFrameLength(1_048_576));
    }

    @Test
    void helloGrantsOnlyPolicyAndRejectsMalformedHellos() {
        final BytesStore<?, byte[]> ok = store(Frames.hello(7, Capability.OBSERVE));
        assertEquals(ResultCode.OK, validator.validateHello(ok, 0, 48));
        assertEquals(ResultCode.CAPABILITY_DENIED,
            validator.validateHello(store(Frames.hello(7, Capability.CLIPBOARD)), 0, 48));
        assertEquals(ResultCode.INVALID_MESSAGE, validator.validateHello(store(Frames.hello(7, 0)), 0, 48));
        assertEquals(ResultCode.INVALID_MESSAGE,
            validator.validateHello(Bytes.wrapForRead(Arrays.copyOf(Frames.hello(7, 1), 47)), 0, 47));
        assertEquals(ResultCode.INVALID_MESSAGE,
            validator.validateHello(Bytes.wrapForRead(Arrays.copyOf(Frames.hello(7, 1), 49)), 0, 49));
        // Before Hello an ObserveRequest is a bad Hello attempt, answered, not a disconnect (case 5).
        assertEquals(ResultCode.INVALID_MESSAGE,
            validator.validateHello(Bytes.wrapForRead(Frames.observe()), 0, 96));
        assertEquals(ResultCode.INVALID_MESSAGE, validator.validateHello(
            store(edit(Frames.hello(7, 1), s -> s.writeInt(4, 0x00010000))), 0, 48));
    }

    @Test
    void seedsOfTheFuzzRegimePassEveryFrameCheck() {
        assertEquals(ACCEPT, verdict(Frames.observe()));
        assertEquals(ACCEPT, verdict(Frames.query()));
        assertEquals(ACCEPT, verdict(Frames.queryWithText(TextMatch.SUBSTRING, "tto")));
        assertEquals(ACCEPT, verdict(Frames.abortBatch(), ALL, 4096));
        assertEquals(ACCEPT, verdict(Frames.textBatch("hello")));
    }

    @Test
    void wrongVersionKindOrStructSizeDisconnectsAnAuthenticatedClient() {
        assertEquals(REJECT, verdict(edit(Frames.observe(), s -> s.writeInt(4, 0x00010000))));
        assertEquals(REJECT, verdict(edit(Frames.observe(), s -> s.writeInt(4, 0x00010003))));
        // the other minor version on a connection whose Hello named this one (D39)
        assertEquals(REJECT, verdict(edit(Frames.textBatch("hello"), s -> s.writeInt(4, AgentAbi.API_VERSION_1_2))));
        assertEquals(REJECT, verdict(edit(Frames.observe(), s -> s.writeInt(8, AgentAbi.HELLO_REQUEST))));
        assertEquals(REJECT, verdict(edit(Frames.observe(), s -> s.writeInt(8, AgentAbi.OBSERVE_COMPLETION))));
        assertEquals(REJECT, verdict(edit(Frames.observe(), s -> s.writeInt(0, 97))));
        assertEquals(REJECT, verdict(Arrays.copyOf(Frames.observe(), 95)));
        assertEquals(REJECT, verdict(Arrays.copyOf(Frames.observe(), 15)));
    }

    @Test
    void observeFreshnessAndCapabilityChecksGiveTheSpecsVerdicts() {
        assertEquals(ResultCode.ACTION_UNSUPPORTED,
            verdict(observe(o -> o.freshness().policy(FreshnessPolicy.FORCE_REFRESH))));
        assertEquals(ResultCode.ACTION_UNSUPPORTED, verdict(observe(o -> o.freshness().flags(1))));
        assertEquals(REJECT, verdict(observe(o -> o.freshness().policy(0))));
        assertEquals(REJECT, verdict(observe(o -> o.freshness().policy(4))));
        assertEquals(REJECT, verdict(observe(o -> o.freshness().flags(4))));
        assertEquals(ResultCode.CAPABILITY_DENIED, verdict(observe(o -> o.requestedCapabilityBits(0))));
        assertEquals(ResultCode.CAPABILITY_DENIED,
            verdict(observe(o -> o.requestedCapabilityBits(Capability.POINTER))));
        assertEquals(ResultCode.CAPABILITY_DENIED,
            verdict(observe(o -> o.requestedCapabilityBits(Capability.OBSERVE | Capability.CLIPBOARD))));
        // Capability is checked before the shape (#1 before #2).
        assertEquals(ResultCode.CAPABILITY_DENIED,
            verdict(observe(o -> o.requestedCapabilityBits(0).maximumTargets(0))));
    }

    @Test
    void observeOutOfRangeSizesDisconnect() {
        assertEquals(REJECT, verdict(observe(o -> o.maximumTargets(0))));
        assertEquals(REJECT, verdict(observe(o -> o.maximumTargets(10_001))));
        assertEquals(ACCEPT, verdict(observe(o -> o.maximumTargets(10_000))));
        assertEquals(REJECT, verdict(observe(o -> o.targetStride(87))));
        assertEquals(REJECT, verdict(observe(o -> o.totalCapacity(167))));
        assertEquals(REJECT, verdict(observe(o -> o.totalCapacity(1_048_577))));
        assertEquals(REJECT, verdict(observe(o -> o.totalCapacity(4097)), ALL, 4096));
        assertEquals(REJECT, verdict(Frames.observe(), ALL, 167));
    }

    @Test
    void queryShapeChecksDisconnectOrAnswerAsTheSpecSays() {
        assertEquals(REJECT, verdict(query(q -> q.filtersOffset(0))));
        assertEquals(REJECT, verdict(query(q -> q.filterCount(33))));
        assertEquals(REJECT, verdict(query(q -> q.filterStride(71))));
        assertEquals(REJECT, verdict(query(q -> q.totalSize(q.totalSize() + 1))));
        assertEquals(REJECT, verdict(query(q -> q.maximumResults(0))));
        assertEquals(REJECT, verdict(query(q -> q.maximumResults(10_001))));
        assertEquals(REJECT, verdict(query(q -> q.filterCount(2)))); // second filter runs past total_size
        assertEquals(REJECT, verdict(Frames.query(), ALL, 168 + 88 - 1)); // #5: 168 + 1 × 88 > R
        assertEquals(ACCEPT, verdict(Frames.query(), ALL, 168 + 88));
        assertEquals(ResultCode.ACTION_UNSUPPORTED,
            verdict(query(q -> q.freshness().policy(FreshnessPolicy.FORCE_REFRESH))));
        // Stride below 72 rejects even with no filters.
        assertEquals(REJECT, verdict(edit(Frames.query(), s -> new QueryRequestFlyweight().wrap(s, 0).filterStride(0))));
    }

    @Test
    void filterRelationsAndTextAreCheckedInOrder() {
        assertEquals(ResultCode.ACTION_UNSUPPORTED,
            verdict(filter(f -> f.flags(FilterFlag.RELATION).relation(Relation.NEAREST))));
        assertEquals(REJECT, verdict(filter(f -> f.flags(FilterFlag.RELATION).relation(10))));
        assertEquals(REJECT, verdict(filter(f -> f.flags(FilterFlag.RELATION).relation(0))));
        assertEquals(ACCEPT, verdict(filter(f -> f.flags(FilterFlag.RELATION).relation(Relation.SIBLING))));
        // NEAREST decides before a bad text in the same filter.
        assertEquals(ResultCode.ACTION_UNSUPPORTED,
            verdict(filter(f -> f.flags(FilterFlag.RELATION | FilterFlag.TEXT).relation(9).textSize(0))));
        assertEquals(REJECT, verdict(filter(f -> f.textSize(0))));
        assertEquals(REJECT, verdict(filter(f -> f.textSize(16_385))));
        assertEquals(REJECT, verdict(filter(f -> f.textOffset(QueryRequestFlyweight.LENGTH + 8)))); // inside the array
        assertEquals(REJECT, verdict(filter(f -> f.textMatch(4))));
        assertEquals(REJECT, verdict(filter(f -> f.textMatch(0))));
        assertEquals(REJECT, verdict(filter(f -> f.textSize(7)))); // past total_size
        assertEquals(REJECT, verdict(withBadUtf8()));
        // Unset flags' fields are ignored.
        assertEquals(ACCEPT, verdict(filter(f -> f.flags(FilterFlag.ROLE).textSize(0).relation(77))));
    }

    private static byte[] withBadUtf8() {
        // "C0 80" is an overlong NUL (case 30).
        final byte[] f = Frames.queryWithText(TextMatch.EXACT, "ab");
        f[f.length - 2] = (byte) 0xC0;
        f[f.length - 1] = (byte) 0x80;
        return f;
    }

    @Test
    void batchShapeChecksDisconnect() {
        assertEquals(REJECT, verdict(batch(b -> b.actionsOffset(0))));
        assertEquals(REJECT, verdict(batch(b -> b.actionCount(0))));
        assertEquals(REJECT, verdict(batch(b -> b.actionCount(65))));
        assertEquals(REJECT, verdict(batch(b -> b.actionStride(79))));
        assertEquals(REJECT, verdict(batch(b -> b.payloadOffset(b.actionsOffset()).payloadSize(1))));
        assertEquals(REJECT, verdict(batch(b -> b.payloadOffset(b.totalSize() + 1))));
        assertEquals(REJECT, verdict(batch(b -> b.totalSize(b.totalSize() + 1))));
        assertEquals(REJECT, verdict(batch(b -> b.policy(0))));
        assertEquals(REJECT, verdict(batch(b -> b.policy(3))));
        assertEquals(REJECT, verdict(batch(b -> b.header().flags(4))));
        assertEquals(REJECT, verdict(Frames.abortBatch(), ALL, 191));
        assertEquals(REJECT, verdict(Frames.abortBatch(), ALL, 192 + 48 - 1));
        // action_count × stride would wrap 32 bits if multiplied: range_valid divides instead.
        assertEquals(REJECT, verdict(batch(b -> b.actionCount(64).actionStride(0x0400_0001L))));
    }

    @Test
    void batchCapabilityAndDeadlineGiveTypedAnswers() {
        // Case 42: CLIPBOARD requested.
        assertEquals(ResultCode.CAPABILITY_DENIED,
            verdict(batch(b -> b.requestedCapabilityBits(Capability.CLIPBOARD))));
        // Case 33: DRY_RUN|VERIFY with only POINTER granted.
        assertEquals(ResultCode.CAPABILITY_DENIED,
            verdict(batch(b -> b.header().flags(AgentAbi.FLAG_DRY_RUN | AgentAbi.FLAG_VERIFY_NEXT_GENERATION)),
                Capability.POINTER, R));
        assertEquals(ACCEPT,
            verdict(batch(b -> b.header().flags(AgentAbi.FLAG_DRY_RUN | AgentAbi.FLAG_VERIFY_NEXT_GENERATION))));
        // OBSERVE is not required of a batch, and 0 is allowed.
        assertEquals(ACCEPT, verdict(batch(b -> b.requestedCapabilityBits(0))));
        // Case 45 (D4): deadline at or before now is a typed TIMEOUT.
        assertEquals(ResultCode.TIMEOUT, verdict(batch(b -> b.deadlineNs(1))));
        assertEquals(ResultCode.TIMEOUT, verdict(batch(b -> b.deadlineNs(0))));
        assertEquals(ACCEPT, verdict(batch(b -> b.deadlineNs(-1)))); // u64 max: far in the future
    }

    @Test
    void strictUtf8RejectsOverlongSurrogateAndOutOfRangeForms() {
        assertTrue(utf8(0x68, 0x65, 0x6C, 0x6C, 0x6F));
        assertTrue(utf8(0xC3, 0xA9));
        assertTrue(utf8(0xE2, 0x82, 0xAC));
        assertTrue(utf8(0xF0, 0x9F, 0x98, 0x80));
        assertTrue(utf8(0xF4, 0x8F, 0xBF, 0xBF)); // U+10FFFF
        assertFalse(utf8(0xC0, 0x80)); // overlong NUL
        assertFalse(utf8(0xE0, 0x80, 0x80)); // overlong
        assertFalse(utf8(0xED, 0xA0, 0x80)); // surrogate U+D800 (case 51)
        assertFalse(utf8(0xF4, 0x90, 0x80, 0x80)); // above U+10FFFF
        assertFalse(utf8(0xF8, 0x88, 0x80, 0x80, 0x80)); // 5-byte form
        assertFalse(utf8(0x80));
        assertFalse(utf8(0xE2, 0x82)); // truncated
    }

    private static boolean utf8(final int... bytes) {
        final byte[] b = new byte[bytes.length];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) bytes[i];
        }
        return Utf8.isStrict(Bytes.wrapForRead(b), 0, b.length);
    }
}
