package dev.saccade.helper.backend;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * What a backend that sees no seat state (Wayland clients) knows of the keyboard: the keys it
 * pressed itself, answered as {@link InputBackend#queryKeymap}'s bit vector, and the strict UTF-8
 * decoding of {@link InputBackend#typeText} into a reused buffer. One thread, the backend's.
 */
public final class OwnKeys {
    /** Key codes 0..255: bit k of the 32-byte vector. */
    public final boolean[] down = new boolean[256];
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    private CharBuffer chars = CharBuffer.allocate(256);

    /** Writes the held keys as 32 bytes, bit k set while key code k is down. */
    public void pack(final byte[] keys32) {
        for (int i = 0; i < 32; i++) {
            int bits = 0;
            for (int b = 0; b < 8; b++) {
                if (down[i * 8 + b]) {
                    bits |= 1 << b;
                }
            }
            keys32[i] = (byte) bits;
        }
    }

    /** The text as chars ready to read, or null when it is not strict UTF-8. */
    public CharBuffer decode(final byte[] utf8, final int offset, final int length) {
        if (chars.capacity() < length) {
            chars = CharBuffer.allocate(length);
        }
        chars.clear();
        decoder.reset();
        try {
            if (decoder.decode(ByteBuffer.wrap(utf8, offset, length), chars, true).isError()
                || decoder.flush(chars).isError()) {
                return null;
            }
        } catch (final IllegalStateException e) {
            return null; // the decoder refused the sequence as a whole
        }
        chars.flip();
        return chars;
    }
}
