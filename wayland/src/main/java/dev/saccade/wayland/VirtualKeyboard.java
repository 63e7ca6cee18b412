package dev.saccade.wayland;

import com.sun.jna.Pointer;
import java.io.IOException;

/**
 * A {@code zwp_virtual_keyboard_v1} on the compositor's seat, with one full keymap uploaded at
 * creation (virtual-keyboard-unstable-v1: keymap 0, key 1, modifiers 2, destroy 3). Key codes
 * are XKB's (evdev + 8); the request carries the evdev code. The modifier state is ours to send:
 * {@link #key} sends it after every key that changes it.
 */
public final class VirtualKeyboard implements KeyDevice {
    public static final String MANAGER = "zwp_virtual_keyboard_manager_v1";
    private static final int KEYMAP_FORMAT_XKB_V1 = 1;
    private static final int MFD_CLOEXEC = 1;

    private final WaylandConnection connection;
    private final Pointer manager;
    private final Pointer keyboard;
    private final Keymap keymap;
    private int sentDepressed;
    private int sentLatched;
    private int sentLocked;
    private int sentGroup;
    private boolean destroyed;

    private VirtualKeyboard(final WaylandConnection connection, final Pointer manager, final Pointer keyboard,
        final Keymap keymap) {
        this.connection = connection;
        this.manager = manager;
        this.keyboard = keyboard;
        this.keymap = keymap;
    }

    /** Creates the keyboard on {@code seat} and uploads {@code keymap}; IOException if the compositor lacks the protocol. */
    public static VirtualKeyboard create(final WaylandConnection connection, final Pointer seat, final Keymap keymap)
        throws IOException {
        final Pointer manager = connection.bind(MANAGER, WlInterfaces.VIRTUAL_KEYBOARD_MANAGER, 1);
        if (manager == null) {
            throw new IOException("the compositor offers no " + MANAGER);
        }
        final Pointer keyboard = connection.request(manager, 0, WlInterfaces.VIRTUAL_KEYBOARD, 1, 0, seat, null);
        final byte[] text = keymap.text();
        final int fd = WaylandNative.LibC.LIB.memfd_create("saccade-keymap", MFD_CLOEXEC);
        if (fd < 0) {
            throw new IOException("memfd_create failed");
        }
        try {
            long written = 0;
            while (written < text.length) {
                final byte[] rest = written == 0 ? text : java.util.Arrays.copyOfRange(text, (int) written, text.length);
                final long n = WaylandNative.LibC.LIB.write(fd, rest, rest.length);
                if (n <= 0) {
                    throw new IOException("cannot write the keymap to its memfd");
                }
                written += n;
            }
            // libwayland duplicates the fd while marshalling, so ours can be closed right after.
            connection.send(keyboard, 0, KEYMAP_FORMAT_XKB_V1, fd, text.length);
        } finally {
            WaylandNative.LibC.LIB.close(fd);
        }
        return new VirtualKeyboard(connection, manager, keyboard, keymap);
    }

    @Override
    public Keymap keymap() {
        return keymap;
    }

    /** Presses or releases XKB key code {@code keyCode}, then sends the modifiers if they changed. */
    @Override
    public void key(final int timeMs, final int keyCode, final boolean down) {
        connection.send(keyboard, 1, timeMs, keyCode - 8, down ? 1 : 0);
        keymap.update(keyCode, down);
        final int depressed = keymap.depressed();
        final int latched = keymap.latched();
        final int locked = keymap.locked();
        final int group = keymap.group();
        if (depressed != sentDepressed || latched != sentLatched || locked != sentLocked || group != sentGroup) {
            sentDepressed = depressed;
            sentLatched = latched;
            sentLocked = locked;
            sentGroup = group;
            connection.send(keyboard, 2, depressed, latched, locked, group);
        }
    }

    /** Destroys the keyboard (release its keys first: what the compositor does with held ones is its own). */
    @Override
    public void close() {
        if (destroyed) {
            return;
        }
        destroyed = true;
        connection.destroy(keyboard, 3);
        connection.forget(manager); // zwp_virtual_keyboard_manager_v1 has no destructor request
        connection.flush();
    }
}
