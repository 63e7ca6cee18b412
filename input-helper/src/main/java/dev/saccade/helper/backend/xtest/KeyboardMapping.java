package dev.saccade.helper.backend.xtest;

import com.sun.jna.Pointer;
import dev.saccade.protocol.ResultCode;
import dev.saccade.x11.Xlib;
import java.util.Arrays;

/**
 * A snapshot of the server's core keyboard mapping (XGetKeyboardMapping) with a keysym to key code
 * lookup. Our own lookup instead of XKeysymToKeycode: Xlib's cached map goes stale unless
 * mapping events are processed, and we need the level (plain or Shift) and the empty key codes
 * too. {@link #ensureFresh} reads it again before every use.
 *
 * <p>The lookup table holds levels 0 and 1 (plain, Shift) of the active XKB group, level-major
 * like XKeysymToKeycode: a keysym's lowest level wins, then its lowest key code. The group is read
 * (XkbGetState) at every {@link #ensureFresh}: with "us,ru" in its Russian group,
 * the key that carries 'a' in group 1 types 'ф'. XKB's core mapping puts group 1 in columns 0
 * and 1 and group 2 in columns 2 and 3 (a key with one group repeats it there, checked with
 * {@code xmodmap -pke}); groups 3 and 4 have no fixed columns, so under them the table is empty
 * and every character goes through a binding, which a one-group key types in any group. Open
 * addressing over two int arrays; keysyms fit in 29 bits. One thread.
 */
final class KeyboardMapping {
    /** Packed lookup result: key code in bits 0..7, level in bits 8..15. */
    static final int LEVEL_SHIFT = 8;
    static final int NOT_FOUND = -1;

    private static final int TABLE_SIZE = 4096;
    private static final int TABLE_MASK = TABLE_SIZE - 1;

    private final long display;
    private final int[] tableKeys = new int[TABLE_SIZE];
    private final int[] tableValues = new int[TABLE_SIZE];
    private final int[] out1 = new int[1];
    private final int[] out2 = new int[1];
    private int minKeyCode;
    private int maxKeyCode;
    private int perKeyCode;
    private long[] keysyms = new long[256 * 8];
    /** The effective XKB group the table was built for. */
    private int group;
    private final byte[] xkbState = new byte[32];

    KeyboardMapping(final long display) {
        this.display = display;
    }

    /**
     * Reads the mapping and the active group again, before every text and key: never a cached
     * key code. Xlib handles XKB's keymap events itself and need not hand us a MappingNotify for
     * a keymap that setxkbmap or another client replaced, so staleness cannot be told from
     * events; reading again is two round trips (about 0.2 ms) and cannot be wrong.
     */
    int ensureFresh() {
        group = Xlib.X11.XkbGetState(display, Xlib.XKB_USE_CORE_KBD, xkbState) == 0 ? xkbState[0] & 3 : 0;
        return refresh();
    }

    /** The XKB group the lookup follows (0..3). */
    int group() {
        return group;
    }

    /** Reads the whole core mapping from the server and rebuilds the lookup. */
    int refresh() {
        Xlib.X11.XDisplayKeycodes(display, out1, out2);
        final int min = out1[0];
        final int max = out2[0];
        if (min < 8 || max > 255 || max < min) {
            return ResultCode.PLATFORM_BACKEND;
        }
        final int count = max - min + 1;
        final long map = Xlib.X11.XGetKeyboardMapping(display, (byte) min, count, out1);
        if (map == 0) {
            return ResultCode.PLATFORM_BACKEND;
        }
        try {
            final int per = out1[0];
            if (per < 1 || per > 64) {
                return ResultCode.PLATFORM_BACKEND;
            }
            if (keysyms.length < 256 * per) {
                keysyms = new long[256 * per];
            }
            Arrays.fill(keysyms, 0);
            new Pointer(map).read(0, keysyms, min * per, count * per);
            minKeyCode = min;
            maxKeyCode = max;
            perKeyCode = per;
        } finally {
            Xlib.X11.XFree(map);
        }
        rebuild();
        return ResultCode.PLATFORM_OK;
    }

    /** The lookup for the snapshot's columns of {@link #group}; empty for groups 3 and 4. */
    private void rebuild() {
        Arrays.fill(tableKeys, 0);
        if (group > 1) {
            return;
        }
        for (int level = 0; level < 2; level++) {
            final int column = 2 * group + level;
            for (int keyCode = minKeyCode; keyCode <= maxKeyCode && column < perKeyCode; keyCode++) {
                final long keysym = keysymAt(keyCode, column);
                if (keysym != 0 && keysym <= Integer.MAX_VALUE) {
                    insertIfAbsent((int) keysym, keyCode | level << LEVEL_SHIFT);
                }
            }
        }
    }

    /** The key code and level (packed) that types {@code keysym} with no modifier or Shift, or NOT_FOUND. */
    int lookup(final int keysym) {
        if (keysym == 0) {
            return NOT_FOUND;
        }
        int i = hash(keysym);
        while (true) {
            final int k = tableKeys[i];
            if (k == keysym) {
                return tableValues[i];
            }
            if (k == 0) {
                return NOT_FOUND;
            }
            i = (i + 1) & TABLE_MASK;
        }
    }

    /**
     * The key code that types {@code keysym} with no modifier in the active group (for keys
     * pressed by usage), or NOT_FOUND: a key that has it only with Shift or AltGr would type
     * another symbol pressed alone ('1' is Shift+'&' on AZERTY).
     */
    int plainKeyCode(final int keysym) {
        final int packed = lookup(keysym);
        return packed != NOT_FOUND && packed >>> LEVEL_SHIFT == 0 ? packed & 0xFF : NOT_FOUND;
    }

    /** Whether a key code carries no symbol at all in the snapshot (a spare for typing). */
    boolean isEmpty(final int keyCode) {
        if (keyCode < minKeyCode || keyCode > maxKeyCode) {
            return false;
        }
        for (int level = 0; level < perKeyCode; level++) {
            if (keysymAt(keyCode, level) != 0) {
                return false;
            }
        }
        return true;
    }

    long keysymAt(final int keyCode, final int level) {
        return keysyms[keyCode * perKeyCode + level];
    }

    int minKeyCode() {
        return minKeyCode;
    }

    int maxKeyCode() {
        return maxKeyCode;
    }

    int keysymsPerKeyCode() {
        return perKeyCode;
    }

    private void insertIfAbsent(final int keysym, final int value) {
        int i = hash(keysym);
        while (tableKeys[i] != 0) {
            if (tableKeys[i] == keysym) {
                return;
            }
            i = (i + 1) & TABLE_MASK;
        }
        tableKeys[i] = keysym;
        tableValues[i] = value;
    }

    private static int hash(final int keysym) {
        return (keysym * 0x9E3779B9) >>> 20 & TABLE_MASK;
    }
}
