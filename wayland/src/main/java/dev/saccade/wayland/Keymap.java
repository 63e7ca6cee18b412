package dev.saccade.wayland;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.PointerByReference;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One full XKB keymap (libxkbcommon's default rules: evdev, pc105, the layout of
 * XKB_DEFAULT_LAYOUT or us), uploaded once to a virtual keyboard, and the keyboard state it
 * implies. A per-call minimal keymap (as wtype makes) breaks Enter and shortcuts in clients that
 * cache the keymap, so the helper keeps this one for its whole life. Key codes here are XKB's
 * (evdev + 8), the range 8..255 the held-input ledger records.
 *
 * <p>{@link #keyFor(int)} finds the key and level of a keysym on layout 0: level 0 plain, level 1
 * with Shift. The modifier state after each key event comes from {@code xkb_state}, and the
 * virtual keyboard sends it itself (a virtual keyboard's modifiers are what its client says).
 */
public final class Keymap implements AutoCloseable {
    public static final int MIN_KEY_CODE = 8;
    public static final int MAX_KEY_CODE = 255;
    /** XKB_STATE_MODS_DEPRESSED, _LATCHED, _LOCKED, XKB_STATE_LAYOUT_EFFECTIVE. */
    private static final int MODS_DEPRESSED = 1;
    private static final int MODS_LATCHED = 1 << 1;
    private static final int MODS_LOCKED = 1 << 2;
    private static final int LAYOUT_EFFECTIVE = 1 << 7;

    interface Xkb extends Library {
        Xkb LIB = Native.load("xkbcommon", Xkb.class);

        Pointer xkb_context_new(int flags);

        void xkb_context_unref(Pointer context);

        Pointer xkb_keymap_new_from_names(Pointer context, Pointer names, int flags);

        Pointer xkb_keymap_new_from_string(Pointer context, String string, int format, int flags);

        void xkb_keymap_unref(Pointer keymap);

        Pointer xkb_keymap_get_as_string(Pointer keymap, int format);

        int xkb_keymap_key_get_syms_by_level(Pointer keymap, int key, int layout, int level, PointerByReference syms);

        int xkb_keymap_num_levels_for_key(Pointer keymap, int key, int layout);

        int xkb_utf32_to_keysym(int codepoint);

        Pointer xkb_state_new(Pointer keymap);

        void xkb_state_unref(Pointer state);

        int xkb_state_update_key(Pointer state, int key, int direction);

        int xkb_state_serialize_mods(Pointer state, int components);

        int xkb_state_serialize_layout(Pointer state, int components);
    }

    interface Free extends Library {
        Free LIB = Native.load("c", Free.class);

        void free(Pointer p);
    }

    private final Pointer context;
    private final Pointer keymap;
    private final Pointer state;
    private final byte[] text;
    /** keysym → key code | level << 16, the lowest key code and level that produce it. */
    private final Map<Integer, Integer> keyOfKeysym = new HashMap<>();
    /** The keysyms of the first layout at any level (AltGr's included): what a compositor can type by keysym. */
    private final Set<Integer> firstLayout = new HashSet<>();

    private Keymap(final Pointer context, final Pointer keymap) {
        this.context = context;
        this.keymap = keymap;
        final Pointer string = Xkb.LIB.xkb_keymap_get_as_string(keymap, 1);
        final String keymapText = string.getString(0, "UTF-8");
        Free.LIB.free(string);
        final byte[] bytes = keymapText.getBytes(StandardCharsets.UTF_8);
        text = new byte[bytes.length + 1]; // the size sent includes the terminating NUL
        System.arraycopy(bytes, 0, text, 0, bytes.length);
        final PointerByReference syms = new PointerByReference();
        for (int key = MIN_KEY_CODE; key <= MAX_KEY_CODE; key++) {
            final int levels = Xkb.LIB.xkb_keymap_num_levels_for_key(keymap, key, 0);
            for (int level = 0; level < levels; level++) {
                final int n = Xkb.LIB.xkb_keymap_key_get_syms_by_level(keymap, key, 0, level, syms);
                if (n == 1) {
                    final int keysym = syms.getValue().getInt(0);
                    firstLayout.add(keysym);
                    if (level < 2) {
                        keyOfKeysym.putIfAbsent(keysym, key | level << 16);
                    }
                }
            }
        }
        state = Xkb.LIB.xkb_state_new(keymap);
    }

    /** The default keymap of this machine's XKB data (xkb-data). */
    public static Keymap standard() throws IOException {
        final Pointer context = Xkb.LIB.xkb_context_new(0);
        if (context == null) {
            throw new IOException("xkb_context_new failed");
        }
        final Pointer keymap = Xkb.LIB.xkb_keymap_new_from_names(context, Pointer.NULL, 0);
        if (keymap == null) {
            Xkb.LIB.xkb_context_unref(context);
            throw new IOException("no XKB keymap (is xkb-data installed?)");
        }
        return new Keymap(context, keymap);
    }

    /**
     * The keymap the compositor gives the keyboards of {@code seat} ({@code wl_keyboard.keymap},
     * read over a keyboard made for the purpose and destroyed again): the session's layout, with
     * which KWin interprets the key codes of its fake input. {@code seat} is bound at version 1.
     */
    public static Keymap ofSeat(final WaylandConnection connection, final Pointer seat) throws IOException {
        final Pointer keyboard = connection.request(seat, 1, WlInterfaces.WL_KEYBOARD, 1, 0, (Object) null);
        final String[] text = new String[1];
        final IOException[] failure = new IOException[1];
        connection.listen(keyboard, (opcode, args) -> {
            if (opcode != 0 || text[0] != null) {
                return;
            }
            final int fd = args.intAt(1);
            try {
                // The fd is the compositor's keymap file (a sealed memfd): read it by path from its start.
                final byte[] bytes = java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc/self/fd/" + fd));
                int end = Math.min(bytes.length, args.intAt(2));
                while (end > 0 && bytes[end - 1] == 0) {
                    end--;
                }
                text[0] = new String(bytes, 0, end, StandardCharsets.UTF_8);
            } catch (final IOException e) {
                failure[0] = e;
            } finally {
                WaylandNative.LibC.LIB.close(fd);
            }
        });
        try {
            connection.roundtrip();
        } finally {
            connection.forget(keyboard); // wl_keyboard has no destructor request before version 3
        }
        if (failure[0] != null) {
            throw failure[0];
        }
        if (text[0] == null) {
            throw new IOException("the seat sent no keymap");
        }
        final Pointer context = Xkb.LIB.xkb_context_new(0);
        if (context == null) {
            throw new IOException("xkb_context_new failed");
        }
        final Pointer keymap = Xkb.LIB.xkb_keymap_new_from_string(context, text[0], 1, 0);
        if (keymap == null) {
            Xkb.LIB.xkb_context_unref(context);
            throw new IOException("the seat's keymap does not compile");
        }
        return new Keymap(context, keymap);
    }

    /** The keymap in XKB text format, NUL-terminated: what the keymap request's fd carries. */
    public byte[] text() {
        return text;
    }

    /** The keysym of a Unicode code point (XKB's own table), 0 if none. */
    public static int keysymOf(final int codePoint) {
        return Xkb.LIB.xkb_utf32_to_keysym(codePoint);
    }

    /** {@code keyCode | level << 16} of a keysym on layout 0, level 0 or 1; -1 if the keymap lacks it. */
    public int keyFor(final int keysym) {
        final Integer found = keyOfKeysym.get(keysym);
        return found == null ? -1 : found;
    }

    /** Whether a key of the first layout gives {@code keysym} at some level, Shift and AltGr levels included. */
    public boolean hasKeysym(final int keysym) {
        return firstLayout.contains(keysym);
    }

    /** wl_seat's capability bit for a keyboard. */
    private static final int SEAT_CAPABILITY_KEYBOARD = 2;

    /**
     * The keymap the compositor behind {@code socket} gives its first seat's keyboards, read over a
     * connection made for the purpose and closed again. The keyboard is asked for only once the
     * seat says it has one, waiting up to {@code timeoutMs}: mutter 43 dies (a NULL keymap file)
     * when a client asks a seat without a keyboard for one, as a headless session's seat is until a
     * virtual keyboard is added — and its seat learns of a new one later than the input it sends.
     */
    public static Keymap ofCompositor(final String socket, final long timeoutMs) throws IOException {
        final WaylandConnection connection = WaylandConnection.connect(socket);
        try {
            final Pointer seat = connection.bind("wl_seat", WlInterfaces.WL_SEAT, 1);
            if (seat == null) {
                throw new IOException("the compositor offers no wl_seat");
            }
            final int[] capabilities = new int[1];
            connection.listen(seat, (opcode, args) -> {
                if (opcode == 0) {
                    capabilities[0] = args.intAt(0);
                }
            });
            connection.roundtrip();
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
            while ((capabilities[0] & SEAT_CAPABILITY_KEYBOARD) == 0) {
                final long leftMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (leftMs <= 0) {
                    throw new IOException("the compositor's seat has no keyboard (capabilities " + capabilities[0]
                        + ") after " + timeoutMs + " ms: no keymap to read");
                }
                if (!connection.pump((int) Math.min(leftMs, 100))) {
                    throw new IOException("the Wayland connection failed (error " + connection.error() + ")");
                }
            }
            return ofSeat(connection, seat);
        } finally {
            connection.close();
        }
    }

    /** Tells the state a key went down or up. */
    public void update(final int keyCode, final boolean down) {
        Xkb.LIB.xkb_state_update_key(state, keyCode, down ? 1 : 0);
    }

    public int depressed() {
        return Xkb.LIB.xkb_state_serialize_mods(state, MODS_DEPRESSED);
    }

    public int latched() {
        return Xkb.LIB.xkb_state_serialize_mods(state, MODS_LATCHED);
    }

    public int locked() {
        return Xkb.LIB.xkb_state_serialize_mods(state, MODS_LOCKED);
    }

    public int group() {
        return Xkb.LIB.xkb_state_serialize_layout(state, LAYOUT_EFFECTIVE);
    }

    @Override
    public void close() {
        Xkb.LIB.xkb_state_unref(state);
        Xkb.LIB.xkb_keymap_unref(keymap);
        Xkb.LIB.xkb_context_unref(context);
    }
}
