package dev.saccade.helper.backend.xtest;

import dev.saccade.helper.backend.HeldInputRecorder;
import dev.saccade.helper.backend.TextKeysyms;
import dev.saccade.protocol.ResultCode;
import dev.saccade.x11.Xlib;
import java.util.concurrent.locks.LockSupport;

/**
 * Types UTF-8 text through XTest: each character as a press and release of the key that carries
 * its keysym at level 0 (or level 1 with Shift held), and characters the keymap lacks through a
 * spare key code (one with no symbols) bound to the keysym with XChangeKeyboardMapping, as
 * xdotool does.
 *
 * <h2>Why bindings are restored late</h2>
 * A client translates a key event with the keymap it fetches when it processes the event (GTK
 * refetches lazily after the MappingNotify), not the keymap of when the server sent it. Restoring
 * or rebinding a spare key code right after the key events would race with the client and type
 * the wrong character or none (xdotool covers this with a 12 ms delay per character). So each
 * distinct missing character gets its own spare key code for the whole text; a binding is
 * undone only once unused for the grace period ({@link #restore}); and only when a text needs
 * more distinct missing characters than there are spare key codes is a binding reused, after
 * waiting out its grace period (pacing, not synchronisation: the client's progress cannot be
 * observed), beating the helper's heartbeat meanwhile. Bindings are the pair (keysym, keysym), so the character comes with or without Shift.
 *
 * <p>Keysyms: Latin-1 characters are their own keysym, others 0x01000000 + code point; tab,
 * newline, carriage return, backspace, escape and delete are their function keys. A character
 * reachable only as a legacy keysym (e.g. the keymap's EuroSign 0x20ac) is typed via a binding.
 * Caps Lock's state is not compensated.
 *
 * <h2>A Shift someone else holds</h2>
 * While the user (or another client) holds Shift, pressing or releasing Shift ourselves would let
 * go of theirs (the X server keeps one state per key code) and every first-level character would
 * come out shifted. So then no Shift of ours goes out: a second-level character is its key under
 * their Shift, and a first-level one goes through a binding, whose (keysym, keysym) pair types it
 * with Shift down too (D24). One thread, the backend's.
 */
final class TextTyper {
    private static final int SHIFT_L = 0xffe1;
    private static final int NO_KEY = -1;
    private static final long BEAT_NS = 100_000_000L;
    /** Between binding a text's first-level characters under someone else's Shift and its first key (D24). */
    private static final long BIND_SETTLE_NS = 50_000_000L;
    /**
     * Spare key codes never taken while one of ours can be reused: other clients bind one for
     * typing too (xdotool type failed with BadValue when a Russian-layout text had taken every
     * spare key code for its grace period).
     */
    static final int RESERVED_SPARES = 2;

    private final long display;
    private final int trapSlot;
    private final KeyboardMapping mapping;
    private final long graceNs;
    /**
     * Run while waiting out a grace period to rebind: a text under a layout without Latin letters
     * ("ru") needs more bindings than there are spare key codes and waits many times, seconds in
     * all, and the owner must not take the helper for hung meanwhile. (Rebinding after 250 ms
     * instead garbled brackets under load: "€[]{}" arrived as "€[é₤}".)
     */
    private Runnable beat = () -> { };
    /** The keysym we bound to each key code, 0 for none. */
    private final int[] boundKeysym = new int[256];
    private final long[] lastUseNs = new long[256];
    /** Key codes pressed during the current call: their releases are recorded after the flush. */
    private final long[] pressed = new long[4];
    /** Key codes restored by the current {@link #restore} call. */
    private final long[] restoredSet = new long[4];
    private final long[] bindPair = new long[2];
    private final long[] noSymbol = new long[1];
    private int boundCount;
    /** Shift is down by other input for the current plan ({@link #othersHoldShift}). */
    private boolean othersShift;

    TextTyper(final long display, final int trapSlot, final KeyboardMapping mapping, final long graceNs) {
        this.display = display;
        this.trapSlot = trapSlot;
        this.mapping = mapping;
        this.graceNs = graceNs;
    }

