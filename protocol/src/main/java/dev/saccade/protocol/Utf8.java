package dev.saccade.protocol;

import net.openhft.chronicle.bytes.BytesStore;

/**
 * Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF, no 5- or
 * 6-byte forms. Filter text and TEXT payloads must pass it (spec §4.3, §5.10).
 */
public final class Utf8 {
    private Utf8() {
    }

    /**
     * The strict UTF-8 of {@code text}, or {@code null} when it is not valid Unicode (a lone
     * surrogate): what a caller writes as filter text or a TEXT payload.
     */
    public static byte[] encodeStrict(final String text) {
        final java.nio.ByteBuffer encoded;
        try {
            encoded = java.nio.charset.StandardCharsets.UTF_8.newEncoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                .encode(java.nio.CharBuffer.wrap(text));
        } catch (final java.nio.charset.CharacterCodingException e) {
            return null;
        }
        final byte[] bytes = new byte[encoded.remaining()];
        encoded.get(bytes);
        return bytes;
    }

    /** Whether {@code length} bytes at {@code at} are strict UTF-8; reads only those bytes. */
    public static boolean isStrict(final BytesStore<?, ?> b, final long at, final long length) {
        final long end = at + length;
        long i = at;
        while (i < end) {
            final int c = b.readUnsignedByte(i);
            if (c < 0x80) {
                i++;
                continue;
            }
            final int continuation;
            int lo = 0x80;
            int hi = 0xBF;
            if (c >= 0xC2 && c <= 0xDF) {
                continuation = 1;
            } else if (c >= 0xE0 && c <= 0xEF) {
                continuation = 2;
                if (c == 0xE0) {
                    lo = 0xA0; // below: overlong
                } else if (c == 0xED) {
                    hi = 0x9F; // above: UTF-16 surrogates
                }
            } else if (c >= 0xF0 && c <= 0xF4) {
                continuation = 3;
                if (c == 0xF0) {
                    lo = 0x90; // below: overlong
                } else if (c == 0xF4) {
                    hi = 0x8F; // above: past U+10FFFF
                }
            } else {
                return false; // stray continuation, overlong lead C0/C1, or F5..FF
            }
            if (end - i <= continuation) {
                return false;
            }
            final int second = b.readUnsignedByte(i + 1);
            if (second < lo || second > hi) {
                return false;
            }
            for (int k = 2; k <= continuation; k++) {
                final int next = b.readUnsignedByte(i + k);
                if (next < 0x80 || next > 0xBF) {
                    return false;
                }
            }
            i += continuation + 1;
        }
        return true;
    }
}
