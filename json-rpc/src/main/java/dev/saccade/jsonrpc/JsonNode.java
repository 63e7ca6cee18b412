package dev.saccade.jsonrpc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One parsed JSON value of an input line. A line holds a bounded number of tokens
 * ({@link JsonLineParser}), so the tree is small and built once per message, off any hot path. Numbers keep their literal text
 * (the id is echoed as written, and 64-bit rules need the digits, not a double). Objects keep the
 * first of duplicate keys (mcp.md §2).
 */
public final class JsonNode {
    public enum Type { OBJECT, ARRAY, STRING, INTEGER, FLOAT, TRUE, FALSE, NULL }

    public final Type type;
    /** STRING: the decoded text; INTEGER, FLOAT: the literal. */
    public final String text;
    private final Map<String, JsonNode> members;
    private final List<JsonNode> elements;

    private JsonNode(final Type type, final String text) {
        this.type = type;
        this.text = text;
        this.members = type == Type.OBJECT ? new LinkedHashMap<>() : null;
        this.elements = type == Type.ARRAY ? new ArrayList<>() : null;
    }

    public static JsonNode object() {
        return new JsonNode(Type.OBJECT, null);
    }

    public static JsonNode array() {
        return new JsonNode(Type.ARRAY, null);
    }

    public static JsonNode scalar(final Type type, final String text) {
        return new JsonNode(type, text);
    }

    /** Adds a member unless the key is already there: the first of duplicate keys wins. */
    public void put(final String key, final JsonNode value) {
        members.putIfAbsent(key, value);
    }

    public void add(final JsonNode value) {
        elements.add(value);
    }

    /** The member {@code key} of an object, or null (also for a non-object). */
    public JsonNode get(final String key) {
        return members == null ? null : members.get(key);
    }

    public boolean isObject() {
        return type == Type.OBJECT;
    }

    public boolean isString() {
        return type == Type.STRING;
    }

    /** An object's members in input order (first of duplicate keys); empty for a non-object. */
    public Map<String, JsonNode> members() {
        return members == null ? Map.of() : java.util.Collections.unmodifiableMap(members);
    }

    /** An array's elements; empty for a non-array. */
    public List<JsonNode> elements() {
        return elements == null ? List.of() : java.util.Collections.unmodifiableList(elements);
    }
}