    int type(final byte[] utf8, final int offset, final int length, final HeldInputRecorder recorder) {
        if (offset < 0 || length < 0 || offset > utf8.length - length) {
            return ResultCode.PLATFORM_INVALID_ARGUMENT;
        }
        final int end = offset + length;
        // Pass 1: refuse the whole text before any event.
        for (int i = offset; i < end; ) {
            final int size = sequenceLength(utf8, i, end);
            if (size <= 0 || keysymOf(codePoint(utf8, i, size)) == 0) {
                return ResultCode.PLATFORM_UNSUPPORTED;
            }
            i += size;
        }
        int rc = mapping.ensureFresh();
        if (rc != ResultCode.PLATFORM_OK) {
            return rc;
        }
        forgetReplaced(recorder);
        final int shiftPacked = mapping.lookup(SHIFT_L);
        final int shiftKeyCode = shiftPacked == KeyboardMapping.NOT_FOUND ? NO_KEY : shiftPacked & 0xFF;
        long nowNs = System.nanoTime();
        if (othersShift) {
            rc = bindFirstLevel(utf8, offset, end, nowNs, recorder);
            if (rc != ResultCode.PLATFORM_OK) {
                return rc;
            }
        }
        pressed[0] = pressed[1] = pressed[2] = pressed[3] = 0;
        boolean shiftDown = false;
        rc = ResultCode.PLATFORM_OK;
        for (int i = offset; i < end && rc == ResultCode.PLATFORM_OK; ) {
            final int size = sequenceLength(utf8, i, end);
            final int codePoint = codePoint(utf8, i, size);
            i += size;
            if (codePoint == '\r' && i < end && utf8[i] == '\n') {
                i++; // CR LF is one Return
            }
            final int keysym = keysymOf(codePoint);
            int keyCode;
            int level = 0;
            final int packed = mapping.lookup(keysym);
            if (typesAsMapped(packed, shiftKeyCode)) {
                keyCode = packed & 0xFF;
                level = packed >>> KeyboardMapping.LEVEL_SHIFT;
            } else {
                keyCode = boundKeyCodeOf(keysym);
                if (keyCode == NO_KEY) {
                    keyCode = bind(keysym, nowNs, recorder);
                    if (keyCode < 0) {
                        rc = keyCode;
                        break;
                    }
                    nowNs = System.nanoTime();
                }
                lastUseNs[keyCode] = nowNs;
            }
            if (level == 1 && !shiftDown && !othersShift) { // under their Shift, ours never goes down
                rc = press(shiftKeyCode, true, recorder);
                shiftDown = true;
            } else if (level == 0 && shiftDown) {
                rc = press(shiftKeyCode, false, recorder);
                shiftDown = false;
            }
            if (rc == ResultCode.PLATFORM_OK) {
                rc = press(keyCode, true, recorder);
            }
            if (rc == ResultCode.PLATFORM_OK) {
                rc = press(keyCode, false, recorder);
            }
        }
        if (shiftDown) {
            final int up = press(shiftKeyCode, false, recorder);
            rc = rc == ResultCode.PLATFORM_OK ? up : rc;
        }
        Xlib.X11.XFlush(display);
        markUsed(System.nanoTime()); // the grace period runs from when the events left
        if (rc == ResultCode.PLATFORM_OK && !XErrorTrap.isLost(trapSlot)) {
            recordReleases(recorder); // else the recorder keeps them: releasing them again is harmless
        }
        return XErrorTrap.isLost(trapSlot) ? ResultCode.PLATFORM_BACKEND : rc;
    }

