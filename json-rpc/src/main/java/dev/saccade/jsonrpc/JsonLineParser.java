package dev.saccade.jsonrpc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import dev.saccade.protocol.Utf8;
import java.io.IOException;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Parses one input line into a {@link JsonNode} with jackson-core's streaming parser, bounded:
 * at most a bound of tokens ({@link #MAX_TOKENS} for MCP) (each object, array, key and value counts; the closing
 * brackets do not), exactly one JSON value (mcp.md §1, §2 row 1, M6). The line's bytes must be
 * strict UTF-8 first ({@link Utf8#isStrict}): jackson decodes an overlong form such as
 * {@code C0 AF} as "/" and an encoded surrogate as a char, which would let a filter be bypassed;
 * a NUL byte (never valid JSON, and what makes jackson guess UTF-16 or UTF-32) and a leading
 * byte order mark (which jackson skips) are parse errors too. jackson's strict defaults do the
 * rest: raw control characters in strings and unknown escapes are parse errors.
 */
public final class JsonLineParser {
    /** Token bound of one line (mcp.md §1). */
    public static final int MAX_TOKENS = 512;

    private final JsonFactory factory;
    private final int maxTokens;
    private int tokens;
    /** Whether the last line was refused for its token bound (not for its syntax). */
    private boolean overBound;
    /** The last line array seen, wrapped once for {@link Utf8} (a reader reuses one buffer). */
    private byte[] wrappedArray;
    private BytesStore<?, byte[]> wrapped;

    /** MCP's bound: {@value #MAX_TOKENS} tokens. */
    public JsonLineParser() {
        this(MAX_TOKENS, MAX_TOKENS);
    }

    /** At most {@code maxTokens} tokens and {@code maxDepth} levels of nesting per line. */
    public JsonLineParser(final int maxTokens, final int maxDepth) {
        this.maxTokens = maxTokens;
        this.factory = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(maxDepth).build())
            .build();
    }

    /** The line's one value, or null when it is not exactly one JSON value within the bound. */
    public JsonNode parse(final byte[] line, final int length) {
        if (!strictUtf8(line, length)) {
            return null;
        }
        tokens = 0;
        overBound = false;
        try (JsonParser parser = factory.createParser(line, 0, length)) {
            final JsonToken first = parser.nextToken();
            if (first == null) {
                return null; // blank
            }
            final JsonNode root = value(parser, first);
            if (root == null || parser.nextToken() != null) {
                return null;
            }
            return root;
        } catch (final IOException e) {
            return null; // ignore: any malformed input is the one answer "Parse error"
        }
    }

    /**
     * Whether the last {@link #parse} returned null because the line held more tokens than the
     * bound, so that a caller can answer "too large" rather than "not JSON".
     */
    public boolean overBound() {
        return overBound;
    }

    /** Strict UTF-8, no NUL byte, no byte order mark at the start. */
    private boolean strictUtf8(final byte[] line, final int length) {
        if (length >= 3 && (line[0] & 0xFF) == 0xEF && (line[1] & 0xFF) == 0xBB && (line[2] & 0xFF) == 0xBF) {
            return false;
        }
        boolean ascii = true;
        for (int i = 0; i < length; i++) {
            final byte b = line[i];
            if (b == 0) {
                return false;
            }
            ascii &= b > 0;
        }
        if (ascii) {
            return true;
        }
        if (line != wrappedArray) {
            wrapped = BytesStore.wrap(line);
            wrappedArray = line;
        }
        return Utf8.isStrict(wrapped, 0, length);
    }

    private JsonNode value(final JsonParser parser, final JsonToken token) throws IOException {
        if (++tokens > maxTokens) {
            overBound = true;
            return null;
        }
        switch (token) {
            case START_OBJECT: {
                final JsonNode object = JsonNode.object();
                for (JsonToken t = parser.nextToken(); t != JsonToken.END_OBJECT; t = parser.nextToken()) {
                    if (t != JsonToken.FIELD_NAME) {
                        return null;
                    }
                    if (++tokens > maxTokens) {
                        overBound = true;
                        return null;
                    }
                    final String key = parser.currentName();
                    final JsonNode member = value(parser, parser.nextToken());
                    if (member == null) {
                        return null;
                    }
                    object.put(key, member);
                }
                return object;
            }
            case START_ARRAY: {
                final JsonNode array = JsonNode.array();
                for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
                    final JsonNode element = value(parser, t);
                    if (element == null) {
                        return null;
                    }
                    array.add(element);
                }
                return array;
            }
            case VALUE_STRING:
                return JsonNode.scalar(JsonNode.Type.STRING, parser.getText());
            case VALUE_NUMBER_INT:
                return JsonNode.scalar(JsonNode.Type.INTEGER, parser.getText());
            case VALUE_NUMBER_FLOAT:
                return JsonNode.scalar(JsonNode.Type.FLOAT, parser.getText());
            case VALUE_TRUE:
                return JsonNode.scalar(JsonNode.Type.TRUE, "true");
            case VALUE_FALSE:
                return JsonNode.scalar(JsonNode.Type.FALSE, "false");
            case VALUE_NULL:
                return JsonNode.scalar(JsonNode.Type.NULL, "null");
            default:
                return null;
        }
    }
}
