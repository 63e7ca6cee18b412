package dev.saccade.jsonrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The parser takes only strict UTF-8 lines: each malformed form alone in a string. */
class JsonLineParserUtf8Test {
    private final JsonLineParser parser = new JsonLineParser();

    private JsonNode parseWith(final String hex) {
        final byte[] head = "{\"k\":\"a".getBytes(StandardCharsets.US_ASCII);
        final byte[] mid = HexFormat.of().parseHex(hex);
        final byte[] tail = "b\"}".getBytes(StandardCharsets.US_ASCII);
        final byte[] line = new byte[head.length + mid.length + tail.length + 7];
        System.arraycopy(head, 0, line, 0, head.length);
        System.arraycopy(mid, 0, line, head.length, mid.length);
        System.arraycopy(tail, 0, line, head.length + mid.length, tail.length);
        return parser.parse(line, head.length + mid.length + tail.length); // the buffer is longer than the line
    }

    @Test
    void wellFormedSequencesOfEveryLengthParse() {
        for (final String ok : new String[] {"", "c3a9", "e282ac", "f09f9880", "ed9fbf", "ee8080", "f48fbfbf", "efbbbf"}) {
            final JsonNode n = parseWith(ok);
            assertNotNull(n, ok);
            assertEquals("a" + new String(HexFormat.of().parseHex(ok), StandardCharsets.UTF_8) + "b", n.get("k").text);
        }
    }

    @Test
    void everyMalformedFormIsRejected() {
        for (final String bad : new String[] {
            "c0af", "c1a7", "e080af", "f0808080", // overlong
            "eda080", "edbfbf", // surrogates
            "f4908080", "f5808080", "ff", "fe", // above U+10FFFF, never-used bytes
            "80", "bf", "c3", "e282", "f09f98", // stray continuation, truncated
            "c328", "e228a1", "f0288c28", // a lead byte without its continuation
            "f888808080", "fc8480808080", // 5- and 6-byte forms
            "00"}) { // NUL: never JSON, and what makes jackson guess UTF-16
            assertNull(parseWith(bad), bad);
        }
    }

    @Test
    void aByteOrderMarkBeforeTheValueIsNotJson() {
        final byte[] line = HexFormat.of().parseHex("efbbbf7b7d"); // BOM {}
        assertNull(parser.parse(line, line.length));
        final byte[] plain = "{}".getBytes(StandardCharsets.US_ASCII);
        assertNotNull(parser.parse(plain, plain.length));
    }
}