    /**
     * Undoes bindings unused for the grace period (all if {@code force}).
     *
     * @return bindings left.
     */
    int restore(final long nowNs, final boolean force, final HeldInputRecorder recorder) {
        if (boundCount == 0) {
            return 0;
        }
        boolean due = force;
        for (int keyCode = 0; keyCode < boundKeysym.length && !due; keyCode++) {
            due = boundKeysym[keyCode] != 0 && nowNs - lastUseNs[keyCode] >= graceNs;
        }
        if (!due) {
            return boundCount;
        }
        if (mapping.refresh() != ResultCode.PLATFORM_OK) {
            return ResultCode.PLATFORM_BACKEND;
        }
        forgetReplaced(recorder);
        int restored = 0;
        for (int keyCode = 0; keyCode < boundKeysym.length; keyCode++) {
            if (boundKeysym[keyCode] != 0 && (force || nowNs - lastUseNs[keyCode] >= graceNs)) {
                Xlib.X11.XChangeKeyboardMapping(display, keyCode, 1, noSymbol, 1);
                boundKeysym[keyCode] = 0;
                boundCount--;
                restored++;
                restoredSet[keyCode >>> 6] |= 1L << (keyCode & 63);
            }
        }
        if (restored > 0) {
            Xlib.X11.XFlush(display);
            final boolean sent = !XErrorTrap.isLost(trapSlot);
            for (int word = 0; word < 4; word++) {
                long bits = restoredSet[word];
                while (sent && bits != 0) {
                    recorder.keyCodeRestored(word * 64 + Long.numberOfTrailingZeros(bits));
                    bits &= bits - 1;
                }
                restoredSet[word] = 0;
            }
            if (!sent) {
                return ResultCode.PLATFORM_BACKEND;
            }
        }
        return boundCount;
    }

    /**
     * Resets a key code to no symbols, if it is empty already or carries the (keysym, keysym)
     * pair our bindings use; PLATFORM_STATE for a key code that looks like a real key.
     */
    int unbind(final int keyCode) {
        if (keyCode < mapping.minKeyCode() || keyCode > mapping.maxKeyCode()) {
            return ResultCode.PLATFORM_INVALID_ARGUMENT;
        }
        if (boundKeysym[keyCode] == 0) {
            final int rc = mapping.refresh();
            if (rc != ResultCode.PLATFORM_OK) {
                return rc;
            }
            final long first = mapping.keysymAt(keyCode, 0);
            final boolean ours = mapping.keysymsPerKeyCode() >= 2 && first != 0 && mapping.keysymAt(keyCode, 1) == first;
            if (!ours && !mapping.isEmpty(keyCode)) {
                return ResultCode.PLATFORM_STATE;
            }
        } else {
            boundKeysym[keyCode] = 0;
            boundCount--;
        }
        Xlib.X11.XChangeKeyboardMapping(display, keyCode, 1, noSymbol, 1);
        return ResultCode.PLATFORM_OK;
    }

    /**
     * A key code that types {@code keysym} pressed alone, for a key by usage the active group
     * lacks (ctrl+a under a Russian layout, '1' under AZERTY): the binding this typer has for it,
     * or a new one; a one-group key types its symbol in every group. Undone like typing's.
     *
     * @return the key code, or a negative platform code.
     */
    int keyCodeFor(final int keysym, final HeldInputRecorder recorder) {
        forgetReplaced(recorder); // the caller read the mapping just now
        int keyCode = boundKeyCodeOf(keysym);
        final long nowNs = System.nanoTime();
        if (keyCode == NO_KEY) {
            keyCode = bind(keysym, nowNs, recorder);
            if (keyCode < 0) {
                return keyCode;
            }
        }
        lastUseNs[keyCode] = nowNs;
        return keyCode;
    }

    /**
     * Forgets the bindings the server's mapping (read just now) no longer holds: a layout loaded
     * with setxkbmap replaces the whole keymap, ours included, and a key code we still took for
     * bound then types nothing (measured: the first text after a layout switch lost every
     * character bound before it), while restoring it would wipe a key of the new layout.
     */
    private void forgetReplaced(final HeldInputRecorder recorder) {
        if (boundCount == 0) {
            return;
        }
        for (int keyCode = mapping.minKeyCode(); keyCode <= mapping.maxKeyCode(); keyCode++) {
            if (boundKeysym[keyCode] != 0 && mapping.keysymAt(keyCode, 0) != boundKeysym[keyCode]) {
                boundKeysym[keyCode] = 0;
                boundCount--;
                recorder.keyCodeRestored(keyCode); // not ours any more: never reset it
            }
        }
    }

