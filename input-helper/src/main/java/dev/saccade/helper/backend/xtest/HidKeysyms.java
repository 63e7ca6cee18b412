package dev.saccade.helper.backend.xtest;

/**
 * USB HID keyboard-page (0x07) usages to X keysyms, for exactly the usages spec §5.10 accepts;
 * the current keymap then gives the key code ({@link KeyboardMapping}). Letters map to their
 * lowercase keysym and digits and punctuation to the unshifted symbol, which is what a US key
 * at that position produces; another layout resolves them to whichever key carries the symbol.
 */
final class HidKeysyms {
    private static final int[] KEYSYMS = new int[256];
    /** A second keysym tried when the keymap lacks the first (Right Alt is AltGr in many layouts). */
    private static final int[] FALLBACK = new int[256];

    static {
        for (int i = 0; i < 26; i++) {
            KEYSYMS[0x04 + i] = 'a' + i;                 // a..z
        }
        for (int i = 0; i < 9; i++) {
            KEYSYMS[0x1E + i] = '1' + i;                 // 1..9
        }
        KEYSYMS[0x27] = '0';
        KEYSYMS[0x28] = 0xff0d;                          // Return
        KEYSYMS[0x29] = 0xff1b;                          // Escape
        KEYSYMS[0x2A] = 0xff08;                          // BackSpace
        KEYSYMS[0x2B] = 0xff09;                          // Tab
        KEYSYMS[0x2C] = ' ';                             // space
        KEYSYMS[0x2D] = '-';
        KEYSYMS[0x2E] = '=';
        KEYSYMS[0x2F] = '[';
        KEYSYMS[0x30] = ']';
        KEYSYMS[0x31] = '\\';
        KEYSYMS[0x33] = ';';
        KEYSYMS[0x34] = '\'';
        KEYSYMS[0x35] = '`';
        KEYSYMS[0x36] = ',';
        KEYSYMS[0x37] = '.';
        KEYSYMS[0x38] = '/';
        KEYSYMS[0x39] = 0xffe5;                          // Caps_Lock
        for (int i = 0; i < 12; i++) {
            KEYSYMS[0x3A + i] = 0xffbe + i;              // F1..F12
        }
        KEYSYMS[0x46] = 0xff61;                          // Print
        KEYSYMS[0x47] = 0xff14;                          // Scroll_Lock
        KEYSYMS[0x48] = 0xff13;                          // Pause
        KEYSYMS[0x49] = 0xff63;                          // Insert
        KEYSYMS[0x4A] = 0xff50;                          // Home
        KEYSYMS[0x4B] = 0xff55;                          // Prior (Page Up)
        KEYSYMS[0x4C] = 0xffff;                          // Delete
        KEYSYMS[0x4D] = 0xff57;                          // End
        KEYSYMS[0x4E] = 0xff56;                          // Next (Page Down)
        KEYSYMS[0x4F] = 0xff53;                          // Right
        KEYSYMS[0x50] = 0xff51;                          // Left
        KEYSYMS[0x51] = 0xff54;                          // Down
        KEYSYMS[0x52] = 0xff52;                          // Up
        KEYSYMS[0xE0] = 0xffe3;                          // Control_L
        KEYSYMS[0xE1] = 0xffe1;                          // Shift_L
        KEYSYMS[0xE2] = 0xffe9;                          // Alt_L
        KEYSYMS[0xE3] = 0xffeb;                          // Super_L
        KEYSYMS[0xE4] = 0xffe4;                          // Control_R
        KEYSYMS[0xE5] = 0xffe2;                          // Shift_R
        KEYSYMS[0xE6] = 0xffea;                          // Alt_R
        KEYSYMS[0xE7] = 0xffec;                          // Super_R
        FALLBACK[0xE6] = 0xfe03;                         // ISO_Level3_Shift
        FALLBACK[0xE2] = 0xffe7;                         // Meta_L
    }

    /** HID usages of the modifier bits SHIFT, CONTROL, ALT, META (Left Shift, Control, Alt, GUI). */
    static final int[] MODIFIER_USAGES = {0xE1, 0xE0, 0xE2, 0xE3};

    private HidKeysyms() {
    }

    /** The keysym of an accepted usage, 0 for any other. */
    static int keysym(final int hidUsage) {
        return hidUsage >= 0 && hidUsage < KEYSYMS.length ? KEYSYMS[hidUsage] : 0;
    }

    /** The keysym to try when the keymap lacks {@link #keysym}, 0 if none. */
    static int fallback(final int hidUsage) {
        return hidUsage >= 0 && hidUsage < FALLBACK.length ? FALLBACK[hidUsage] : 0;
    }
}
