package dev.saccade.pcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.jsonrpc.LineMutator;
import dev.saccade.protocol.Utf8;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutated lines ({@link LineMutator}, a fixed seed) over the real socket: every one is answered with a JSON-RPC
 * response (or, for a notification, nothing), never a closed connection, a hang or an internal
 * error, at most once, and −32700 whenever it is not strict UTF-8; after each one a sentinel request
 * still gets its answer.
 */
class PcpFuzzTest {
    private static final List<String> SEEDS = List.of(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"query.capabilities\",\"params\":{\"app_id\":\"org.example.mail\",\"tier\":1}}",
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"register.capability\",\"params\":{\"app_id\":\"org.example.mail\","
            + "\"manifest\":{\"version\":\"1.0\",\"capabilities\":[{\"name\":\"compose\",\"tier\":1,\"trust_level\":\"confirm\","
            + "\"parameters\":[{\"name\":\"recipient\",\"type\":\"string\"}]}],\"signature\":\"a1b2c3d4\"}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"invoke.capability\",\"params\":{\"capability_id\":\"org.example.mail.compose\","
            + "\"app_id\":\"org.example.mail\",\"source\":\"SystemIntelligence\",\"params\":{\"recipient\":\"user@example.com\"}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"subscribe.events\",\"params\":{\"event_types\":[\"surface.focus_changed\"],"
            + "\"app_id\":\"org.example.mail\"}}",
        "[{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"health.check\"},{\"jsonrpc\":\"2.0\",\"method\":\"revoke.app\","
            + "\"params\":{\"app_id\":\"x.y\"}}]",
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"register.adapter\",\"params\":{\"surface_type\":\"x11\",\"adapter_id\":\"a\","
            + "\"supported_tiers\":[1]}}");

    @TempDir
    Path temp;

    /** The campaign: seed and size from saccade.fuzz.seed and saccade.fuzz.lines (bench/run fuzz runs a long one). */
    private static final long SEED = Long.getLong("saccade.fuzz.seed", 8);
    private static final int LINES = Integer.getInteger("saccade.fuzz.lines", 3_000);

    @Test
    @Timeout(300)
    void everyMutatedLineIsAnsweredAndTheConnectionSurvives() throws Exception {
        final LineMutator mutator = new LineMutator(SEEDS.stream().map(l -> l.getBytes(StandardCharsets.UTF_8)).toList(), SEED);
        final String replay = " (replay: -Dsaccade.fuzz.seed=" + SEED + " -Dsaccade.fuzz.lines=" + LINES + ")";
        try (PcpFixture fixture = new PcpFixture(temp, null, c -> c.rate(1_000_000, 1_000_000).maxLineBytes(64 * 1024));
             PcpClient client = fixture.client()) {
            int internal = 0;
            int parseErrors = 0;
            for (int round = 0; round < LINES; round++) {
                final byte[] line = mutator.next();
                final boolean malformed = !Utf8.isStrict(BytesStore.wrap(line), 0, line.length) || (line.length >= 3
                    && (line[0] & 0xFF) == 0xEF && (line[1] & 0xFF) == 0xBB && (line[2] & 0xFF) == 0xBF);
                client.sendRaw(line);
                client.sendRaw(new byte[] {'\n'});
                client.send("{\"jsonrpc\":\"2.0\",\"id\":\"sentinel-" + round + "\",\"method\":\"health.check\"}");
                int answers = 0;
                Object code = null;
                while (true) {
                    final Object reply = JsonTree.parse(client.readLine());
                    final List<?> replies = reply instanceof List ? (List<?>) reply : List.of(reply);
                    boolean sentinel = false;
                    boolean answer = false;
                    for (final Object r : replies) {
                        final Map<?, ?> m = (Map<?, ?>) r;
                        if (m.get("method") != null) {
                            continue; // a pushed notification
                        }
                        assertEquals("2.0", m.get("jsonrpc"), replay);
                        assertTrue(m.containsKey("result") != m.containsKey("error"), () -> m + replay);
                        if (m.containsKey("error") && Long.valueOf(PcpError.INTERNAL_ERROR).equals(((Map<?, ?>) m.get("error")).get("code"))) {
                            internal++;
                        }
                        if (("sentinel-" + round).equals(m.get("id"))) {
                            sentinel = true;
                        } else {
                            answer = true;
                            code = m.containsKey("error") ? ((Map<?, ?>) m.get("error")).get("code") : "result";
                        }
                    }
                    answers += answer ? 1 : 0;
                    if (sentinel) {
                        break;
                    }
                }
                assertTrue(answers <= 1, "line " + round + " answered " + answers + " times" + replay);
                if (malformed) {
                    assertEquals(answers == 1 ? (Object) (long) PcpError.PARSE_ERROR : "no single answer",
                        answers == 1 ? code : "no single answer", "line " + round + " is not strict UTF-8" + replay);
                    parseErrors++;
                }
            }
            assertEquals(0, internal, "no input reaches an internal error" + replay);
            assertTrue(parseErrors > LINES / 20, "the campaign reaches the UTF-8 check: " + parseErrors);
            System.out.printf("pcp line fuzz: %d lines (%d not strict UTF-8), seed %d%n", LINES, parseErrors, SEED);
        }
    }
}