    /**
     * Under someone else's Shift, binds every first-level character of the text before any key
     * event, while spare key codes last: a binding made after the first of our key events that
     * followed their key (the X server's keyboard switching from their device to XTEST's) was
     * lost to GTK (UserHeldModifierDesktopTest: "cD1!e[" arrived as "cD!").
     */
    private int bindFirstLevel(final byte[] utf8, final int offset, final int end, final long nowNs,
        final HeldInputRecorder recorder) {
        boolean bound = false;
        for (int i = offset; i < end; ) {
            final int size = sequenceLength(utf8, i, end);
            final int keysym = keysymOf(codePoint(utf8, i, size));
            i += size;
            if (typesAsMapped(mapping.lookup(keysym), NO_KEY) || boundKeyCodeOf(keysym) != NO_KEY) {
                continue;
            }
            if (freeSpares() <= RESERVED_SPARES) {
                break; // the rest binds as it types, reusing ours
            }
            final int keyCode = bind(keysym, nowNs, recorder);
            if (keyCode < 0) {
                return keyCode;
            }
            lastUseNs[keyCode] = nowNs;
            bound = true;
        }
        Xlib.X11.XSync(display, 0);
        if (bound) {
            // Pacing, not synchronisation (GTK's keymap update cannot be observed): with the key
            // events right behind the bindings, a loaded machine lost every bound character in 2
            // of 10 runs ("cD1!e[" arrived as "D!").
            LockSupport.parkNanos(BIND_SETTLE_NS);
        }
        return ResultCode.PLATFORM_OK;
    }

    /**
     * Whether the keymap's own key for a keysym ({@code packed}, from {@link KeyboardMapping#lookup})
     * types it: not one of our bindings, and at a level we can reach: the first without Shift,
     * the second with ours ({@code shiftKeyCode}), or under someone else's Shift only the second.
     */
    private boolean typesAsMapped(final int packed, final int shiftKeyCode) {
        if (packed == KeyboardMapping.NOT_FOUND || boundKeysym[packed & 0xFF] != 0) {
            return false;
        }
        final int level = packed >>> KeyboardMapping.LEVEL_SHIFT;
        return othersShift ? level == 1 : level == 0 || shiftKeyCode != NO_KEY;
    }

    private int freeSpares() {
        int free = 0;
        for (int k = mapping.maxKeyCode(); k >= mapping.minKeyCode(); k--) {
            if (boundKeysym[k] == 0 && mapping.isEmpty(k)) {
                free++;
            }
        }
        return free;
    }

    /** Whether other input holds Shift as the current plan starts (D24); false by default. */
    void othersHoldShift(final boolean held) {
        othersShift = held;
    }

    /** Run while waiting to rebind: the helper's heartbeat. */
    void beat(final Runnable beat) {
        this.beat = beat;
    }

    int boundCount() {
        return boundCount;
    }

    /** The keysym typing {@code codePoint}, 0 for a control character we do not type. */
    static int keysymOf(final int codePoint) {
        return TextKeysyms.of(codePoint, TextTyper::latin1OrUnicode);
    }

    /** X11's keysym of a printable code point: Latin-1 as itself, the rest as a Unicode keysym. */
    private static int latin1OrUnicode(final int codePoint) {
        return codePoint <= 0xFF ? codePoint : 0x01000000 | codePoint;
    }

