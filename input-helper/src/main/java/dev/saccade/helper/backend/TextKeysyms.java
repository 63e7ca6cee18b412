package dev.saccade.helper.backend;

import java.util.function.IntUnaryOperator;

/**
 * The keysym a TEXT action types for a code point, for every backend: the controls TEXT accepts
 * (agent-abi §5.10) become their function keys, the other C0 and C1 controls are not typed, and a
 * printable code point is the backend's own mapping (X11's Latin-1 or Unicode keysyms, XKB's
 * table on Wayland).
 */
public final class TextKeysyms {
    private TextKeysyms() {
    }

    /** The keysym typing {@code codePoint}, 0 for a control character TEXT does not type. */
    public static int of(final int codePoint, final IntUnaryOperator printable) {
        switch (codePoint) {
            case 0x08: return 0xff08;  // BackSpace
            case 0x09: return 0xff09;  // Tab
            case 0x0A:
            case 0x0D: return 0xff0d;  // Return
            case 0x1B: return 0xff1b;  // Escape
            case 0x7F: return 0xffff;  // Delete
            default:
                return codePoint < 0x20 || codePoint >= 0x80 && codePoint < 0xA0 ? 0 : printable.applyAsInt(codePoint);
        }
    }
}
