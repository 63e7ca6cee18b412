package dev.saccade.jsonrpc;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Builds one compact JSON line in a reusable buffer and writes it to standard output with one
 * write and a flush (mcp.md §1). Written by hand rather than with jackson's generator because the
 * spec fixes the bytes: strings escape {@code \" \\ \b \f \n \r \t}, other bytes below 0x20 as
 * lower-case backslash-u00xx, and pass all other UTF-8 through; the service's target text is
 * copied as the bytes it sent; a lone surrogate in an echoed id stays the escape it came as.
 * Commas are placed by the writer (one flag per open level), so callers only name members.
 */
public final class JsonLineWriter {
    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final int MAX_DEPTH = 16;

    private byte[] buffer = new byte[64 * 1024];
    private int length;
    private final boolean[] needsComma = new boolean[MAX_DEPTH];
    private int depth;

    public JsonLineWriter reset() {
        length = 0;
        depth = 0;
        needsComma[0] = false;
        return this;
    }

    public JsonLineWriter startObject() {
        separate();
        put('{');
        open();
        return this;
    }

    public JsonLineWriter endObject() {
        depth--;
        put('}');
        return this;
    }

    /**
     * Opens again the object that was written last, so more members can follow its own: the
     * members one protocol revision adds to every result written by code shared between
     * revisions (mcp.md §14). The last byte must be that object's closing brace.
     */
    public JsonLineWriter reopenObject() {
        if (length == 0 || buffer[length - 1] != '}') {
            throw new IllegalStateException("the last value written is not an object");
        }
        length--;
        open();
        needsComma[depth] = buffer[length - 1] != '{'; // a member before it needs a comma after it
        return this;
    }

    public JsonLineWriter startArray() {
        separate();
        put('[');
        open();
        return this;
    }

    public JsonLineWriter endArray() {
        depth--;
        put(']');
        return this;
    }

    /** A member's key; the value written next belongs to it. */
    public JsonLineWriter name(final String key) {
        separate();
        string0(key);
        put(':');
        needsComma[depth] = false; // the value follows the colon without a comma
        return this;
    }

    public JsonLineWriter string(final String value) {
        separate();
        string0(value);
        return this;
    }

    /** A string from UTF-8 bytes, passed through with the control bytes escaped. */
    public JsonLineWriter utf8(final BytesStore<?, ?> bytes, final long at, final int size) {
        separate();
        put('"');
        for (int i = 0; i < size; i++) {
            escaped(bytes.readUnsignedByte(at + i));
        }
        put('"');
        return this;
    }

    public JsonLineWriter number(final long value) {
        separate();
        ascii(Long.toString(value));
        return this;
    }

    /** A 64-bit value as its unsigned decimal string (JSON numbers lose precision above 2^53). */
    public JsonLineWriter u64(final long value) {
        separate();
        put('"');
        ascii(Long.toUnsignedString(value));
        put('"');
        return this;
    }

    public JsonLineWriter bool(final boolean value) {
        separate();
        ascii(value ? "true" : "false");
        return this;
    }

    public JsonLineWriter nullValue() {
        separate();
        ascii("null");
        return this;
    }

    /** A value already in JSON form (an echoed number literal or a prepared object). */
    public JsonLineWriter raw(final String json) {
        separate();
        final byte[] bytes = json.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buffer, length, bytes.length);
        length += bytes.length;
        return this;
    }

    /** Ends the line and writes it with one write and a flush. */
    public void writeLine(final OutputStream out) throws IOException {
        put('\n');
        out.write(buffer, 0, length);
        out.flush();
    }

    /** The line so far, as text (tests and logs). */
    @Override
    public String toString() {
        return new String(buffer, 0, length, java.nio.charset.StandardCharsets.UTF_8);
    }

    private void open() {
        depth++;
        needsComma[depth] = false;
    }

    private void separate() {
        if (needsComma[depth]) {
            put(',');
        }
        needsComma[depth] = true;
    }

    private void string0(final String value) {
        put('"');
        final int n = value.length();
        for (int i = 0; i < n; i++) {
            final char c = value.charAt(i);
            if (c < 0x80) {
                escaped(c);
            } else if (c < 0x800) {
                put(0xC0 | (c >> 6));
                put(0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(value.charAt(i + 1))) {
                final int cp = Character.toCodePoint(c, value.charAt(++i));
                put(0xF0 | (cp >> 18));
                put(0x80 | ((cp >> 12) & 0x3F));
                put(0x80 | ((cp >> 6) & 0x3F));
                put(0x80 | (cp & 0x3F));
            } else if (Character.isSurrogate(c)) {
                unicodeEscape(c); // a lone surrogate has no UTF-8 form; keep the escape it arrived as
            } else {
                put(0xE0 | (c >> 12));
                put(0x80 | ((c >> 6) & 0x3F));
                put(0x80 | (c & 0x3F));
            }
        }
        put('"');
    }

    private void escaped(final int b) {
        switch (b) {
            case '"': put('\\'); put('"'); return;
            case '\\': put('\\'); put('\\'); return;
            case '\b': put('\\'); put('b'); return;
            case '\f': put('\\'); put('f'); return;
            case '\n': put('\\'); put('n'); return;
            case '\r': put('\\'); put('r'); return;
            case '\t': put('\\'); put('t'); return;
            default:
                if (b < 0x20) {
                    unicodeEscape(b);
                } else {
                    put(b);
                }
        }
    }

    private void unicodeEscape(final int c) {
        put('\\');
        put('u');
        put(HEX[(c >> 12) & 0xF]);
        put(HEX[(c >> 8) & 0xF]);
        put(HEX[(c >> 4) & 0xF]);
        put(HEX[c & 0xF]);
    }

    private void ascii(final String s) {
        for (int i = 0; i < s.length(); i++) {
            put(s.charAt(i));
        }
    }

    private void put(final int b) {
        ensure(1);
        buffer[length++] = (byte) b;
    }

    private void ensure(final int more) {
        if (length + more > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + more));
        }
    }
}
