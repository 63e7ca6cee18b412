package dev.saccade.atspi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The D-Bus wire format (D-Bus specification, "Message Protocol"), as much as the peer-to-peer
 * refresh path needs: method calls out, replies and errors in.
 *
 * <pre>
 * 0      1      2      3      4            8            12               16
 * | endian | type | flags | version | body length | serial | header field array a(yv) ...
 * ... header padded to 8 | body (signature from the SIGNATURE field)
 * </pre>
 *
 * <p>Why our own: dbus-java writes each marshalled fragment with its own {@code write} (about
 * twenty system calls per call) from a sender thread fed one task per message, and decodes by
 * reflection; for the 350 calls of a gtk3-demo refresh that cost more CPU than the application
 * spent answering. Here a whole batch of calls is encoded into one buffer and written at once, and
 * replies are decoded into plain Java values straight from the read buffer.
 *
 * <p>Decoded values: {@code b} Boolean; {@code y n q i} Integer; {@code u x t} Long; {@code d}
 * Double; {@code s o g} String; arrays ArrayList, dictionaries LinkedHashMap; structs Object[];
 * variants their content. Encoded values: numbers as any {@link Number}, arrays as {@code int[]},
 * {@code Object[]} or {@link List}, dictionaries as {@link Map}, structs as {@code Object[]}.
 *
 * <p>Stateless; every method is static.
 */
final class DBusWire {
    static final byte METHOD_CALL = 1;
    static final byte METHOD_RETURN = 2;
    static final byte ERROR = 3;
    static final byte SIGNAL = 4;

    static final int FIELD_PATH = 1;
    static final int FIELD_INTERFACE = 2;
    static final int FIELD_MEMBER = 3;
    static final int FIELD_ERROR_NAME = 4;
    static final int FIELD_REPLY_SERIAL = 5;
    static final int FIELD_DESTINATION = 6;
    static final int FIELD_SIGNATURE = 8;

    /** The fixed part of the header, up to the field array's length. */
    static final int FIXED_HEADER = 16;
    /**
     * Our ceiling on one message: a quarter of the specification's 128 MiB. The largest AT-SPI
     * reply we read (a bulk listing of a big document) is a few MiB; a larger message is an
     * application trying to exhaust the one AT-SPI I/O thread's heap.
     */
    static final int MAX_MESSAGE = 1 << 25;
    /**
     * Most values one message may decode to, across all its arrays: every value costs an object,
     * so a message of empty arrays or bytes cannot make hundreds of MiB of them.
     */
    static final int MAX_VALUES = 1 << 21;

    private DBusWire() {
    }

