package dev.saccade.helper.backend.wayland;

/**
 * USB HID keyboard-page (0x07) usages to XKB key codes (Linux evdev codes + 8), for the usages
 * spec §5.10 accepts. On Wayland a key is a physical position, not a symbol: the keymap we
 * upload decides what it produces, so this table is fixed (linux/input-event-codes.h), while the
 * X11 backend looks keysyms up in the server's mapping.
 */
public final class HidEvdev {
    private static final int[] EVDEV = new int[256];
    /** HID usages of the modifier bits SHIFT, CONTROL, ALT, META (Left Shift, Control, Alt, GUI). */
    public static final int[] MODIFIER_USAGES = {0xE1, 0xE0, 0xE2, 0xE3};

    static {
        // a..z in HID order: KEY_A 30, KEY_B 48, ... (the QWERTY rows of evdev)
        final int[] letters = {30, 48, 46, 32, 18, 33, 34, 35, 23, 36, 37, 38, 50, 49, 24, 25, 16, 19, 31, 20, 22, 47,
            17, 45, 21, 44};
        for (int i = 0; i < 26; i++) {
            EVDEV[0x04 + i] = letters[i];
        }
        for (int i = 0; i < 9; i++) {
            EVDEV[0x1E + i] = 2 + i;                     // 1..9: KEY_1 2 .. KEY_9 10
        }
        EVDEV[0x27] = 11;                                // 0
        EVDEV[0x28] = 28;                                // Enter
        EVDEV[0x29] = 1;                                 // Escape
        EVDEV[0x2A] = 14;                                // Backspace
        EVDEV[0x2B] = 15;                                // Tab
        EVDEV[0x2C] = 57;                                // Space
        EVDEV[0x2D] = 12;                                // -
        EVDEV[0x2E] = 13;                                // =
        EVDEV[0x2F] = 26;                                // [
        EVDEV[0x30] = 27;                                // ]
        EVDEV[0x31] = 43;                                // backslash
        EVDEV[0x33] = 39;                                // ;
        EVDEV[0x34] = 40;                                // '
        EVDEV[0x35] = 41;                                // `
        EVDEV[0x36] = 51;                                // ,
        EVDEV[0x37] = 52;                                // .
        EVDEV[0x38] = 53;                                // /
        EVDEV[0x39] = 58;                                // Caps Lock
        for (int i = 0; i < 10; i++) {
            EVDEV[0x3A + i] = 59 + i;                    // F1..F10
        }
        EVDEV[0x44] = 87;                                // F11
        EVDEV[0x45] = 88;                                // F12
        EVDEV[0x46] = 99;                                // Print (KEY_SYSRQ)
        EVDEV[0x47] = 70;                                // Scroll Lock
        EVDEV[0x48] = 119;                               // Pause
        EVDEV[0x49] = 110;                               // Insert
        EVDEV[0x4A] = 102;                               // Home
        EVDEV[0x4B] = 104;                               // Page Up
        EVDEV[0x4C] = 111;                               // Delete
        EVDEV[0x4D] = 107;                               // End
        EVDEV[0x4E] = 109;                               // Page Down
        EVDEV[0x4F] = 106;                               // Right
        EVDEV[0x50] = 105;                               // Left
        EVDEV[0x51] = 108;                               // Down
        EVDEV[0x52] = 103;                               // Up
        EVDEV[0xE0] = 29;                                // Left Control
        EVDEV[0xE1] = 42;                                // Left Shift
        EVDEV[0xE2] = 56;                                // Left Alt
        EVDEV[0xE3] = 125;                               // Left GUI (Super)
        EVDEV[0xE4] = 97;                                // Right Control
        EVDEV[0xE5] = 54;                                // Right Shift
        EVDEV[0xE6] = 100;                               // Right Alt
        EVDEV[0xE7] = 126;                               // Right GUI
    }

    private HidEvdev() {
    }

    /** The XKB key code of an accepted usage, 0 for any other. */
    public static int keyCode(final int hidUsage) {
        return hidUsage >= 0 && hidUsage < EVDEV.length && EVDEV[hidUsage] != 0 ? EVDEV[hidUsage] + 8 : 0;
    }
}
