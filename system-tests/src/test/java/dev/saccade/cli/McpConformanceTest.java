package dev.saccade.cli;

import static dev.saccade.cli.McpProcess.INITIALIZE;
import static dev.saccade.cli.McpProcess.request;
import static dev.saccade.cli.McpProcess.tool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance cases of spec/mcp.md §10 that need no service, on the real {@code saccade mcp}
 * process through its standard input and output: the offline transcript (12 lines in, 11 out,
 * exit 0) and further cases 13 to 21.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class McpConformanceTest {
    private static String error(final Object id, final int code, final String message) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"error\":{\"code\":" + code + ",\"message\":\"" + message + "\"}}";
    }

    private static String invalidArgument(final Object id, final String message) {
        return error(id, -32602, message);
    }

    @Test
    void offlineTranscriptAnswersElevenOfTwelveLinesAndExitsZero(@TempDir final Path dir) throws Exception {
        final String[] in = {
            INITIALIZE,
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
            request(2, "tools/list"),
            request(3, "ping"),
            tool(4, "saccade_observe", "{\"scope\":\"rect\",\"xQ8\":0,\"yQ8\":0,\"widthQ8\":256}"),
            tool(5, "saccade_act", "{\"kind\":\"click\",\"targetId\":\"18446744073709551615\",\"xQ8\":0}"),
            tool(6, "saccade_query", "{\"generation\":\"18446744073709551615\",\"text\":\"\"}"),
            tool(7, "saccade_act", "{\"kind\":\"click\",\"targetId\":\"18446744073709551616\"}"),
            tool(8, "saccade_act", "{\"kind\":\"physical\",\"expectedButtons\":0}"),
            tool(9, "saccade_act", "{\"kind\":\"click\",\"targetId\":9007199254740992}"),
            tool(10, "saccade_query", "{\"generation\":\"7\",\"afterGeneration\":\"7\"}"),
            tool(11, "saccade_act", "{\"kind\":\"physical\",\"verifyNextGeneration\":\"yes\"}")};
        try (McpProcess mcp = McpProcess.start(dir.resolve("absent.sock"))) {
            mcp.write((String.join("\n", in) + "\n").getBytes(StandardCharsets.UTF_8));
            final List<String> out = mcp.finish();
            assertEquals(0, mcp.exitCode(), Files.readString(mcp.stderr));
            assertEquals(11, out.size(), String.join("\n", out));
            assertTrue(out.get(0).contains("\"id\":1") && out.get(0).contains("\"protocolVersion\":\"2025-06-18\""));
            for (final String s : new String[] {"\"name\":\"saccade_observe\"", "\"name\":\"saccade_query\"",
                "\"name\":\"saccade_act\"", "\"hover\"", "\"key-chord\"", "\"invoke\"", "\"secondaryXQ8\"",
                "\"active-window\"", "\"sourceMode\"", "\"afterGeneration\"", "\"verifyNextGeneration\"",
                "\"processId\"", "\"physicalSequence\"", "\"maximum\":9007199254740991", "\"dryRun\""}) {
                assertTrue(out.get(1).contains(s), s);
            }
            assertTrue(out.get(1).startsWith("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":["), out.get(1));
            assertEquals("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}", out.get(2));
            assertEquals(invalidArgument(4, "Invalid observation scope"), out.get(3));
            assertEquals(invalidArgument(5, "Action points require coordinate pairs"), out.get(4));
            assertEquals(invalidArgument(6, "Invalid text"), out.get(5));
            assertEquals(invalidArgument(7, "Invalid action integer"), out.get(6));
            assertEquals(invalidArgument(8, "Physical expectations require physicalSequence"), out.get(7));
            assertEquals(invalidArgument(9, "Invalid action integer"), out.get(8));
            assertEquals(invalidArgument(10, "Invalid afterGeneration"), out.get(9));
            assertEquals(invalidArgument(11, "Invalid verifyNextGeneration value"), out.get(10));
            assertFalse(Files.exists(dir.resolve("absent.sock")));
        }
    }

    @Test
    void framingAndDispatchErrorsFollowTheTable(@TempDir final Path dir) throws Exception {
        final StringBuilder tokens513 = new StringBuilder("[0");
        for (int i = 1; i < 512; i++) {
            tokens513.append(",0");
        }
        tokens513.append(']'); // the array and 512 values
        final StringBuilder tokens512 = new StringBuilder("{\"jsonrpc\":\"2.0\",\"id\":77,\"method\":\"ping\",\"p\":[0");
        for (int i = 1; i < 512 - 9; i++) {
            tokens512.append(",0");
        }
        tokens512.append("]}"); // object, 4 keys, 3 values, the array and 503 values = 512
        try (McpProcess mcp = McpProcess.start(dir.resolve("absent.sock"))) {
            // 14: before initialize
            assertEquals(error(1, -32002, "Server is not initialized"), mcp.call(request(1, "tools/list")));
            // 13
            assertEquals(error(null, -32700, "Parse error"), mcp.call("not json"));
            assertEquals(error(null, -32700, "Parse error"), mcp.call(""));
            assertEquals(error(null, -32700, "Parse error"), mcp.call("   \r"));
            assertEquals(error(null, -32700, "Parse error"), mcp.call(tokens513.toString()));
            assertEquals(error(null, -32700, "Parse error"), mcp.call("{\"id\":1,\"method\":\"ping\"} {}"));
            assertEquals(error(null, -32600, "Invalid Request"), mcp.call("[1]"));
            assertEquals(error(null, -32600, "Invalid Request"), mcp.call("{\"id\":{},\"method\":\"ping\"}"));
            assertEquals(error(5, -32600, "Invalid Request"), mcp.call("{\"id\":5}"));
            assertEquals(error("\"m\"", -32600, "Invalid Request"), mcp.call("{\"id\":\"m\",\"method\":3}"));
            // 16: negotiation; initialize is repeatable
            assertTrue(mcp.call("{\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\"}}")
                .contains("\"protocolVersion\":\"2025-11-25\""));
            assertTrue(mcp.call("{\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2024-11-05\"}}")
                .contains("\"protocolVersion\":\"2025-06-18\""));
            assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":"
                + "{\"tools\":{}},\"serverInfo\":{\"name\":\"saccade\",\"version\":\""
                + System.getProperty("saccade.project.version") + "\"}}}", mcp.call("{\"id\":1,\"method\":\"initialize\"}"));
            // 14: after initialize
            assertEquals(error(2, -32601, "Method not found"), mcp.call(request(2, "foo")));
            mcp.send("{\"method\":\"foo\"}"); // no id: no answer
            mcp.send("{\"id\":9,\"method\":\"notifications/cancelled\"}"); // never answered
            mcp.send("{\"id\":9,\"method\":\"notifications/initialized\"}");
            assertEquals("{\"jsonrpc\":\"2.0\",\"id\":\"a\\\"b\",\"result\":{}}", mcp.call(request("\"a\\\"b\"", "ping")));
            assertEquals("{\"jsonrpc\":\"2.0\",\"id\":null,\"result\":{}}", mcp.call(request("null", "ping")));
            assertEquals("{\"jsonrpc\":\"2.0\",\"id\":\"\\ud800\\u001f\",\"result\":{}}",
                mcp.call(request("\"\\uD800\\u001F\"", "ping")));
            assertEquals("{\"jsonrpc\":\"2.0\",\"id\":77,\"result\":{}}", mcp.call(tokens512.toString()));
            assertEquals("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}",
                mcp.call("{\"id\":3,\"id\":4,\"method\":\"ping\",\"jsonrpc\":\"1.0\"}"));
            // 15
            assertEquals(invalidArgument(3, "Invalid tool arguments"),
                mcp.call("{\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"saccade_observe\"}}"));
            assertEquals(invalidArgument(3, "Invalid tool arguments"), mcp.call(tool(3, "saccade_observe", "[]")));
            assertEquals(invalidArgument(3, "Invalid tool arguments"),
                mcp.call("{\"id\":3,\"method\":\"tools/call\",\"params\":{\"arguments\":{}}}"));
            assertEquals(invalidArgument(3, "Unknown tool"), mcp.call(tool(3, "saccade_x", "{}")));
            // the process kept reading after every answer; nothing was left unanswered
            assertEquals(List.of(), mcp.finish());
            assertEquals(0, mcp.exitCode());
        }
    }

    @Test
    void valueRulesAndArgumentErrorsComeInTheSpecsOrder(@TempDir final Path dir) throws Exception {
        final String[][] cases = {
            // 18: u64
            {"saccade_act", "{\"kind\":\"click\",\"targetId\":\"007\",\"button\":\"x\"}", "Invalid action value"},
            {"saccade_act", "{\"kind\":\"click\",\"targetId\":-1}", "Invalid action integer"},
            {"saccade_act", "{\"kind\":\"click\",\"targetId\":1.0}", "Invalid action integer"},
            {"saccade_act", "{\"kind\":\"click\",\"targetId\":1e3}", "Invalid action integer"},
            {"saccade_act", "{\"kind\":\"click\",\"targetId\":\"\"}", "Invalid action integer"},
            {"saccade_act", "{\"kind\":\"click\",\"targetId\":\" 7\"}", "Invalid action integer"},
            {"saccade_act", "{\"kind\":\"click\",\"targetId\":true}", "Invalid action integer"},
            {"saccade_act", "{\"kind\":\"click\",\"targetId\":\"-1\"}", "Invalid action integer"},
            {"saccade_act", "{\"kind\":\"click\",\"targetId\":null}", "Invalid action integer"},
            {"saccade_act", "{\"kind\":\"click\",\"targetId\":9007199254740991,\"button\":\"x\"}", "Invalid action value"},
            {"saccade_act", "{\"kind\":\"click\",\"targetId\":\"18446744073709551615\",\"button\":\"x\"}",
                "Invalid action value"},
            // 19
            {"saccade_observe", "{\"scope\":\"rect\",\"xQ8\":\"5\",\"yQ8\":0,\"widthQ8\":1,\"heightQ8\":1}",
                "Invalid observation scope"},
            {"saccade_observe", "{\"scope\":\"window\"}", "Invalid observation scope"},
            {"saccade_observe", "{\"scope\":\"display\"}", "Invalid observation scope"},
            {"saccade_observe", "{\"scope\":\"desktop\",\"scopeId\":3}", "Invalid observation scope"},
            {"saccade_observe", "{\"scope\":\"rect\",\"scopeId\":1,\"xQ8\":0,\"yQ8\":0,\"widthQ8\":1,\"heightQ8\":1}",
                "Invalid observation scope"},
            {"saccade_observe", "{\"scope\":\"rect\",\"xQ8\":0,\"yQ8\":0,\"widthQ8\":1,\"heightQ8\":0}",
                "Invalid observation scope"},
            {"saccade_observe", "{\"scope\":\"active-window\",\"xQ8\":0,\"yQ8\":0,\"widthQ8\":1,\"heightQ8\":1}",
                "Invalid observation scope"},
            {"saccade_observe", "{\"maximumTargets\":0}", "maximumTargets is out of range"},
            {"saccade_observe", "{\"maximumTargets\":10001}", "maximumTargets is out of range"},
            {"saccade_observe", "{\"maximumTargets\":4294967295}", "maximumTargets is out of range"},
            {"saccade_observe", "{\"maximumTargets\":4294967296}", "Invalid maximumTargets"},
            {"saccade_observe", "{\"maximumTargets\":\"4294967296\"}", "Invalid maximumTargets"},
            {"saccade_observe", "{\"maximumTargets\":\"x\",\"scope\":\"window\"}", "Invalid maximumTargets"},
            {"saccade_observe", "{\"afterGeneration\":\"x\"}", "Invalid afterGeneration"},
            {"saccade_observe", "{\"maximumTextBytes\":511}", "maximumTextBytes is out of range"},
            {"saccade_observe", "{\"maximumTextBytes\":1048577}", "maximumTextBytes is out of range"},
            {"saccade_query", "{\"maximumTextBytes\":\"big\"}", "maximumTextBytes is out of range"},
            {"saccade_act", "{\"kind\":\"physical\",\"dryRun\":\"true\"}", "Invalid dryRun value"},
            {"saccade_query", "{\"role\":65536}", "Invalid query integer"},
            {"saccade_query", "{\"source\":65536}", "Invalid query integer"},
            {"saccade_query", "{\"scope\":\"display\",\"role\":65536}", "Invalid query scope"},
            {"saccade_query", "{\"maximumResults\":0}", "maximumResults is out of range"},
            {"saccade_query", "{\"text\":\"OK\",\"textMatch\":\"EXACT\"}", "Invalid textMatch"},
            {"saccade_query", "{\"text\":\"a\\u0000b\"}", "Invalid text"},
            {"saccade_query", "{\"text\":\"\\udc00\"}", "Invalid text"},
            // 20
            {"saccade_act", "{\"kind\":\"drag\",\"xQ8\":1,\"yQ8\":2}", "Invalid points for action kind"},
            {"saccade_act", "{\"kind\":\"click\",\"xQ8\":1,\"yQ8\":2,\"secondaryXQ8\":1,\"secondaryYQ8\":2}",
                "Invalid points for action kind"},
            {"saccade_act", "{\"kind\":\"key\",\"xQ8\":1,\"yQ8\":2}", "Invalid points for action kind"},
            {"saccade_act", "{\"kind\":\"drag\",\"xQ8\":1,\"yQ8\":\"2\"}", "Action points require coordinate pairs"},
            {"saccade_act", "{\"kind\":\"text\",\"text\":\"\"}", "Invalid action text"},
            {"saccade_act", "{\"kind\":\"text\",\"text\":\"" + "x".repeat(16_385) + "\"}", "Invalid action text"},
            {"saccade_act", "{\"kind\":\"CLICK\"}", "Invalid action kind"},
            {"saccade_act", "{}", "Invalid action kind"},
            {"saccade_act", "{\"kind\":\"click\",\"processId\":\"x\"}", "Invalid action precondition"},
            {"saccade_act", "{\"kind\":\"click\",\"physicalSequence\":\"1\",\"expectedButtons\":-1}",
                "Invalid physical precondition"},
            {"saccade_act", "{\"kind\":\"cycle\",\"backward\":1}", "Invalid backward value"},
            {"saccade_act", "{\"kind\":\"click\",\"deltaXQ8\":2147483648}", "Invalid action value"},
            {"saccade_act", "{\"kind\":\"drag\",\"durationMs\":60001}", "Invalid action value"},
            {"saccade_act", "{\"kind\":\"hold\",\"durationMs\":-1}", "Invalid action value"},
        };
        try (McpProcess mcp = McpProcess.start(dir.resolve("absent.sock"))) {
            mcp.call(INITIALIZE);
            for (int i = 0; i < cases.length; i++) {
                assertEquals(invalidArgument(100 + i, cases[i][2]), mcp.call(tool(100 + i, cases[i][0], cases[i][1])),
                    cases[i][1]);
            }
            // accepted shapes reach the (absent) service: a typed tool error, not an argument error
            final String unavailable = "\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"Saccade service is"
                + " unavailable\"}],\"isError\":true}}";
            for (final String[] valid : new String[][] {
                {"saccade_act", "{\"kind\":\"click\",\"targetId\":\"007\",\"generation\":9007199254740991}"},
                {"saccade_act", "{\"kind\":\"drag\",\"xQ8\":1,\"yQ8\":2,\"secondaryXQ8\":3,\"secondaryYQ8\":4}"},
                {"saccade_act", "{\"kind\":\"text\",\"text\":\"" + "é".repeat(8_192) + "\"}"},
                {"saccade_observe", "{\"scope\":\"active-window\",\"scopeId\":\"5\",\"maximumTargets\":\"10000\"}"},
                {"saccade_query", "{\"role\":65535,\"text\":\"OK\",\"textMatch\":\"prefix\",\"unknown\":[1]}"}}) {
                assertTrue(mcp.call(tool(1, valid[0], valid[1])).endsWith(unavailable), valid[1]);
            }
        }
    }

    @Test
    void aLineOfTheCapIsAnsweredAndOneByteMoreExitsTwo(@TempDir final Path dir) throws Exception {
        final String head = "{\"id\":8,\"method\":\"ping\",\"pad\":\"";
        final String tail = "\"}";
        final String atCap = head + "x".repeat(65_535 - head.length() - tail.length()) + tail;
        assertEquals(65_535, atCap.length());
        try (McpProcess mcp = McpProcess.start(dir.resolve("absent.sock"))) {
            mcp.call(INITIALIZE);
            assertEquals("{\"jsonrpc\":\"2.0\",\"id\":8,\"result\":{}}", mcp.call(atCap));
            // 65,536 bytes and the newline: refused before the line ends (no newline is even needed)
            mcp.write((atCap + "x").getBytes(StandardCharsets.US_ASCII));
            assertEquals(2, mcp.exitCode());
            assertEquals(List.of(), mcp.finish());
        }
    }

    @Test
    void aLastLineWithoutNewlineCountsAndEndOfInputExitsZero(@TempDir final Path dir) throws Exception {
        try (McpProcess mcp = McpProcess.start(dir.resolve("absent.sock"))) {
            mcp.write((INITIALIZE + "\r\n" + request(5, "ping")).getBytes(StandardCharsets.UTF_8));
            final List<String> out = mcp.finish();
            assertEquals(2, out.size(), out.toString());
            assertEquals("{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}", out.get(1));
            assertEquals(0, mcp.exitCode());
        }
    }

    @Test
    void aClosedOutputExitsThree(@TempDir final Path dir) throws Exception {
        try (McpProcess mcp = McpProcess.start(dir.resolve("absent.sock"))) {
            mcp.call(INITIALIZE);
            mcp.closeOutput();
            mcp.send(request(2, "ping"));
            assertEquals(3, mcp.exitCode());
        }
    }

    @Test
    void noServiceIsAToolErrorAndALaterCallConnectsOnceItIsUp(@TempDir final Path dir) throws Exception {
        final Path socket = dir.resolve("agent.sock");
        try (McpProcess mcp = McpProcess.start(socket)) {
            mcp.call(INITIALIZE);
            assertEquals("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"Saccade"
                + " service is unavailable\"}],\"isError\":true}}", mcp.call(tool(2, "saccade_observe", "{}")));
            final ActingOwner owner = ActingOwner.start(socket);
            try {
                final long generation = owner.publish();
                final String observed = mcp.call(tool(3, "saccade_observe", "{}"));
                assertTrue(observed.startsWith("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[{\"type\":\"text\","
                    + "\"text\":\"generation " + generation + " (epochs: scene "), observed);
                assertTrue(observed.contains("\\nscope desktop, 3 targets"), observed);
                assertTrue(observed.contains("\"}],\"structuredContent\":"
                    + "{\"generation\":\"" + generation + "\",\"epochs\":{"), observed);
                assertTrue(observed.contains("\"id\":\"" + InProcessOwner.OK + "\""), observed);
                assertTrue(observed.contains("\"role\":\"button\",\"roleCode\":1"), observed);
                assertFalse(observed.contains("isError"), observed);
                final String dry = mcp.call(tool(4, "saccade_act", "{\"kind\":\"click\",\"dryRun\":true,\"targetId\":\""
                    + InProcessOwner.OK + "\",\"generation\":\"" + generation + "\"}"));
                assertTrue(dry.contains("\"text\":\"Action completed.\""), dry);
                assertTrue(dry.contains("\"failedAction\":4294967295"), dry);
                assertTrue(dry.endsWith("\"isError\":false}}"), dry);
                assertEquals(0, owner.executor.plans.size(), "a dry run plans nothing");
                final String stale = mcp.call(tool(5, "saccade_act", "{\"kind\":\"click\",\"targetId\":\""
                    + InProcessOwner.OK + "\",\"generation\":\"" + (generation - 1) + "\"}"));
                assertTrue(stale.contains("\"text\":\"Action rejected: stale generation. The scene changed since generation "), stale);
                assertTrue(stale.endsWith("\"isError\":true}}"), stale);
            } finally {
                owner.stop();
            }
        }
    }
}
