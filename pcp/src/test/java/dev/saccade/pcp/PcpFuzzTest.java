package dev.saccade.pcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutated and random lines over the real socket: every one is answered with a JSON-RPC
 * response (or, for a notification, nothing), never a closed connection, a hang or an internal
 * error; after each one a sentinel request still gets its answer.
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
    private static final String ALPHABET = "{}[]\",:0123456789.-+eEtruefalsn \\u\u00e9\u0000\t";

    @TempDir
    Path temp;

    @Test
    @Timeout(120)
    void everyMutatedLineIsAnsweredAndTheConnectionSurvives() throws Exception {
        final Random random = new Random(8);
        try (PcpFixture fixture = new PcpFixture(temp, null, c -> c.rate(1_000_000, 1_000_000).maxLineBytes(64 * 1024));
             PcpClient client = fixture.client()) {
            int internal = 0;
            for (int round = 0; round < 3_000; round++) {
                final String seed = SEEDS.get(random.nextInt(SEEDS.size()));
                final String line = mutate(seed, random).replace("\n", " ");
                client.sendRaw((line + "\n").getBytes(StandardCharsets.UTF_8));
                client.send("{\"jsonrpc\":\"2.0\",\"id\":\"sentinel-" + round + "\",\"method\":\"health.check\"}");
                while (true) {
                    final Object reply = JsonTree.parse(client.readLine());
                    final List<?> replies = reply instanceof List ? (List<?>) reply : List.of(reply);
                    boolean sentinel = false;
                    for (final Object r : replies) {
                        final Map<?, ?> m = (Map<?, ?>) r;
                        if (m.get("method") != null) {
                            continue; // a pushed notification
                        }
                        assertEquals("2.0", m.get("jsonrpc"));
                        assertTrue(m.containsKey("result") != m.containsKey("error"), m::toString);
                        if (m.containsKey("error") && Long.valueOf(PcpError.INTERNAL_ERROR).equals(((Map<?, ?>) m.get("error")).get("code"))) {
                            internal++;
                        }
                        sentinel |= ("sentinel-" + round).equals(m.get("id"));
                    }
                    if (sentinel) {
                        break;
                    }
                }
            }
            assertEquals(0, internal, "no input reaches an internal error");
        }
    }

    private static String mutate(final String seed, final Random random) {
        final StringBuilder s = new StringBuilder(seed);
        final int edits = 1 + random.nextInt(4);
        for (int i = 0; i < edits && s.length() > 0; i++) {
            final int at = random.nextInt(s.length());
            switch (random.nextInt(4)) {
                case 0: s.deleteCharAt(at); break;
                case 1: s.insert(at, ALPHABET.charAt(random.nextInt(ALPHABET.length()))); break;
                case 2: s.setCharAt(at, ALPHABET.charAt(random.nextInt(ALPHABET.length()))); break;
                default: s.delete(at, Math.min(s.length(), at + random.nextInt(20)));
            }
        }
        return s.toString();
    }
}
