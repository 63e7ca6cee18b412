package dev.saccade.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;

/**
 * Every message kind written with its variable parts (filters and text, actions and payload,
 * target records and the text lane, result rows), carried across as bytes at another offset, and
 * read back; completions also rendered to JSON.
 */
class MessageRoundTripTest {
    private static final JsonFactory JSON = new JsonFactory();

    /** Copies a frame to offset 40 of a larger store, as a channel buffer would hold it. */
    private static BytesStore<?, byte[]> carried(final byte[] frame) {
        final byte[] buffer = new byte[frame.length + 80];
        System.arraycopy(frame, 0, buffer, 40, frame.length);
        return BytesStore.wrap(buffer);
    }

    @Test
    void helloRequestAndCompletionRoundTrip() throws Exception {
        final HelloRequestFlyweight h = new HelloRequestFlyweight().wrap(carried(Frames.hello(77, 0x13)), 40);
        assertEquals(48, h.header().structSize());
        assertEquals(AgentAbi.API_VERSION, h.header().apiVersion());
        assertEquals(AgentAbi.HELLO_REQUEST, h.header().messageKind());
        assertEquals(77, h.requestId());
        assertEquals(0x13, h.requestedCapabilityBits());
        assertEquals(0x2222, h.clientNonce(1));

        final HelloCompletionFlyweight c = new HelloCompletionFlyweight().wrap(carried(Frames.helloCompletion()), 40);
        assertEquals(56, c.header().structSize());
        assertEquals(AgentAbi.HELLO_COMPLETION, c.header().messageKind());
        assertEquals(7, c.requestId());
        assertEquals(Capability.OBSERVE, c.grantedCapabilityBits());
        assertEquals(0xABCDL, c.serviceNonce(0));
        final String json = render(Frames.helloCompletion());
        assertTrue(json.contains("\"request_id\":\"7\""), json);
        assertTrue(json.contains("\"granted\":[\"OBSERVE\"]"), json);
        assertTrue(json.contains("\"service_nonce\":\"000000000000abcd0000000000001234\""), json);
    }

    @Test
    void observeRequestRoundTrips() {
        final ObserveRequestFlyweight o = new ObserveRequestFlyweight().wrap(carried(Frames.observe()), 40);
        assertEquals(AgentAbi.OBSERVE_REQUEST, o.header().messageKind());
        assertEquals(9, o.requestId());
        assertEquals(ScopeKind.DESKTOP, o.scope().kind());
        assertEquals(FreshnessPolicy.LATEST_VALID, o.freshness().policy());
        assertEquals(4096, o.totalCapacity());
    }

    @Test
    void queryRequestWithFilterTextRoundTrips() {
        final BytesStore<?, byte[]> s = carried(Frames.queryWithText(TextMatch.PREFIX, "But"));
        final QueryRequestFlyweight q = new QueryRequestFlyweight().wrap(s, 40);
        assertEquals(1, q.filterCount());
        assertEquals(42, q.generation());
        final QueryFilterFlyweight f = new QueryFilterFlyweight().wrap(s, 40 + q.filtersOffset());
        assertEquals(FilterFlag.TEXT, f.flags());
        assertEquals(TextMatch.PREFIX, f.textMatch());
        final byte[] text = new byte[(int) f.textSize()];
        s.read(40 + f.textOffset(), text, 0, text.length);
        assertEquals("But", new String(text, StandardCharsets.UTF_8));
        assertEquals(RequestValidator.ACCEPT, new RequestValidator().validate(s, 40, q.totalSize(), 0x17, 4096, 1));
    }

