package dev.saccade.mcp;

import dev.saccade.client.DecimalU64;
import dev.saccade.jsonrpc.JsonNode;
import java.nio.charset.StandardCharsets;

/**
 * The value rules of mcp.md §4 over a tool call's {@code arguments} object. Each reader returns
 * {@link #ABSENT}, {@link #PRESENT} (the value in {@link #value()} or {@link #text()}) or
 * {@link #INVALID}; the tools turn INVALID into their own −32602 message, in the spec's order.
 * Unknown members are ignored.
 */
final class ToolArguments {
    static final int ABSENT = 0;
    static final int PRESENT = 1;
    static final int INVALID = -1;

    /** Largest JSON integer a 64-bit value may be given as: 2^53 − 1 (exact in a double). */
    static final long MAX_JSON_INTEGER = 9_007_199_254_740_991L;
    static final long MAX_U32 = 0xFFFF_FFFFL;
    /** Longest text (agent-abi MAX_TEXT_BYTES). */
    static final int MAX_TEXT_BYTES = 16_384;

    private JsonNode arguments;
    private long value;
    private byte[] text;

    ToolArguments wrap(final JsonNode object) {
        arguments = object;
        return this;
    }

    boolean has(final String name) {
        return arguments.get(name) != null;
    }

    /** The last value read (u64 as its two's-complement bits). */
    long value() {
        return value;
    }

    /** The last text read, strict UTF-8. */
    byte[] text() {
        return text;
    }

    /** u64: a digit string up to 2^64 − 1 (leading zeros allowed) or a JSON integer up to 2^53 − 1. */
    int u64(final String name) {
        final JsonNode node = arguments.get(name);
        if (node == null) {
            return ABSENT;
        }
        if (node.type == JsonNode.Type.STRING) {
            return unsignedDigits(node.text) ? PRESENT : INVALID;
        }
        if (node.type == JsonNode.Type.INTEGER && node.text.charAt(0) != '-' && node.text.length() <= 16) {
            value = Long.parseLong(node.text);
            return value <= MAX_JSON_INTEGER ? PRESENT : INVALID;
        }
        return INVALID;
    }

    /** u32: as u64, at most {@code maximum} (≤ 4,294,967,295). */
    int u32(final String name, final long maximum) {
        final int status = u64(name);
        return status == PRESENT && Long.compareUnsigned(value, maximum) > 0 ? INVALID : status;
    }

    int u32(final String name) {
        return u32(name, MAX_U32);
    }

    /** i32: a JSON integer only, −2^31..2^31 − 1. */
    int i32(final String name) {
        final JsonNode node = arguments.get(name);
        if (node == null) {
            return ABSENT;
        }
        if (node.type != JsonNode.Type.INTEGER || node.text.length() > 11) {
            return INVALID;
        }
        value = Long.parseLong(node.text);
        return value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE ? PRESENT : INVALID;
    }

    /** bool: the literals only (M2); {@link #value()} is 1 for true. */
    int bool(final String name) {
        final JsonNode node = arguments.get(name);
        if (node == null) {
            return ABSENT;
        }
        if (node.type == JsonNode.Type.TRUE || node.type == JsonNode.Type.FALSE) {
            value = node.type == JsonNode.Type.TRUE ? 1 : 0;
            return PRESENT;
        }
        return INVALID;
    }

    /** enum: the exact lower-case string; {@link #value()} is its index in {@code names}. */
    int enumeration(final String name, final String[] names) {
        final JsonNode node = arguments.get(name);
        if (node == null) {
            return ABSENT;
        }
        if (node.type == JsonNode.Type.STRING) {
            for (int i = 0; i < names.length; i++) {
                if (names[i].equals(node.text)) {
                    value = i;
                    return PRESENT;
                }
            }
        }
        return INVALID;
    }

    /** text: a JSON string of 1..16,384 UTF-8 bytes, no U+0000, no lone surrogate. */
    int text(final String name) {
        final JsonNode node = arguments.get(name);
        if (node == null) {
            return ABSENT;
        }
        if (node.type != JsonNode.Type.STRING || !wellFormed(node.text)) {
            return INVALID;
        }
        final byte[] utf8 = node.text.getBytes(StandardCharsets.UTF_8);
        if (utf8.length == 0 || utf8.length > MAX_TEXT_BYTES) {
            return INVALID;
        }
        text = utf8;
        return PRESENT;
    }

    private boolean unsignedDigits(final String s) {
        if (!DecimalU64.valid(s)) {
            return false;
        }
        value = DecimalU64.parse(s);
        return true;
    }

    private static boolean wellFormed(final String s) {
        for (int i = 0; i < s.length(); i++) {
            final char c = s.charAt(i);
            if (c == 0) {
                return false;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 == s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
