package dev.saccade.cli;

import static dev.saccade.cli.McpProcess.INITIALIZE;
import static dev.saccade.cli.McpProcess.tool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.ActionResultFlyweight;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.FilterFlag;
import dev.saccade.protocol.HeaderFlyweight;
import dev.saccade.protocol.HelloRequestFlyweight;
import dev.saccade.protocol.ObserveRequestFlyweight;
import dev.saccade.protocol.QueryFilterFlyweight;
import dev.saccade.protocol.QueryRequestFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TextMatch;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * mcp.md §10 cases 22 to 25 against a scripted service on a real socket, with the real
 * {@code saccade mcp} process: results rendered per mcp §8, the query's one filter, replies the
 * adapter must not trust, a read resent once on a new connection, an action never resent, and
 * the client's half of verifyNextGeneration.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class McpScriptedServiceTest {
    private static final String BUTTON = "Button \"1\"\n";

    @TempDir
    Path dir;

    /** Runs {@code lines} (after initialize) against the scripted service; returns the responses and frames. */
    private Run run(final int connections, final ScriptedService.ConnectionScript script, final String... lines)
        throws Exception {
        final Path socket = dir.resolve("scripted.sock");
        final ScriptedService service = ScriptedService.start(socket, connections, script);
        final String[] responses = new String[lines.length];
        try (McpProcess mcp = McpProcess.start(socket)) {
            mcp.call(INITIALIZE);
            for (int i = 0; i < lines.length; i++) {
                responses[i] = mcp.call(lines[i]);
            }
            assertEquals(List.of(), mcp.finish());
            assertEquals(0, mcp.exitCode());
        } finally {
            service.stop();
        }
        return new Run(responses, service.received());
    }

    private record Run(String[] responses, List<byte[]> frames) {
        long count(final int kind) {
            return frames.stream().filter(f -> BytesStore.wrap(f).readInt(HeaderFlyweight.MESSAGE_KIND_OFFSET) == kind)
                .count();
        }
    }

    /** A read completion answering {@code request}: OK with the two targets below, or {@code result}. */
    static byte[] read(final byte[] request, final int kind, final int result, final int stride) {
        final long requestId = new ObserveRequestFlyweight().wrap(BytesStore.wrap(request), 0).requestId();
        final byte[] text = BUTTON.getBytes(StandardCharsets.UTF_8);
        final int count = result == ResultCode.OK ? 2 : 0;
        final int textAt = CompletionFlyweight.LENGTH + count * stride;
        final int length = textAt + (count == 0 ? 0 : text.length);
        final byte[] bytes = new byte[length];
        final BytesStore<?, byte[]> store = BytesStore.wrap(bytes);
        final CompletionFlyweight c = new CompletionFlyweight().wrap(store, 0);
        c.header().set(CompletionFlyweight.LENGTH, kind, result == ResultCode.OK ? AgentAbi.FLAG_TRUNCATED : 0);
        c.requestId(requestId).result(result).platformError(ResultCode.platformErrorFor(result))
            .grantedCapabilityBits(Capability.POLICY).targetCount(count).targetStride(stride)
            .targetsOffset(CompletionFlyweight.LENGTH).totalSize(length);
        c.generation().generation(-2L).sceneEpoch(11).frameId(12).captureTimeNs(13).processId(14).windowId(15)
            .displayId(16).transformEpoch(17).topologyEpoch(18).permissionEpoch(19);
        c.scope().kind(ScopeKind.DESKTOP).sourceMode(SourceMode.FUSED);
        for (int i = 0; i < count; i++) {
            final TargetFlyweight t = new TargetFlyweight().wrap(store, CompletionFlyweight.LENGTH + (long) i * stride);
            t.targetId(100 + i).parentId(i == 0 ? 0 : 100).windowId(15).displayId(16).bounds(256, 512, 2560, 1280)
                .safePoint(1536, 1152).capabilityBits(3).flags(1).role(i == 0 ? Role.WINDOW : 99).sourceBits(2)
                .confidenceQ16(65535).order(i);
            if (i == 1) {
                t.textOffset(textAt).textSize(text.length);
            }
        }
        if (count != 0) {
            store.write(textAt, text, 0, text.length);
        }
        return bytes;
    }

    static byte[] act(final byte[] batch, final int result, final boolean row) {
        final int length = ActionCompletionFlyweight.LENGTH + (row ? ActionResultFlyweight.LENGTH : 0);
        final byte[] bytes = new byte[length];
        final BytesStore<?, byte[]> store = BytesStore.wrap(bytes);
        final ActionCompletionFlyweight c = new ActionCompletionFlyweight().wrap(store, 0);
        c.header().set(ActionCompletionFlyweight.LENGTH, AgentAbi.ACTION_COMPLETION, 0);
        c.requestId(new ObserveRequestFlyweight().wrap(BytesStore.wrap(batch), 0).requestId())
            .result(result).platformError(ResultCode.platformErrorFor(result))
            .completedActionCount(result == ResultCode.OK ? 1 : 0)
            .failedActionIndex(result == ResultCode.OK ? AgentAbi.NO_FAILED_ACTION : 0)
            .actionResultCount(row ? 1 : 0).actionResultStride(ActionResultFlyweight.LENGTH)
            .actionResultsOffset(ActionCompletionFlyweight.LENGTH).totalSize(length).validatedGeneration(-1L);
        c.physicalState().physicalSequence(-3L).permissionEpoch(5).activeLeaseId(6);
        if (row) {
            new ActionResultFlyweight().wrap(store, ActionCompletionFlyweight.LENGTH).actionIndex(0)
                .kind(ActionKind.CLICK).result(result).platformError(ResultCode.platformErrorFor(result))
                .resolvedTargetId(77).validatedGeneration(-1L);
        }
        return bytes;
    }

    @Test
    void observeIsRenderedWithEveryWideValueAsAString() throws Exception {
        final Run r = run(1, (connection, i, request) -> read(request, AgentAbi.OBSERVE_COMPLETION, ResultCode.OK,
            TargetFlyweight.LENGTH), tool(2, "saccade_observe", "{\"maximumTargets\":\"2\"}"));
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"generation"
            + " 18446744073709551614 (epochs: scene 11, transform 17, permission 19, topology 18)\\nscope desktop, 2 targets,"
            + " truncated: more matched (raise maximumTargets or narrow the scope); bounds are pixels x,y wxh\\n"
            + "100 window 1,2 10x5 click\\n  101 unknown \\\"Button \\\\\\\"1\\\\\\\"\\\\n\\\" 1,2 10x5 click"
            + "\"}],\"structuredContent\":{\"generation\":\"18446744073709551614\","
            + "\"epochs\":{\"scene\":\"11\",\"frame\":\"12\",\"captureTimeNs\":\"13\",\"transform\":\"17\",\"permission\":"
            + "\"19\",\"topology\":\"18\"},\"context\":{\"processId\":\"14\",\"windowId\":\"15\",\"displayId\":\"16\"},"
            + "\"scope\":{\"kind\":\"desktop\",\"sourceMode\":\"fused\",\"stableId\":\"0\",\"xQ8\":0,\"yQ8\":0,\"widthQ8\":0,"
            + "\"heightQ8\":0},\"truncated\":true,\"sourceIncomplete\":false,\"targets\":["
            + "{\"index\":0,\"id\":\"100\",\"parentId\":\"0\",\"windowId\":\"15\",\"displayId\":\"16\",\"role\":\"window\","
            + "\"roleCode\":10,\"capabilities\":3,\"flags\":1,\"states\":[],\"sourceBits\":2,\"confidenceQ16\":65535,\"order\":0,"
            + "\"xQ8\":256,\"yQ8\":512,\"widthQ8\":2560,\"heightQ8\":1280,\"safeXQ8\":1536,\"safeYQ8\":1152},"
            + "{\"index\":1,\"id\":\"101\",\"parentId\":\"100\",\"windowId\":\"15\",\"displayId\":\"16\",\"role\":\"unknown\","
            + "\"roleCode\":99,\"capabilities\":3,\"flags\":1,\"states\":[],\"sourceBits\":2,\"confidenceQ16\":65535,\"order\":1,"
            + "\"xQ8\":256,\"yQ8\":512,\"widthQ8\":2560,\"heightQ8\":1280,\"safeXQ8\":1536,\"safeYQ8\":1152,"
            + "\"text\":\"Button \\\"1\\\"\\n\"}]}}}", r.responses[0]);
        final ObserveRequestFlyweight observe = new ObserveRequestFlyweight().wrap(BytesStore.wrap(r.frames.get(1)), 0);
        assertEquals(2, observe.requestId());
        assertEquals(2, observe.maximumTargets());
        assertEquals(TargetFlyweight.LENGTH, observe.targetStride());
        assertEquals(1_048_576, observe.totalCapacity());
        assertEquals(Capability.POLICY, new HelloRequestFlyweight().wrap(BytesStore.wrap(r.frames.get(0)), 0)
            .requestedCapabilityBits(), "Hello asks for 0x17");
    }

    @Test
    void queryTextIsOneExactTextFilterWithItsBytesAt184() throws Exception {
        final Run r = run(1, (connection, i, request) -> read(request, AgentAbi.QUERY_COMPLETION, ResultCode.OK,
            TargetFlyweight.LENGTH), tool(2, "saccade_query", "{\"text\":\"Button\"}"),
            tool(3, "saccade_query", "{}"));
        assertTrue(r.responses[0].contains("\"text\":\"generation 18446744073709551614 (epochs:"), r.responses[0]);
        final BytesStore<?, byte[]> frame = BytesStore.wrap(r.frames.get(1));
        final QueryRequestFlyweight q = new QueryRequestFlyweight().wrap(frame, 0);
        assertEquals(3, q.requestId());
        assertEquals(1, q.filterCount());
        assertEquals(QueryFilterFlyweight.LENGTH, q.filterStride());
        assertEquals(112, q.filtersOffset());
        assertEquals(190, q.totalSize());
        assertEquals(256, q.maximumResults());
        final QueryFilterFlyweight f = new QueryFilterFlyweight().wrap(frame, 112);
        assertEquals(FilterFlag.TEXT, f.flags());
        assertEquals(TextMatch.EXACT, f.textMatch());
        assertEquals(184, f.textOffset());
        assertEquals(6, f.textSize());
        assertEquals("Button", new String(r.frames.get(1), 184, 6, StandardCharsets.UTF_8));
        // no condition: still exactly one filter, flags 0 (match all)
        final QueryRequestFlyweight all = new QueryRequestFlyweight().wrap(BytesStore.wrap(r.frames.get(2)), 0);
        assertEquals(1, all.filterCount());
        assertEquals(184, all.totalSize());
        assertEquals(0, new QueryFilterFlyweight().wrap(BytesStore.wrap(r.frames.get(2)), 112).flags());
    }

    @Test
    void aWiderStrideIsAnInvalidResponseAndARejectionIsATypedToolError() throws Exception {
        final Run r = run(2, (connection, i, request) -> connection == 0
                ? read(request, AgentAbi.OBSERVE_COMPLETION, ResultCode.OK, 96)
                : read(request, AgentAbi.OBSERVE_COMPLETION, ResultCode.STALE_GENERATION, TargetFlyweight.LENGTH),
            tool(2, "saccade_observe", "{}"), tool(3, "saccade_observe", "{}"));
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"Invalid service"
            + " response\"}],\"isError\":true}}", r.responses[0]);
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"Observation"
            + " rejected: stale generation\"}],\"isError\":true}}", r.responses[1]);
    }

    @Test
    void actResultsCarryEveryServiceAnswer() throws Exception {
        // the second click, not a dry run, reads the scene first for its effect (mcp.md §7)
        final Run r = run(1, (connection, i, request) -> i == 0 ? act(request, ResultCode.OK, false)
                : i == 1 ? read(request, AgentAbi.OBSERVE_COMPLETION, ResultCode.OK, TargetFlyweight.LENGTH)
                : act(request, ResultCode.TARGET_NOT_FOUND, true),
            tool(2, "saccade_act", "{\"kind\":\"click\",\"targetId\":\"77\",\"dryRun\":true}"),
            tool(3, "saccade_act", "{\"kind\":\"click\",\"targetId\":\"77\"}"));
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"Action"
            + " completed.\"}],\"structuredContent\":{\"result\":0,\"resultText\":\"ok\",\"platformError\":0,"
            + "\"completedActions\":1,\"failedAction\":4294967295,\"generation\":\"18446744073709551615\",\"physical\":"
            + "{\"xQ8\":0,\"yQ8\":0,\"buttons\":0,\"modifiers\":0,\"userModifiers\":0,\"activeLeaseId\":\"6\",\"permissionEpoch\":\"5\","
            + "\"sequence\":\"18446744073709551613\",\"flags\":0},\"effect\":\"unverifiable\"},\"isError\":false}}",
            r.responses[0]);
        assertTrue(r.responses[1].contains("\"text\":\"Action rejected: target not found. "), r.responses[1]);
        assertTrue(r.responses[1].contains("\"actions\":[{\"index\":0,\"kind\":3,\"result\":-4,\"resultText\":"
            + "\"target not found\",\"platformError\":-8,\"targetId\":\"77\",\"secondaryTargetId\":\"0\","
            + "\"validatedGeneration\":\"18446744073709551615\",\"flags\":0}]"), r.responses[1]);
        assertTrue(r.responses[1].endsWith(",\"isError\":true}}"), r.responses[1]);
        final BytesStore<?, byte[]> dry = BytesStore.wrap(r.frames.get(1));
        assertEquals(AgentAbi.FLAG_DRY_RUN, dry.readInt(HeaderFlyweight.FLAGS_OFFSET));
        assertEquals(4, new ObserveRequestFlyweight().wrap(dry, 0).requestId());
    }

    @Test
    void aLinkDroppedAfterAnActionIsSentIsNeverResent() throws Exception {
        // the first connection answers the read before the click (mcp.md §7, effect) and drops the click
        final Run r = run(2, (connection, i, request) -> connection == 0 && i > 0 ? null
                : read(request, AgentAbi.OBSERVE_COMPLETION, ResultCode.OK, TargetFlyweight.LENGTH),
            tool(2, "saccade_act", "{\"kind\":\"click\",\"targetId\":\"77\"}"), tool(3, "saccade_observe", "{}"));
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"Action"
            + " transport failed\"}],\"isError\":true}}", r.responses[0]);
        assertTrue(r.responses[1].contains("\\nscope desktop, 2 targets,"), r.responses[1]);
        assertEquals(1, r.count(AgentAbi.ACTION_BATCH), "the batch was sent once");
        assertEquals(2, r.count(AgentAbi.HELLO_REQUEST), "reconnected after the loss, and kept that connection");
    }

    @Test
    void aLinkDroppedDuringAReadIsResentOnceOnANewConnection() throws Exception {
        final Run r = run(2, (connection, i, request) -> connection == 0 ? null
                : read(request, AgentAbi.OBSERVE_COMPLETION, ResultCode.OK, TargetFlyweight.LENGTH),
            tool(2, "saccade_observe", "{}"));
        assertTrue(r.responses[0].contains("\\nscope desktop, 2 targets,"), r.responses[0]);
        assertEquals(2, r.count(AgentAbi.OBSERVE_REQUEST));
        assertEquals(2, r.count(AgentAbi.HELLO_REQUEST));
    }

    @Test
    void aSecondLossOfAReadIsItsTransportError() throws Exception {
        final Run r = run(2, (connection, i, request) -> null, tool(2, "saccade_query", "{}"));
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"Query transport"
            + " failed\"}],\"isError\":true}}", r.responses[0]);
        assertEquals(2, r.count(AgentAbi.QUERY_REQUEST));
    }

    @Test
    void verifyNextGenerationReadsUntilALaterGeneration() throws Exception {
        // request 0 is the read before the click (mcp.md §7, effect)
        final Run r = run(1, (connection, i, request) -> i == 0
                ? read(request, AgentAbi.OBSERVE_COMPLETION, ResultCode.OK, TargetFlyweight.LENGTH)
                : i == 1 ? VerifyNextGenerationClientTest.pending(request)
                : VerifyNextGenerationClientTest.observed(request, ResultCode.OK, 43),
            tool(2, "saccade_act", "{\"kind\":\"click\",\"targetId\":\"5\",\"verifyNextGeneration\":true}"));
        assertTrue(r.responses[0].contains("\"text\":\"Action completed.\""), r.responses[0]);
        assertTrue(r.responses[0].contains("\"nextGeneration\":{\"generation\":\"43\",\"sceneEpoch\":\"43\",\"frameId\":"
            + "\"430\",\"captureTimeNs\":\"431\",\"processId\":\"4242\",\"windowId\":\"7\",\"displayId\":\"1\"}"),
            r.responses[0]);
        assertTrue(r.responses[0].endsWith("\"isError\":false}}"), r.responses[0]);
        assertEquals(1, r.count(AgentAbi.ACTION_BATCH));
        final BytesStore<?, byte[]> batch = BytesStore.wrap(r.frames.get(2));
        assertEquals(AgentAbi.FLAG_VERIFY_NEXT_GENERATION, batch.readInt(HeaderFlyweight.FLAGS_OFFSET));
    }

    @Test
    void aLinkDroppedWhileVerifyingIsCancelledAndNotResent() throws Exception {
        final Run r = run(1, (connection, i, request) -> i == 0
                ? read(request, AgentAbi.OBSERVE_COMPLETION, ResultCode.OK, TargetFlyweight.LENGTH)
                : i == 1 ? VerifyNextGenerationClientTest.pending(request) : null,
            tool(2, "saccade_act", "{\"kind\":\"click\",\"targetId\":\"5\",\"verifyNextGeneration\":true}"));
        assertTrue(r.responses[0].contains("\"text\":\"Action rejected: cancelled. The action ran, but the link was lost while verifying"), r.responses[0]);
        assertTrue(r.responses[0].contains("\"structuredContent\":{\"result\":-12,\"resultText\":\"cancelled\""),
            r.responses[0]);
        assertTrue(r.responses[0].endsWith("\"isError\":true}}"), r.responses[0]);
        assertEquals(1, r.count(AgentAbi.ACTION_BATCH));
    }
}