    @Test
    void actionBatchWithTextPayloadRoundTrips() {
        final byte[] frame = Frames.textBatch("hello");
        final BytesStore<?, byte[]> s = carried(frame);
        final ActionBatchFlyweight b = new ActionBatchFlyweight().wrap(s, 40);
        assertEquals(AgentAbi.ACTION_BATCH, b.header().messageKind());
        assertEquals(1, b.actionCount());
        assertEquals(42, b.preconditions().generation());
        assertEquals(PreconditionFlag.GENERATION, b.preconditions().flags());
        final ActionFlyweight a = new ActionFlyweight().wrap(s, 40 + b.actionsOffset());
        assertEquals(ActionKind.TEXT, a.kind());
        assertEquals(11, a.targetId());
        final byte[] text = new byte[(int) a.payloadSize()];
        s.read(40 + b.payloadOffset() + a.payloadOffset(), text, 0, text.length);
        assertEquals("hello", new String(text, StandardCharsets.UTF_8));
    }

    @Test
    void observeCompletionOfFixtureFRoundTripsAndRendersItsTextLane() throws Exception {
        final byte[] frame = Frames.observeCompletion();
        final BytesStore<?, byte[]> s = carried(frame);
        final CompletionFlyweight c = new CompletionFlyweight().wrap(s, 40);
        assertEquals(356, c.totalSize());
        assertEquals(2, c.targetCount());
        assertEquals(42, c.generation().sceneEpoch());
        assertEquals(700, c.generation().processId());
        final TargetFlyweight t = new TargetFlyweight().wrap(s, 40 + 168);
        assertEquals(11, t.targetId());
        assertEquals(344, t.textOffset());
        assertEquals(100 * 256, t.boundsXQ8());
        assertEquals(CompletionValidator.VALID, new CompletionValidator().validate(s, 40, 356, AgentAbi.OBSERVE_COMPLETION));

        final List<String> texts = new ArrayList<>();
        try (JsonParser p = JSON.createParser(render(frame))) {
            String field = null;
            while (p.nextToken() != null) {
                if (p.currentToken() == JsonToken.FIELD_NAME) {
                    field = p.currentName();
                } else if ("text".equals(field) && p.currentToken() == JsonToken.VALUE_STRING) {
                    texts.add(p.getText());
                    field = null;
                }
            }
        }
        assertEquals(List.of("Button", "Cancel"), texts);
        final String json = render(frame);
        assertTrue(json.contains("\"generation\":\"42\""), "64-bit values are decimal strings: " + json);
        assertTrue(json.contains("\"flags\":[\"SOURCE_INCOMPLETE\"]"), json);
        assertTrue(json.contains("\"bounds\":{\"x\":100,\"y\":200,\"width\":300,\"height\":400}"), json);
        assertTrue(json.contains("\"capabilities\":[\"POINTER_MOVE\",\"CLICK\",\"INVOKE\",\"TEXT_SELECT\"]"), json);
        assertTrue(json.contains("\"role\":\"LINK\""), json);
    }

    @Test
    void actionCompletionRoundTripsAndRendersRows() throws Exception {
        final byte[] frame = Frames.actionCompletion();
        final BytesStore<?, byte[]> s = carried(frame);
        final ActionCompletionFlyweight c = new ActionCompletionFlyweight().wrap(s, 40);
        assertEquals(2, c.actionResultCount());
        assertEquals(17, c.physicalState().physicalSequence());
        assertEquals(123 * 256, c.physicalState().pointerXQ8());
        final ActionResultFlyweight r = new ActionResultFlyweight().wrap(s, 40 + 192 + 48);
        assertEquals(1, r.actionIndex());
        assertEquals(12, r.resolvedTargetId());
        final String json = render(frame);
        assertTrue(json.contains("\"result\":\"TARGET_NOT_FOUND\""), json);
        assertTrue(json.contains("\"failed_action_index\":0"), json);
        assertTrue(json.contains("\"physical_sequence\":\"17\""), json);
        assertTrue(json.contains("\"pointer\":{\"x\":123,\"y\":456}"), json);
    }

