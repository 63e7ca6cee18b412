package dev.saccade.cli;

import static dev.saccade.cli.McpProcess.INITIALIZE;
import static dev.saccade.cli.McpProcess.request;
import static dev.saccade.cli.McpProcess.tool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.protocol.ActionBatchFlyweight;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.HeaderFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.TargetFlyweight;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance cases of mcp.md §15 for the 2026-07-28 era, on the real {@code saccade mcp}
 * process through its standard input and output, in the style of {@link McpConformanceTest}:
 * server/discover, the _meta envelope on every request, the unsupported-version error, resultType
 * and serverInfo on every result, the tool list's order, dialect, output schemas and cache fields,
 * how the first request decides the era, and the same tool results in both eras.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class McpStatelessConformanceTest {
    private static final String VERSION = System.getProperty("saccade.project.version");
    private static final String PROTOCOL = "\"io.modelcontextprotocol/protocolVersion\"";
    private static final String CAPABILITIES = "\"io.modelcontextprotocol/clientCapabilities\"";
    private static final String META = "\"_meta\":{" + PROTOCOL + ":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"conformance\",\"version\":\"1\"}," + CAPABILITIES + ":{}}";
    /** What every 2026-07-28 result ends with. */
    private static final String RESULT_END = ",\"resultType\":\"complete\",\"_meta\":{\"io.modelcontextprotocol/serverInfo\":"
        + "{\"name\":\"saccade\",\"version\":\"" + VERSION + "\"}}}}";
    private static final String INVALID_META = "Invalid _meta: io.modelcontextprotocol/protocolVersion (a string) and"
        + " io.modelcontextprotocol/clientCapabilities (an object) are required on every request";

    @TempDir
    Path dir;

    /** A request in the 2026-07-28 envelope; {@code params} are the members besides _meta ("" for none). */
    private static String modern(final Object id, final String method, final String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":{"
            + (params.isEmpty() ? "" : params + ",") + META + "}}";
    }

    private static String modernTool(final Object id, final String name, final String arguments) {
        return modern(id, "tools/call", "\"name\":\"" + name + "\",\"arguments\":" + arguments);
    }

    /** A request whose params are exactly {@code params}. */
    private static String withParams(final Object id, final String method, final String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}";
    }

    private static String error(final Object id, final int code, final String message) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"error\":{\"code\":" + code + ",\"message\":\"" + message + "\"}}";
    }

    private static String unsupported(final Object id, final String supported, final String requested) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"error\":{\"code\":-32022,\"message\":\"Unsupported protocol"
            + " version\",\"data\":{\"supported\":[" + supported + "],\"requested\":\"" + requested + "\"}}}";
    }

    private static String discovered(final Object id, final String supported) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"supportedVersions\":[" + supported + "],"
            + "\"capabilities\":{\"tools\":{}},\"ttlMs\":3600000,\"cacheScope\":\"public\"" + RESULT_END;
    }

    private static final String ALL_VERSIONS = "\"2026-07-28\",\"2025-11-25\",\"2025-06-18\"";

    private McpProcess start() throws Exception {
        return McpProcess.start(dir.resolve("absent.sock"));
    }

    @Test
    void discoverAnswersWithoutChoosingTheEraSoAProbedProcessCanStillBeInitialized() throws Exception {
        try (McpProcess mcp = start()) {
            assertEquals(discovered("\"probe\"", ALL_VERSIONS), mcp.call(modern("\"probe\"", "server/discover", "")));
            assertEquals(discovered(2, ALL_VERSIONS), mcp.call(modern(2, "server/discover", "")));
            // the dual-era client's fallback: initialize on the probed process opens the 2025 era, as before
            assertEquals("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":"
                + "{\"tools\":{}},\"serverInfo\":{\"name\":\"saccade\",\"version\":\"" + VERSION + "\"}}}",
                mcp.call("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                    + "\"2025-11-25\"}}"));
            // from now on the 2025 rows hold unchanged: no server/discover, no resultType, _meta ignored
            assertEquals(error(4, -32601, "Method not found"), mcp.call(modern(4, "server/discover", "")));
            final String list = mcp.call(modern(5, "tools/list", ""));
            assertTrue(list.startsWith("{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{\"tools\":["), list);
            assertFalse(list.contains("resultType") || list.contains("ttlMs") || list.contains("$schema"), list);
            assertEquals("{\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{}}", mcp.call(request(6, "ping")));
            assertEquals(List.of(), mcp.finish());
            assertEquals(0, mcp.exitCode());
            assertTrue(Files.readString(mcp.stderr).contains("saccade mcp: event=era protocol=2025-11-25"));
        }
    }

    @Test
    void aRequestInTheEnvelopeOpensTheEraAndInitializeAndPingAreGone() throws Exception {
        try (McpProcess mcp = start()) {
            final String list = mcp.call(modern(1, "tools/list", ""));
            assertTrue(list.startsWith("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":["), list);
            assertTrue(list.endsWith(RESULT_END), list);
            assertEquals(error(2, -32601, "Method not found: this process speaks 2026-07-28; initialize (2025-06-18,"
                + " 2025-11-25) needs a new process"), mcp.call(INITIALIZE.replace("\"id\":1", "\"id\":2")));
            assertEquals(error(3, -32601, "Method not found"), mcp.call(modern(3, "ping", "")));
            assertEquals(error(4, -32601, "Method not found"), mcp.call(modern(4, "resources/list", "")));
            // once the era is chosen, discover lists only its own version
            assertEquals(discovered(5, "\"2026-07-28\""), mcp.call(modern(5, "server/discover", "")));
            mcp.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":4," + META
                + "}}");
            assertEquals(List.of(), mcp.finish());
            assertEquals(0, mcp.exitCode());
            assertTrue(Files.readString(mcp.stderr).contains("saccade mcp: event=era protocol=2026-07-28"));
        }
    }

    @Test
    void everyRequestOfTheEraCarriesTheMetaEnvelope() throws Exception {
        try (McpProcess mcp = start()) {
            // before any era, a request without the envelope is answered as before an initialize
            assertEquals(error(1, -32002, "Server is not initialized"), mcp.call(request(1, "tools/list")));
            // server/discover is this era's whatever it carries: without _meta it is malformed
            assertEquals(error(2, -32602, INVALID_META), mcp.call(request(2, "server/discover")));
            assertTrue(mcp.call(modern(3, "tools/list", "")).endsWith(RESULT_END));
            final String[] malformed = {
                request(4, "tools/list"),
                withParams(4, "tools/list", "{}"),
                withParams(4, "tools/list", "{\"_meta\":[]}"),
                withParams(4, "tools/list", "{\"_meta\":{" + PROTOCOL + ":\"2026-07-28\"}}"),
                withParams(4, "tools/list", "{\"_meta\":{" + CAPABILITIES + ":{}}}"),
                withParams(4, "tools/list", "{\"_meta\":{" + PROTOCOL + ":20260728," + CAPABILITIES + ":{}}}"),
                withParams(4, "tools/list", "{\"_meta\":{" + PROTOCOL + ":\"2026-07-28\"," + CAPABILITIES + ":[]}}"),
                withParams(4, "server/discover", "{\"_meta\":{" + PROTOCOL + ":null," + CAPABILITIES + ":{}}}"),
                tool(4, "saccade_observe", "{}"),
            };
            for (final String line : malformed) {
                assertEquals(error(4, -32602, INVALID_META), mcp.call(line), line);
            }
            // the tools' own argument errors are those of mcp §5 to §7, unchanged
            assertEquals(error(5, -32602, "Invalid observation scope"),
                mcp.call(modernTool(5, "saccade_observe", "{\"scope\":\"rect\",\"xQ8\":0,\"yQ8\":0,\"widthQ8\":256}")));
            assertEquals(error(6, -32602, "Invalid tool arguments"), mcp.call(modern(6, "tools/call",
                "\"name\":\"saccade_observe\"")));
            assertEquals(error(7, -32602, "Unknown tool"), mcp.call(modernTool(7, "saccade_x", "{}")));
            assertEquals(List.of(), mcp.finish());
            assertEquals(0, mcp.exitCode());
        }
    }

    @Test
    void anotherVersionIsUnsupportedWithTheVersionsToRetryWith() throws Exception {
        try (McpProcess mcp = start()) {
            final String legacyInMeta = modern(1, "tools/list", "").replace("2026-07-28", "2025-11-25");
            assertEquals(unsupported(1, ALL_VERSIONS, "2025-11-25"), mcp.call(legacyInMeta));
            // an unsupported request chooses nothing: discover still offers every version
            assertEquals(discovered(2, ALL_VERSIONS), mcp.call(modern(2, "server/discover", "")));
            assertTrue(mcp.call(modern(3, "tools/list", "")).endsWith(RESULT_END));
            assertEquals(unsupported(4, "\"2026-07-28\"", "1900-01-01"),
                mcp.call(modern(4, "tools/list", "").replace("2026-07-28", "1900-01-01")));
            assertEquals(unsupported(5, "\"2026-07-28\"", "a\\\"b"),
                mcp.call(modernTool(5, "saccade_act", "{\"kind\":\"click\"}").replace("\"2026-07-28\"", "\"a\\\"b\"")));
            assertEquals(List.of(), mcp.finish());
            assertEquals(0, mcp.exitCode());
        }
    }

    @Test
    void everyResultEndsWithResultTypeAndTheServersIdentity() throws Exception {
        try (McpProcess mcp = start()) {
            final List<String> results = new ArrayList<>();
            results.add(mcp.call(modern(1, "server/discover", "")));
            results.add(mcp.call(modern(2, "tools/list", "\"cursor\":\"ignored\"")));
            results.add(mcp.call(modernTool(3, "saccade_observe", "{}")));
            results.add(mcp.call(modernTool(4, "saccade_act", "{\"kind\":\"click\",\"targetId\":\"5\"}")));
            for (final String r : results) {
                assertTrue(r.endsWith(RESULT_END), r);
                final Map<String, Object> result = Json.field(Json.object(r.getBytes(StandardCharsets.UTF_8)), "result");
                assertEquals("complete", result.get("resultType"), r);
            }
            assertEquals("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"Saccade"
                + " service is unavailable\"}],\"isError\":true" + RESULT_END, results.get(2));
            assertEquals(List.of(), mcp.finish());
            assertEquals(0, mcp.exitCode());
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theToolListIsDeterministicWithTheSameToolsAndArgumentsAsThe2025List() throws Exception {
        final String first;
        final String again;
        try (McpProcess mcp = start()) {
            first = mcp.call(modern(1, "tools/list", ""));
            again = mcp.call(modern(1, "tools/list", ""));
        }
        final String handshake;
        try (McpProcess mcp = start()) {
            mcp.call(INITIALIZE);
            handshake = mcp.call(request(1, "tools/list"));
        }
        assertEquals(first, again, "the same bytes for every request");
        final Map<String, Object> modern = Json.field(Json.object(first.getBytes(StandardCharsets.UTF_8)), "result");
        final Map<String, Object> legacy = Json.field(Json.object(handshake.getBytes(StandardCharsets.UTF_8)), "result");
        assertEquals(3_600_000L, ((Number) modern.get("ttlMs")).longValue());
        assertEquals("public", modern.get("cacheScope"));
        assertFalse(modern.containsKey("nextCursor"), "one page");
        final List<Map<String, Object>> tools = (List<Map<String, Object>>) modern.get("tools");
        final List<Map<String, Object>> legacyTools = (List<Map<String, Object>>) legacy.get("tools");
        assertEquals(List.of("saccade_observe", "saccade_query", "saccade_act"),
            tools.stream().map(t -> t.get("name")).toList());
        for (int i = 0; i < tools.size(); i++) {
            final Map<String, Object> tool = tools.get(i);
            final Map<String, Object> legacyTool = legacyTools.get(i);
            assertEquals(legacyTool.get("name"), tool.get("name"));
            assertEquals(legacyTool.get("description"), tool.get("description"));
            final Map<String, Object> input = new LinkedHashMap<>((Map<String, Object>) tool.get("inputSchema"));
            assertEquals("https://json-schema.org/draft/2020-12/schema", input.remove("$schema"), tool.get("name") + "");
            assertEquals(legacyTool.get("inputSchema"), input, "the same arguments: " + tool.get("name"));
            final Map<String, Object> output = (Map<String, Object>) tool.get("outputSchema");
            assertEquals("https://json-schema.org/draft/2020-12/schema", output.get("$schema"));
            assertEquals("object", output.get("type"));
            assertTrue(((Map<String, Object>) output.get("properties")).keySet()
                .containsAll((List<String>) output.get("required")), output.toString());
            assertFalse(legacyTool.containsKey("outputSchema"), "the 2025 list is unchanged");
        }
        assertEquals(List.of("generation", "epochs", "context", "scope", "truncated", "sourceIncomplete", "targets"),
            ((Map<String, Object>) tools.get(0).get("outputSchema")).get("required"));
        assertEquals(tools.get(0).get("outputSchema"), tools.get(1).get("outputSchema"), "query returns observe's shape");
        assertEquals(List.of("result", "resultText", "generation", "physical"),
            ((Map<String, Object>) tools.get(2).get("outputSchema")).get("required"));
    }

    @Test
    void theToolsGiveTheSameResultsInBothEras() throws Exception {
        final String[] arguments = {"saccade_observe", "{\"maximumTargets\":\"2\"}", "saccade_query", "{\"text\":\"Button\"}",
            "saccade_act", "{\"kind\":\"click\",\"targetId\":\"77\",\"dryRun\":true}",
            "saccade_act", "{\"kind\":\"click\",\"targetId\":\"77\"}"};
        final List<String> handshake = new ArrayList<>();
        final List<String> stateless = new ArrayList<>();
        final List<byte[]> handshakeFrames = scripted(arguments, handshake, false);
        final List<byte[]> statelessFrames = scripted(arguments, stateless, true);
        for (int i = 0; i < handshake.size(); i++) {
            final String h = handshake.get(i);
            assertTrue(h.endsWith("}}") && !h.contains("\"error\""), h);
            assertEquals(h.substring(0, h.length() - 2) + RESULT_END, stateless.get(i));
        }
        assertTrue(handshake.get(0).contains("scope desktop, 2 targets"), handshake.get(0)); // SceneText's view (mcp §8)
        assertTrue(handshake.get(3).contains("\"text\":\"Action rejected: target not found."), handshake.get(3));
        assertEquals(handshakeFrames.size(), statelessFrames.size());
        for (int i = 0; i < handshakeFrames.size(); i++) {
            assertEquals(withoutDeadline(handshakeFrames.get(i)), withoutDeadline(statelessFrames.get(i)),
                "frame " + i + " sent to the service");
        }
        assertNotEquals(0, handshakeFrames.size());
    }

    /** A frame as text, a batch's deadline (the clock at sending + 2 s) zeroed. */
    private static String withoutDeadline(final byte[] frame) {
        final byte[] copy = frame.clone();
        if (BytesStore.wrap(copy).readInt(HeaderFlyweight.MESSAGE_KIND_OFFSET) == AgentAbi.ACTION_BATCH) {
            java.util.Arrays.fill(copy, ActionBatchFlyweight.DEADLINE_NS_OFFSET, ActionBatchFlyweight.DEADLINE_NS_OFFSET + 8,
                (byte) 0);
        }
        return new String(copy, StandardCharsets.ISO_8859_1);
    }

    /** Runs the tool calls against a scripted service in one era; returns the frames the service received. */
    private List<byte[]> scripted(final String[] calls, final List<String> responses, final boolean stateless)
        throws Exception {
        final Path socket = dir.resolve(stateless ? "stateless.sock" : "handshake.sock");
        final ScriptedService service = ScriptedService.start(socket, 1, (connection, i, request) -> switch (i) {
            case 0 -> McpScriptedServiceTest.read(request, AgentAbi.OBSERVE_COMPLETION, ResultCode.OK, TargetFlyweight.LENGTH);
            case 1 -> McpScriptedServiceTest.read(request, AgentAbi.QUERY_COMPLETION, ResultCode.OK, TargetFlyweight.LENGTH);
            case 2 -> McpScriptedServiceTest.act(request, ResultCode.OK, false);
            // the click that is not a dry run reads the scene first, for its effect (mcp §7)
            case 3 -> McpScriptedServiceTest.read(request, AgentAbi.OBSERVE_COMPLETION, ResultCode.OK, TargetFlyweight.LENGTH);
            default -> McpScriptedServiceTest.act(request, ResultCode.TARGET_NOT_FOUND, true);
        });
        try (McpProcess mcp = McpProcess.start(socket)) {
            if (!stateless) {
                mcp.call(INITIALIZE);
            }
            for (int i = 0; i < calls.length; i += 2) {
                responses.add(mcp.call(stateless ? modernTool(i + 2, calls[i], calls[i + 1])
                    : tool(i + 2, calls[i], calls[i + 1])));
            }
            assertEquals(List.of(), mcp.finish());
            assertEquals(0, mcp.exitCode());
        } finally {
            service.stop();
        }
        return service.received();
    }
}