    /** Thrown on a malformed message or a value that does not fit its signature. */
    static final class WireException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        WireException(final String message) {
            super(message);
        }
    }

    // ================================================================ encoding

    /**
     * Appends one method call (little endian) to {@code out}, growing it as needed, and returns
     * the buffer (a new one if it grew). {@code out} is in write mode; its position is the
     * message's start.
     */
    static ByteBuffer appendCall(
        final ByteBuffer out, final int serial, final String destination, final String path, final String iface,
        final String member, final String signature, final Object[] args) {
        final Encoder e = new Encoder(out);
        final int start = e.buf.position();
        e.putByte((byte) 'l');
        e.putByte(METHOD_CALL);
        e.putByte((byte) 0);
        e.putByte((byte) 1);
        final int bodyLengthAt = e.buf.position();
        e.putInt(0);
        e.putInt(serial);
        final int fieldsLengthAt = e.buf.position();
        e.putInt(0);
        final int fieldsStart = e.buf.position();
        e.field(FIELD_PATH, "o", path);
        if (destination != null) {
            e.field(FIELD_DESTINATION, "s", destination);
        }
        if (iface != null) {
            e.field(FIELD_INTERFACE, "s", iface);
        }
        e.field(FIELD_MEMBER, "s", member);
        final boolean hasBody = signature != null && !signature.isEmpty();
        if (hasBody) {
            e.field(FIELD_SIGNATURE, "g", signature);
        }
        e.buf.putInt(fieldsLengthAt, e.buf.position() - fieldsStart);
        e.align(8);
        final int bodyStart = e.buf.position();
        if (hasBody) {
            final Sig sig = new Sig(signature);
            for (final Object arg : args) {
                e.value(sig, arg, bodyStart);
            }
            if (sig.pos != signature.length()) {
                throw new WireException("fewer arguments than signature " + signature);
            }
        }
        e.buf.putInt(bodyLengthAt, e.buf.position() - bodyStart);
        // No padding after the body: the next message follows at once, and each message aligns
        // relative to its own start.
        return e.buf;
    }

    /** Signature cursor. */
    static final class Sig {
        final String s;
        int pos;

        Sig(final String s) {
            this.s = s;
        }

        /** Skips one complete type from {@code from}; returns the index after it. */
        static int skip(final String s, final int from) {
            final char c = s.charAt(from);
            if (c == 'a') {
                return skip(s, from + 1);
            }
            if (c == '(' || c == '{') {
                final char close = c == '(' ? ')' : '}';
                int i = from + 1;
                while (s.charAt(i) != close) {
                    i = skip(s, i);
                }
                return i + 1;
            }
            return from + 1;
        }
    }

    private static final class Encoder {
        ByteBuffer buf;
        /** Alignment is relative to the message start. */
        final int messageStart;

        Encoder(final ByteBuffer out) {
            buf = out.order(ByteOrder.LITTLE_ENDIAN);
            messageStart = out.position();
        }

        void ensure(final int bytes) {
            if (buf.remaining() < bytes) {
                final ByteBuffer bigger = ByteBuffer.allocate(Math.max(buf.capacity() * 2, buf.position() + bytes + 256))
                    .order(ByteOrder.LITTLE_ENDIAN);
                buf.flip();
                bigger.put(buf);
                buf = bigger;
            }
        }

        void align(final int n) {
            final int pad = (n - ((buf.position() - messageStart) % n)) % n;
            ensure(pad);
            for (int i = 0; i < pad; i++) {
                buf.put((byte) 0);
            }
        }

        void putByte(final byte b) {
            ensure(1);
            buf.put(b);
        }

        void putInt(final int v) {
            align(4);
            ensure(4);
            buf.putInt(v);
        }

        void putLong(final long v) {
            align(8);
            ensure(8);
            buf.putLong(v);
        }

        void putString(final String s) {
            final byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
            putInt(bytes.length);
            ensure(bytes.length + 1);
            buf.put(bytes);
            buf.put((byte) 0);
        }

        void putSignature(final String s) {
            final byte[] bytes = s.getBytes(StandardCharsets.US_ASCII);
            ensure(bytes.length + 2);
            buf.put((byte) bytes.length);
            buf.put(bytes);
            buf.put((byte) 0);
        }

        /** A header field: (code, variant). */
        void field(final int code, final String sig, final String value) {
            align(8);
            putByte((byte) code);
            putSignature(sig);
            if (sig.equals("g")) {
                putSignature(value);
            } else {
                putString(value);
            }
        }

        void value(final Sig sig, final Object v, final int bodyStart) {
            final char c = sig.s.charAt(sig.pos);
            switch (c) {
                case 'y' -> {
                    sig.pos++;
                    putByte(((Number) v).byteValue());
                }
                case 'b' -> {
                    sig.pos++;
                    putInt(Boolean.TRUE.equals(v) ? 1 : 0);
                }
                case 'n', 'q' -> {
                    sig.pos++;
                    align(2);
                    ensure(2);
                    buf.putShort(((Number) v).shortValue());
                }
                case 'i', 'u', 'h' -> {
                    sig.pos++;
                    putInt((int) ((Number) v).longValue());
                }
                case 'x', 't' -> {
                    sig.pos++;
                    putLong(((Number) v).longValue());
                }
                case 'd' -> {
                    sig.pos++;
                    align(8);
                    ensure(8);
                    buf.putDouble(((Number) v).doubleValue());
                }
                case 's', 'o' -> {
                    sig.pos++;
                    putString(String.valueOf(v));
                }
                case 'g' -> {
                    sig.pos++;
                    putSignature(String.valueOf(v));
                }
                case 'a' -> array(sig, v, bodyStart);
                case '(' -> {
                    sig.pos++;
                    if (sig.s.charAt(sig.pos) == ')') {
                        // The specification forbids empty structs; an array of them would never advance.
                        throw new WireException("empty struct in " + sig.s);
                    }
                    align(8);
                    final Object[] fields = (Object[]) v;
                    for (final Object f : fields) {
                        value(sig, f, bodyStart);
                    }
                    if (sig.s.charAt(sig.pos) != ')') {
                        throw new WireException("struct arity mismatch in " + sig.s);
                    }
                    sig.pos++;
                }
                default -> throw new WireException("cannot encode '" + c + "' in " + sig.s);
            }
        }

        private void array(final Sig sig, final Object v, final int bodyStart) {
            final int elementSig = sig.pos + 1;
            final int after = Sig.skip(sig.s, sig.pos);
            putInt(0);
            final int lengthAt = buf.position() - 4;
            final char element = sig.s.charAt(elementSig);
            align(element == '{' || element == '(' || element == 'x' || element == 't' || element == 'd' ? 8
                : element == 'n' || element == 'q' ? 2 : element == 'y' || element == 'g' || element == 'v' ? 1 : 4);
            final int contentStart = buf.position();
            if (element == '{') {
                final Map<?, ?> map = (Map<?, ?>) v;
                for (final Map.Entry<?, ?> entry : map.entrySet()) {
                    align(8);
                    final Sig keySig = new Sig(sig.s);
                    keySig.pos = elementSig + 1;
                    value(keySig, entry.getKey(), bodyStart);
                    value(keySig, entry.getValue(), bodyStart);
                }
            } else {
                final List<?> items = items(v);
                for (final Object item : items) {
                    final Sig elementCursor = new Sig(sig.s);
                    elementCursor.pos = elementSig;
                    value(elementCursor, item, bodyStart);
                }
            }
            buf.putInt(lengthAt, buf.position() - contentStart);
            sig.pos = after;
        }

        private static List<?> items(final Object v) {
            if (v instanceof List<?> l) {
                return l;
            }
            if (v instanceof int[] ints) {
                final List<Integer> l = new ArrayList<>(ints.length);
                for (final int i : ints) {
                    l.add(i);
                }
                return l;
            }
            if (v instanceof Object[] objects) {
                return List.of(objects);
            }
            throw new WireException("not an array: " + v);
        }
    }

    // ================================================================ decoding

    /** One received message: the header fields we use and the decoded body. */
    static final class Message {
        byte type;
        int serial;
        int replySerial;
        String errorName;
        String signature = "";
        Object[] body;
    }

    /**
     * The total length of the message at {@code in}'s position, or -1 if fewer than
     * {@link #FIXED_HEADER} bytes are there yet.
     */
    static int messageLength(final ByteBuffer in) {
        if (in.remaining() < FIXED_HEADER) {
            return -1;
        }
        final int p = in.position();
        final ByteOrder order = in.get(p) == 'B' ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        final ByteOrder saved = in.order();
        in.order(order);
        final long bodyLength = in.getInt(p + 4) & 0xFFFF_FFFFL;
        final long fieldsLength = in.getInt(p + 12) & 0xFFFF_FFFFL;
        in.order(saved);
        final long headerLength = FIXED_HEADER + fieldsLength;
        final long total = ((headerLength + 7) & ~7L) + bodyLength;
        if (total > MAX_MESSAGE) {
            throw new WireException("message of " + total + " bytes");
        }
        return (int) total;
    }

    /**
     * Decodes the complete message at {@code in}'s position (length from {@link #messageLength}).
     *
     * @throws WireException on any malformed message: a hostile peer gets a typed failure, never
     *     an index or cast exception, a loop or an unbounded allocation.
     */
    static Message decode(final ByteBuffer in, final int length) {
        if (length < FIXED_HEADER || length > MAX_MESSAGE || length > in.limit() - in.position()) {
            throw new WireException("message length " + length + " outside the buffer or the ceiling");
        }
        try {
            return decodeChecked(in, length);
        } catch (final IndexOutOfBoundsException | ClassCastException | NullPointerException
            | IllegalArgumentException e) {
            throw new WireException("malformed message: " + e);
        }
    }

    private static Message decodeChecked(final ByteBuffer in, final int length) {
        final int start = in.position();
        final DBusWireDecoder d = new DBusWireDecoder(in, start, in.get(start) == 'B' ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        final Message m = new Message();
        m.type = in.get(start + 1);
        final int bodyLength = d.buf.getInt(start + 4);
        m.serial = d.buf.getInt(start + 8);
        final int fieldsLength = d.buf.getInt(start + 12);
        d.pos = start + FIXED_HEADER;
        if (fieldsLength < 0 || bodyLength < 0 || fieldsLength > length - FIXED_HEADER) {
            throw new WireException("header fields of " + fieldsLength + " bytes in a message of " + length);
        }
        d.buf.limit(start + length);
        final int fieldsEnd = d.pos + fieldsLength;
        while (d.pos < fieldsEnd) {
            d.align(8);
            final int code = d.buf.get(d.pos++) & 0xFF;
            final Object value = d.variant();
            switch (code) {
                case FIELD_ERROR_NAME -> m.errorName = (String) value;
                case FIELD_REPLY_SERIAL -> m.replySerial = (int) ((Long) value).longValue();
                case FIELD_SIGNATURE -> m.signature = (String) value;
                default -> {
                }
            }
        }
        d.pos = fieldsEnd;
        d.align(8);
        final int bodyStart = d.pos;
        if (bodyStart + bodyLength != start + length) {
            throw new WireException("body length " + bodyLength + " does not fit message length " + length);
        }
        if (m.type == METHOD_RETURN || m.type == ERROR) {
            final List<Object> values = new ArrayList<>(2);
            final Sig sig = new Sig(m.signature);
            while (sig.pos < m.signature.length()) {
                values.add(d.value(sig));
            }
            m.body = values.toArray();
        }
        return m;
    }
}
