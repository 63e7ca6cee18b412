package dev.saccade.atspi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the values of one received message ({@link DBusWire}) from its bytes, refusing what could
 * stall or exhaust the reader: nesting beyond the specification's limit, more than
 * {@link DBusWire#MAX_VALUES} values, and array elements that take no bytes.
 */
final class DBusWireDecoder {
    /** The specification's nesting limit (32 arrays plus 32 structs); deeper is an attack or a bug. */
    private static final int MAX_DEPTH = 64;
    final ByteBuffer buf;
    final int messageStart;
    int pos;
    int depth;
    int values;

    DBusWireDecoder(final ByteBuffer in, final int messageStart, final ByteOrder order) {
        this.buf = in.duplicate().order(order);
        this.messageStart = messageStart;
    }

    void align(final int n) {
        final int offset = pos - messageStart;
        pos += (n - (offset % n)) % n;
    }

    int getInt() {
        align(4);
        final int v = buf.getInt(pos);
        pos += 4;
        return v;
    }

    String string() {
        final int length = getInt();
        final String s = utf8(pos, length);
        pos += length + 1;
        return s;
    }

    String signature() {
        final int length = buf.get(pos) & 0xFF;
        final String s = utf8(pos + 1, length);
        pos += length + 2;
        return s;
    }

    private String utf8(final int at, final int length) {
        if (length < 0 || at + length > buf.limit()) {
            throw new DBusWire.WireException("string beyond the message");
        }
        if (buf.hasArray()) {
            return new String(buf.array(), buf.arrayOffset() + at, length, StandardCharsets.UTF_8);
        }
        final byte[] bytes = new byte[length];
        buf.get(at, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    Object variant() {
        final String sig = signature();
        return value(new DBusWire.Sig(sig));
    }

    Object value(final DBusWire.Sig sig) {
        if (++depth > MAX_DEPTH) {
            throw new DBusWire.WireException("values nested deeper than " + MAX_DEPTH);
        }
        if (++values > DBusWire.MAX_VALUES) {
            throw new DBusWire.WireException("more than " + DBusWire.MAX_VALUES + " values in one message");
        }
        try {
            return valueAt(sig);
        } finally {
            depth--;
        }
    }

    private Object valueAt(final DBusWire.Sig sig) {
        final char c = sig.s.charAt(sig.pos);
        switch (c) {
            case 'y' -> {
                sig.pos++;
                return buf.get(pos++) & 0xFF;
            }
            case 'b' -> {
                sig.pos++;
                return getInt() != 0;
            }
            case 'n' -> {
                sig.pos++;
                align(2);
                final int v = buf.getShort(pos);
                pos += 2;
                return v;
            }
            case 'q' -> {
                sig.pos++;
                align(2);
                final int v = buf.getShort(pos) & 0xFFFF;
                pos += 2;
                return v;
            }
            case 'i', 'h' -> {
                sig.pos++;
                return getInt();
            }
            case 'u' -> {
                sig.pos++;
                return getInt() & 0xFFFF_FFFFL;
            }
            case 'x', 't' -> {
                sig.pos++;
                align(8);
                final long v = buf.getLong(pos);
                pos += 8;
                return v;
            }
            case 'd' -> {
                sig.pos++;
                align(8);
                final double v = buf.getDouble(pos);
                pos += 8;
                return v;
            }
            case 's', 'o' -> {
                sig.pos++;
                return string();
            }
            case 'g' -> {
                sig.pos++;
                return signature();
            }
            case 'v' -> {
                sig.pos++;
                return variant();
            }
            case '(' -> {
                sig.pos++;
                if (sig.s.charAt(sig.pos) == ')') {
                    // The specification forbids empty structs; an array of them would never advance.
                    throw new DBusWire.WireException("empty struct in " + sig.s);
                }
                align(8);
                final List<Object> fields = new ArrayList<>(4);
                while (sig.s.charAt(sig.pos) != ')') {
                    fields.add(value(sig));
                }
                sig.pos++;
                return fields.toArray();
            }
            case 'a' -> {
                return array(sig);
            }
            default -> throw new DBusWire.WireException("cannot decode '" + c + "' in " + sig.s);
        }
    }

    private Object array(final DBusWire.Sig sig) {
        final int elementSig = sig.pos + 1;
        final int after = DBusWire.Sig.skip(sig.s, sig.pos);
        final int length = getInt();
        final char element = sig.s.charAt(elementSig);
        align(element == '{' || element == '(' || element == 'x' || element == 't' || element == 'd' ? 8
            : element == 'n' || element == 'q' ? 2 : element == 'y' || element == 'g' || element == 'v' ? 1 : 4);
        final int end = pos + length;
        if (length < 0 || end > buf.limit()) {
            throw new DBusWire.WireException("array beyond the message");
        }
        final Object result;
        if (element == '{') {
            final Map<Object, Object> map = new LinkedHashMap<>();
            while (pos < end) {
                align(8);
                final int before = pos;
                final DBusWire.Sig entry = new DBusWire.Sig(sig.s);
                entry.pos = elementSig + 1;
                final Object key = value(entry);
                map.put(key, value(entry));
                advanced(before);
            }
            result = map;
        } else {
            final List<Object> items = new ArrayList<>();
            while (pos < end) {
                final int before = pos;
                final DBusWire.Sig cursor = new DBusWire.Sig(sig.s);
                cursor.pos = elementSig;
                items.add(value(cursor));
                advanced(before);
            }
            result = items;
        }
        if (pos != end) {
            throw new DBusWire.WireException("array elements overrun the array's length");
        }
        sig.pos = after;
        return result;
    }

    /** An element that took no bytes would make its array loop forever. */
    private void advanced(final int before) {
        if (pos <= before) {
            throw new DBusWire.WireException("zero-width array element");
        }
    }
}
