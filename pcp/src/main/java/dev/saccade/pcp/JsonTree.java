package dev.saccade.pcp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import dev.saccade.jsonrpc.JsonNode;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * JSON values as plain Java objects, read and written with jackson-core's streaming API: an
 * object is a {@code LinkedHashMap<String, Object>} (member order kept), an array an
 * {@code ArrayList<Object>}, a number {@code Long}, {@code BigInteger} or {@code Double}, JSON
 * {@code null} the {@link #NULL} sentinel so that "absent" and "null" stay apart (JSON-RPC's
 * {@code "id": null} differs from a missing id).
 *
 * <p>PCP messages are small and off the owner thread, so a tree per message is affordable; the
 * parser still bounds nesting depth and string length so a hostile line cannot blow the stack.
 */
public final class JsonTree {
    /** JSON {@code null}. */
    public static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };
    /** Deepest nesting accepted; JSON-RPC messages need a handful of levels. */
    public static final int MAX_DEPTH = 64;

    private static final JsonFactory FACTORY = JsonFactory.builder()
        .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
        .build();

    private JsonTree() {
    }

    /** Parses exactly one JSON value; trailing content is a syntax error. */
    public static Object parse(final String text) throws JsonProcessingException {
        try (JsonParser parser = FACTORY.createParser(text)) {
            final JsonToken first = parser.nextToken();
            if (first == null) {
                throw new JsonProcessingException("empty input") { };
            }
            final Object value = read(parser, first);
            if (parser.nextToken() != null) {
                throw new JsonProcessingException("trailing content after the JSON value") { };
            }
            return value;
        } catch (final JsonProcessingException e) {
            throw e;
        } catch (final IOException e) {
            throw new UncheckedIOException(e); // a String source does no I/O
        }
    }

    private static Object read(final JsonParser parser, final JsonToken token) throws IOException {
        switch (token) {
            case START_OBJECT: {
                final Map<String, Object> object = new LinkedHashMap<>();
                for (JsonToken t = parser.nextToken(); t != JsonToken.END_OBJECT; t = parser.nextToken()) {
                    final String name = parser.currentName();
                    object.put(name, read(parser, parser.nextToken()));
                }
                return object;
            }
            case START_ARRAY: {
                final List<Object> array = new ArrayList<>();
                for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
                    array.add(read(parser, t));
                }
                return array;
            }
            case VALUE_STRING:
                return parser.getText();
            case VALUE_NUMBER_INT:
                return parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                    ? parser.getBigIntegerValue() : (Object) parser.getLongValue();
            case VALUE_NUMBER_FLOAT:
                return parser.getDoubleValue();
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            case VALUE_NULL:
                return NULL;
            default:
                throw new JsonProcessingException("unexpected token " + token) { };
        }
    }

    /**
     * The plain-object form of a value parsed by the shared line codec: the same types
     * {@link #parse} gives; {@code null} for an absent value (a Java null in).
     */
    public static Object of(final JsonNode node) {
        if (node == null) {
            return null;
        }
        switch (node.type) {
            case OBJECT: {
                final Map<String, Object> object = new LinkedHashMap<>();
                for (final Map.Entry<String, JsonNode> e : node.members().entrySet()) {
                    object.put(e.getKey(), of(e.getValue()));
                }
                return object;
            }
            case ARRAY: {
                final List<Object> array = new ArrayList<>();
                for (final JsonNode element : node.elements()) {
                    array.add(of(element));
                }
                return array;
            }
            case STRING:
                return node.text;
            case INTEGER: {
                final BigInteger value = new BigInteger(node.text);
                return value.bitLength() < Long.SIZE ? (Object) value.longValue() : value;
            }
            case FLOAT:
                return Double.parseDouble(node.text);
            case TRUE:
                return Boolean.TRUE;
            case FALSE:
                return Boolean.FALSE;
            default:
                return NULL;
        }
    }

    /** Compact JSON of {@code value}, members in their map order. */
    public static String write(final Object value) {
        return write(value, false);
    }

    /**
     * Canonical JSON of {@code value}: members sorted by name (UTF-16 code units, as RFC 8785
     * orders them), no whitespace. What a manifest signature covers.
     */
    public static String canonical(final Object value) {
        return write(value, true);
    }

    private static String write(final Object value, final boolean sorted) {
        final StringWriter out = new StringWriter();
        try (JsonGenerator generator = FACTORY.createGenerator(out)) {
            write(generator, value, sorted);
        } catch (final IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does no I/O
        }
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    private static void write(final JsonGenerator out, final Object value, final boolean sorted) throws IOException {
        if (value == null || value == NULL) {
            out.writeNull();
        } else if (value instanceof Map) {
            out.writeStartObject();
            final Map<String, Object> map = sorted ? new TreeMap<>((Map<String, Object>) value) : (Map<String, Object>) value;
            for (final Map.Entry<String, Object> e : map.entrySet()) {
                out.writeFieldName(e.getKey());
                write(out, e.getValue(), sorted);
            }
            out.writeEndObject();
        } else if (value instanceof List) {
            out.writeStartArray();
            for (final Object item : (List<Object>) value) {
                write(out, item, sorted);
            }
            out.writeEndArray();
        } else if (value instanceof String) {
            out.writeString((String) value);
        } else if (value instanceof Boolean) {
            out.writeBoolean((Boolean) value);
        } else if (value instanceof Long || value instanceof Integer || value instanceof Short) {
            out.writeNumber(((Number) value).longValue());
        } else if (value instanceof BigInteger) {
            out.writeNumber((BigInteger) value);
        } else if (value instanceof BigDecimal) {
            out.writeNumber((BigDecimal) value);
        } else if (value instanceof Number) {
            out.writeNumber(((Number) value).doubleValue());
        } else {
            throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
        }
    }

    /** A new JSON object from alternating names and values, in that order. */
    public static Map<String, Object> object(final Object... namesAndValues) {
        final Map<String, Object> object = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            object.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return object;
    }
}
