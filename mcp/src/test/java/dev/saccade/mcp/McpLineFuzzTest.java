package dev.saccade.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.jsonrpc.JsonLineParser;
import dev.saccade.jsonrpc.JsonNode;
import dev.saccade.jsonrpc.LineMutator;
import dev.saccade.protocol.Utf8;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A bounded fuzz campaign over MCP's input path: mutated lines of every
 * kind the adapter reads, each followed by a sentinel ping, through the real McpServer over
 * streams. Every line is answered at most once with a well-formed response (never an internal
 * error), the sentinels all come back in order, and the server ends with exit 0. Seed and size
 * come from saccade.fuzz.seed and saccade.fuzz.lines (bench/run fuzz runs a long campaign); a
 * failure names the seed that replays it.
 */
class McpLineFuzzTest {
    private static final long SEED = Long.getLong("saccade.fuzz.seed", 20_2011L);
    private static final int LINES = Integer.getInteger("saccade.fuzz.lines", 4_000);
    private static final List<String> SEEDS = List.of(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\"}}",
        "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"tools/list\"}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"saccade_observe\",\"arguments\":"
            + "{\"maximumTargets\":10,\"scope\":\"rect\",\"xQ8\":0,\"yQ8\":0,\"widthQ8\":256,\"heightQ8\":256}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"saccade_query\",\"arguments\":"
            + "{\"text\":\"r0/c0\",\"textMatch\":\"exact\",\"role\":1,\"afterGeneration\":\"18446744073709551615\"}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"saccade_act\",\"arguments\":"
            + "{\"kind\":\"drag\",\"generation\":\"7\",\"targetId\":\"1002\",\"secondaryTargetId\":\"1003\",\"dryRun\":true}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"saccade_act\",\"arguments\":"
            + "{\"kind\":\"text\",\"generation\":\"7\",\"targetId\":\"1004\",\"text\":\"h\\u00e9llo\",\"verifyNextGeneration\":false}}}");

    @Test
    @Timeout(120)
    void everyMutatedLineGetsAtMostOneWellFormedAnswerAndTheSentinelsAllComeBack() throws Exception {
        final LineMutator mutator = new LineMutator(SEEDS.stream().map(s -> s.getBytes(StandardCharsets.UTF_8)).toList(), SEED);
        final ByteArrayOutputStream input = new ByteArrayOutputStream();
        input.writeBytes((SEEDS.get(0) + "\n").getBytes(StandardCharsets.UTF_8));
        final boolean[] malformed = new boolean[LINES];
        for (int i = 0; i < LINES; i++) {
            final byte[] line = mutator.next();
            malformed[i] = !Utf8.isStrict(BytesStore.wrap(line), 0, line.length)
                || (line.length >= 3 && (line[0] & 0xFF) == 0xEF && (line[1] & 0xFF) == 0xBB && (line[2] & 0xFF) == 0xBF);
            input.writeBytes(line);
            input.write('\n');
            input.writeBytes(("{\"jsonrpc\":\"2.0\",\"id\":\"sentinel-" + i + "\",\"method\":\"ping\"}\n")
                .getBytes(StandardCharsets.UTF_8));
        }
        final ByteArrayOutputStream output = new ByteArrayOutputStream();
        final ByteArrayOutputStream log = new ByteArrayOutputStream();
        final int exit = new McpServer(new ByteArrayInputStream(input.toByteArray()), output,
            new PrintStream(log, true, StandardCharsets.UTF_8), "fuzz", () -> {
                throw new IOException("no service in this campaign");
            }).run();
        final String replay = " (replay: -Dsaccade.fuzz.seed=" + SEED + " -Dsaccade.fuzz.lines=" + LINES + ")";
        assertEquals(0, exit, "exit code" + replay);
        final JsonLineParser parser = new JsonLineParser(Integer.MAX_VALUE, 64);
        int sentinel = 0;
        int sinceSentinel = 0;
        String lastCode = null;
        int parseErrors = 0;
        boolean first = true;
        for (final String line : output.toString(StandardCharsets.UTF_8).split("\n")) {
            final byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
            final JsonNode reply = parser.parse(bytes, bytes.length);
            assertNotNull(reply, "a reply that is not JSON: " + line + replay);
            assertTrue(reply.isObject() && reply.get("jsonrpc") != null && "2.0".equals(reply.get("jsonrpc").text),
                line + replay);
            assertTrue((reply.get("result") != null) != (reply.get("error") != null), line + replay);
            if (reply.get("error") != null) {
                assertTrue(!"-32603".equals(reply.get("error").get("code").text), "an internal error: " + line + replay);
            }
            if (first) {
                first = false; // the initialize before the campaign
                continue;
            }
            final JsonNode id = reply.get("id");
            if (id != null && id.isString() && ("sentinel-" + sentinel).equals(id.text)) {
                if (malformed[sentinel]) {
                    // malformed UTF-8 anywhere, or a byte order mark: a parse error, whatever else the line says
                    assertEquals("-32700", sinceSentinel == 1 ? lastCode : "no single answer",
                        "line " + sentinel + " is not strict UTF-8" + replay);
                    parseErrors++;
                }
                sentinel++;
                sinceSentinel = 0;
            } else {
                assertTrue(++sinceSentinel <= 1, "two answers to one line before sentinel " + sentinel + ": " + line + replay);
                lastCode = reply.get("error") == null ? "result" : reply.get("error").get("code").text;
            }
        }
        assertEquals(LINES, sentinel, "every sentinel answered, in order" + replay);
        assertTrue(parseErrors > LINES / 20, "the campaign reaches the UTF-8 check: " + parseErrors);
        System.out.printf("mcp line fuzz: %d lines (%d not strict UTF-8), seed %d%n", LINES, parseErrors, SEED);
    }
}