    @Test
    void typedErrorCompletionsHaveTheFixedShapeOfSection45() {
        final ErrorCompletions errors = new ErrorCompletions();
        final byte[] request = Frames.observe();
        new ScopeFlyweight().wrap(BytesStore.wrap(request), ObserveRequestFlyweight.SCOPE_OFFSET)
            .kind(ScopeKind.ACTIVE_WINDOW).stableId(8).rect(1, 2, 3, 4);
        final BytesStore<?, byte[]> out = BytesStore.wrap(new byte[4096]);
        out.writeLong(1000, -1L); // anything beyond 168 stays untouched
        final int n = errors.writeForRequest(out, 0, Bytes.wrapForRead(request), 0, ResultCode.TARGET_NOT_FOUND, 0x17);
        assertEquals(168, n);
        final CompletionFlyweight c = new CompletionFlyweight().wrap(out, 0);
        assertEquals(AgentAbi.OBSERVE_COMPLETION, c.header().messageKind());
        assertEquals(168, c.header().structSize());
        assertEquals(9, c.requestId());
        assertEquals(ResultCode.TARGET_NOT_FOUND, c.result());
        assertEquals(-8, c.platformError());
        assertEquals(0x17, c.grantedCapabilityBits());
        assertEquals(168, c.totalSize());
        assertEquals(0, c.targetCount());
        assertEquals(0, c.generation().sceneEpoch());
        assertEquals(ScopeKind.ACTIVE_WINDOW, c.scope().kind());
        assertEquals(8, c.scope().stableId());
        assertEquals(4, c.scope().rectHeightQ8());
        assertEquals(-1L, out.readLong(1000));

        final int m = errors.writeForRequest(out, 0, Bytes.wrapForRead(Frames.abortBatch()), 0, ResultCode.TIMEOUT, 0x17);
        assertEquals(192, m);
        final ActionCompletionFlyweight a = new ActionCompletionFlyweight().wrap(out, 0);
        assertEquals(AgentAbi.ACTION_COMPLETION, a.header().messageKind());
        assertEquals(12, a.requestId());
        assertEquals(-9, a.platformError());
        assertEquals(AgentAbi.NO_FAILED_ACTION, a.failedActionIndex());
        assertEquals(192, a.totalSize());
        assertEquals(0, a.physicalState().physicalSequence());
    }

    @Test
    void completionValidatorRefusesRecordsAndTextOutsideTheFrame() {
        final CompletionValidator v = new CompletionValidator();
        final byte[] frame = Frames.observeCompletion();
        final BytesStore<?, byte[]> s = BytesStore.wrap(frame);
        final TargetFlyweight t = new TargetFlyweight().wrap(s, 168 + 88);
        t.textOffset(351);
        assertEquals(CompletionValidator.BAD_TEXT, v.validate(Bytes.wrapForRead(frame), 0, 356, 0));
        t.textOffset(200); // inside the records
        assertEquals(CompletionValidator.BAD_TEXT, v.validate(Bytes.wrapForRead(frame), 0, 356, 0));
        t.textOffset(350);
        new CompletionFlyweight().wrap(s, 0).targetCount(3);
        assertEquals(CompletionValidator.BAD_RECORDS, v.validate(Bytes.wrapForRead(frame), 0, 356, 0));
        new CompletionFlyweight().wrap(s, 0).targetCount(2).totalSize(355);
        assertEquals(CompletionValidator.BAD_TOTAL_SIZE, v.validate(Bytes.wrapForRead(frame), 0, 356, 0));
        assertEquals(CompletionValidator.BAD_KIND,
            v.validate(Bytes.wrapForRead(Frames.helloCompletion()), 0, 56, AgentAbi.OBSERVE_COMPLETION));
        assertFalse(CompletionValidator.reason(CompletionValidator.BAD_TEXT).isEmpty());
    }

    private static String render(final byte[] frame) throws Exception {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            new CompletionJson().write(g, Bytes.wrapForRead(frame), 0);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
