package dev.saccade.cli.mcp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One parsed JSON value of an input line. A line holds at most 512 tokens (mcp.md §1), so the
 * tree is small and built once per message, off any hot path. Numbers keep their literal text
 * (the id is echoed as written, and 64-bit rules need the digits, not a double). Objects keep the
 * first of duplicate keys (§2).
 */
final class JsonNode {
    enum Type { OBJECT, ARRAY, STRING, INTEGER, FLOAT, TRUE, FALSE, NULL }

    final Type type;
    /** STRING: the decoded text; INTEGER, FLOAT: the literal. */
    final String text;
    private final Map<String, JsonNode> members;
    private final List<JsonNode> elements;

    private JsonNode(final Type type, final String text) {
        this.type = type;
        this.text = text;
        this.members = type == Type.OBJECT ? new LinkedHashMap<>() : null;
        this.elements = type == Type.ARRAY ? new ArrayList<>() : null;
    }

    static JsonNode object() {
        return new JsonNode(Type.OBJECT, null);
    }

    static JsonNode array() {
        return new JsonNode(Type.ARRAY, null);
    }

    static JsonNode scalar(final Type type, final String text) {
        return new JsonNode(type, text);
    }

    /** Adds a member unless the key is already there: the first of duplicate keys wins. */
    void put(final String key, final JsonNode value) {
        members.putIfAbsent(key, value);
    }

    void add(final JsonNode value) {
        elements.add(value);
    }

    /** The member {@code key} of an object, or null (also for a non-object). */
    JsonNode get(final String key) {
        return members == null ? null : members.get(key);
    }

    boolean isObject() {
        return type == Type.OBJECT;
    }

    boolean isString() {
        return type == Type.STRING;
    }
}
