package dev.saccade.owner.action;

import dev.saccade.protocol.ActionFlyweight;
import dev.saccade.protocol.ActionKind;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * The payloads of the semantic kinds (§5.8, SET_VALUE and SELECT), read strictly and handed to
 * the semantic invoker: a decimal number in JSON's grammar for SET_VALUE with VALUE_NUMBER, a
 * decimal index for SELECT. Anything else is refused before the application is asked (rule D),
 * so no locale, hexadecimal, NaN or infinity reaches it.
 */
final class SemanticPayload {
    /** At most this many digits in an index: any int fits. */
    private static final int MAX_INDEX_DIGITS = 10;
    /** A number longer than this is no value a control holds. */
    private static final int MAX_NUMBER_BYTES = 64;

    private SemanticPayload() {
    }

    /** The child index in {@code size} bytes at {@code at}, or -1 when they are not 1..10 decimal digits up to Integer.MAX_VALUE. */
    static long index(final BytesStore<?, ?> bytes, final long at, final long size) {
        if (size < 1 || size > MAX_INDEX_DIGITS) {
            return -1;
        }
        long value = 0;
        for (long i = 0; i < size; i++) {
            final int c = bytes.readUnsignedByte(at + i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value <= Integer.MAX_VALUE ? value : -1;
    }

    /**
     * The number in {@code size} bytes at {@code at} ({@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?}),
     * or NaN when they are not one or it is not finite.
     */
    static double number(final BytesStore<?, ?> bytes, final long at, final long size) {
        if (size < 1 || size > MAX_NUMBER_BYTES) {
            return Double.NaN;
        }
        final byte[] text = new byte[(int) size];
        bytes.read(at, text, 0, text.length);
        int i = 0;
        if (text[i] == '-') {
            i++;
        }
        final int intStart = i;
        i = digits(text, i);
        if (i == intStart || (text[intStart] == '0' && i - intStart > 1)) {
            return Double.NaN;
        }
        if (i < text.length && text[i] == '.') {
            final int fraction = ++i;
            i = digits(text, i);
            if (i == fraction) {
                return Double.NaN;
            }
        }
        if (i < text.length && (text[i] == 'e' || text[i] == 'E')) {
            i++;
            if (i < text.length && (text[i] == '+' || text[i] == '-')) {
                i++;
            }
            final int exponent = i;
            i = digits(text, i);
            if (i == exponent) {
                return Double.NaN;
            }
        }
        if (i != text.length) {
            return Double.NaN;
        }
        final double value = Double.parseDouble(new String(text, StandardCharsets.US_ASCII));
        return Double.isFinite(value) ? value : Double.NaN;
    }

    /**
     * SET_VALUE, SELECT or TEXT with FILL (rule H) handed to {@code invoker} with its payload
     * read: the text, the number or the index; allocates the text, as the semantic path may.
     */
    static CompletableFuture<Integer> dispatch(final SemanticInvoker invoker, final boolean number,
        final ActionFlyweight a, final BytesStore<?, ?> req, final long payloadAt, final long deadlineNs) {
        final long size = a.payloadSize();
        if (a.kind() == ActionKind.SELECT) {
            return size == 0 ? invoker.select(a.targetId(), deadlineNs)
                : invoker.selectChild(a.targetId(), (int) index(req, payloadAt, size), deadlineNs);
        }
        if (number) {
            return invoker.setNumber(a.targetId(), number(req, payloadAt, size), deadlineNs);
        }
        final byte[] text = new byte[(int) size];
        req.read(payloadAt, text, 0, text.length);
        final String value = new String(text, StandardCharsets.UTF_8);
        return a.kind() == ActionKind.TEXT ? invoker.fillText(a.targetId(), value, deadlineNs)
            : invoker.setText(a.targetId(), value, deadlineNs);
    }

    private static int digits(final byte[] text, final int from) {
        int i = from;
        while (i < text.length && text[i] >= '0' && text[i] <= '9') {
            i++;
        }
        return i;
    }
}
