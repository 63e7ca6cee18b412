package dev.saccade.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads the JSON the commands print back into maps and lists (tests only; jackson-core has no tree model). */
final class Json {
    private static final JsonFactory FACTORY = new JsonFactory();

    private Json() {
    }

    /** Parses exactly one JSON value; anything after it but whitespace fails. */
    static Object parse(final byte[] json) {
        try (JsonParser p = FACTORY.createParser(json)) {
            final Object value = read(p, p.nextToken());
            if (p.nextToken() != null) {
                throw new IllegalArgumentException("more than one JSON value");
            }
            return value;
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(final byte[] json) {
        return (Map<String, Object>) parse(json);
    }

    /** The target_id strings of a completion's targets, in order. */
    @SuppressWarnings("unchecked")
    static List<String> targetIds(final Map<String, Object> completion) {
        final List<String> ids = new ArrayList<>();
        for (final Object target : (List<Object>) completion.get("targets")) {
            ids.add((String) ((Map<String, Object>) target).get("target_id"));
        }
        return ids;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> field(final Map<String, Object> object, final String name) {
        return (Map<String, Object>) object.get(name);
    }

    private static Object read(final JsonParser p, final JsonToken token) throws IOException {
        switch (token) {
            case START_OBJECT: {
                final Map<String, Object> map = new LinkedHashMap<>();
                for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
                    final String name = p.currentName();
                    map.put(name, read(p, p.nextToken()));
                }
                return map;
            }
            case START_ARRAY: {
                final List<Object> list = new ArrayList<>();
                for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                    list.add(read(p, t));
                }
                return list;
            }
            case VALUE_STRING:
                return p.getText();
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return p.getNumberValue();
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            case VALUE_NULL:
                return null;
            default:
                throw new IllegalArgumentException("unexpected token " + token);
        }
    }
}