    /** Length of the strict UTF-8 sequence at {@code i} (1..4), or 0 if malformed (spec §5.10). */
    static int sequenceLength(final byte[] b, final int i, final int end) {
        final int c = b[i] & 0xFF;
        if (c < 0x80) {
            return 1;
        }
        final int size;
        int lo = 0x80;
        int hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) {
            size = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            size = 3;
            if (c == 0xE0) {
                lo = 0xA0;
            } else if (c == 0xED) {
                hi = 0x9F;
            }
        } else if (c >= 0xF0 && c <= 0xF4) {
            size = 4;
            if (c == 0xF0) {
                lo = 0x90;
            } else if (c == 0xF4) {
                hi = 0x8F;
            }
        } else {
            return 0;
        }
        if (end - i < size) {
            return 0;
        }
        final int second = b[i + 1] & 0xFF;
        if (second < lo || second > hi) {
            return 0;
        }
        for (int k = 2; k < size; k++) {
            final int next = b[i + k] & 0xFF;
            if (next < 0x80 || next > 0xBF) {
                return 0;
            }
        }
        return size;
    }

    static int codePoint(final byte[] b, final int i, final int size) {
        switch (size) {
            case 1: return b[i] & 0x7F;
            case 2: return (b[i] & 0x1F) << 6 | b[i + 1] & 0x3F;
            case 3: return (b[i] & 0x0F) << 12 | (b[i + 1] & 0x3F) << 6 | b[i + 2] & 0x3F;
            default: return (b[i] & 0x07) << 18 | (b[i + 1] & 0x3F) << 12 | (b[i + 2] & 0x3F) << 6 | b[i + 3] & 0x3F;
        }
    }

    private int press(final int keyCode, final boolean down, final HeldInputRecorder recorder) {
        if (down) {
            recorder.keyDown(keyCode);
            pressed[keyCode >>> 6] |= 1L << (keyCode & 63);
        }
        return Xlib.Xtst.XTestFakeKeyEvent(display, keyCode, down ? 1 : 0, 0) != 0
            ? ResultCode.PLATFORM_OK : ResultCode.PLATFORM_BACKEND;
    }

    /** Sets the last use of every bound key code pressed in this call. */
    private void markUsed(final long nowNs) {
        for (int word = 0; word < 4; word++) {
            long bits = pressed[word];
            while (bits != 0) {
                final int keyCode = word * 64 + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                if (boundKeysym[keyCode] != 0) {
                    lastUseNs[keyCode] = nowNs;
                }
            }
        }
    }

    private void recordReleases(final HeldInputRecorder recorder) {
        for (int word = 0; word < 4; word++) {
            long bits = pressed[word];
            while (bits != 0) {
                recorder.keyUp(word * 64 + Long.numberOfTrailingZeros(bits));
                bits &= bits - 1;
            }
            pressed[word] = 0;
        }
    }

    private int boundKeyCodeOf(final int keysym) {
        if (boundCount == 0) {
            return NO_KEY;
        }
        for (int keyCode = mapping.maxKeyCode(); keyCode >= mapping.minKeyCode(); keyCode--) {
            if (boundKeysym[keyCode] == keysym) {
                return keyCode;
            }
        }
        return NO_KEY;
    }

    /** Binds a spare key code to {@code keysym}; waits out a grace period only when every spare is taken. */
    private int bind(final int keysym, final long nowNs, final HeldInputRecorder recorder) {
        int keyCode = NO_KEY;
        int oldest = NO_KEY;
        int free = 0;
        for (int k = mapping.maxKeyCode(); k >= mapping.minKeyCode(); k--) {
            if (boundKeysym[k] == 0 && mapping.isEmpty(k)) {
                keyCode = keyCode == NO_KEY ? k : keyCode;
                free++;
            } else if (boundKeysym[k] != 0 && (oldest == NO_KEY || lastUseNs[k] - lastUseNs[oldest] < 0)) {
                oldest = k;
            }
        }
        if (free <= RESERVED_SPARES && oldest != NO_KEY) {
            keyCode = NO_KEY; // the last spares are left to other clients: reuse one of ours
        }
        if (keyCode == NO_KEY) {
            if (oldest == NO_KEY) {
                return ResultCode.PLATFORM_CAPACITY; // a keymap without a single empty key code
            }
            keyCode = oldest;
            if (lastUseNs[keyCode] + graceNs - nowNs > 0) {
                Xlib.X11.XFlush(display);
                markUsed(System.nanoTime()); // this call's events just left: their grace starts now
                final long readyNs = lastUseNs[keyCode] + graceNs;
                long waitNs;
                while ((waitNs = readyNs - System.nanoTime()) > 0) {
                    beat.run(); // a long text under a non-Latin layout waits many times: the owner must not think us hung
                    LockSupport.parkNanos(Math.min(waitNs, BEAT_NS));
                }
            }
            boundCount--;
            boundKeysym[keyCode] = 0;
        }
        recorder.keyCodeBound(keyCode);
        bindPair[0] = keysym;
        bindPair[1] = keysym;
        Xlib.X11.XChangeKeyboardMapping(display, keyCode, 2, bindPair, 1);
        boundKeysym[keyCode] = keysym;
        boundCount++;
        return keyCode;
    }
}
