package dev.saccade.wayland;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.io.IOException;

/**
 * KWin's {@code org_kde_kwin_fake_input} (fake-input.xml, version 4 in Plasma 5.27:
 * authenticate 0, button 2, axis 3, pointer_motion_absolute 9, keyboard_key 10): one object that
 * is both keyboard and pointer. KWin offers the global only to clients it trusts (docs/desktops/kde.md
 * §3) and ignores a device's events until it has sent {@code authenticate}. Key codes go out
 * as evdev codes and KWin reads them with the session's keymap, so {@link #keymap()} is the seat's
 * ({@link Keymap#ofSeat}); absolute motion is in global compositor coordinates (no extent).
 */
public final class FakeInput implements KeyDevice, PointerDevice {
    public static final String GLOBAL = "org_kde_kwin_fake_input";
    /** keyboard_key arrived in version 4. */
    private static final int VERSION = 4;
    /** wl_pointer's axis units per wheel notch (libinput's convention, what KWin's own wheel sends). */
    private static final int AXIS_UNITS_PER_STEP = 15;

    private final WaylandConnection connection;
    private final Pointer device;
    private final Keymap keymap;
    private boolean destroyed;

    private FakeInput(final WaylandConnection connection, final Pointer device, final Keymap keymap) {
        this.connection = connection;
        this.device = device;
        this.keymap = keymap;
    }

    /** Whether the compositor offers fake input to this client at a version with keyboard_key. */
    public static boolean offered(final WaylandConnection connection) {
        final WaylandConnection.Global g = connection.global(GLOBAL);
        return g != null && g.version() >= VERSION;
    }

    /**
     * Binds the global and authenticates as {@code application} for {@code reason}.
     *
     * @throws IOException when KWin does not offer it to us (no grant) or offers too old a version
     */
    public static FakeInput create(final WaylandConnection connection, final Keymap keymap, final String application,
        final String reason) throws IOException {
        final WaylandConnection.Global g = connection.global(GLOBAL);
        if (g == null) {
            throw new IOException("the compositor offers no " + GLOBAL + " to this program (KWin lists it only for"
                + " programs whose desktop file names it in X-KDE-Wayland-Interfaces)");
        }
        if (g.version() < VERSION) {
            throw new IOException(GLOBAL + " version " + g.version() + " has no keyboard_key (needs " + VERSION + ")");
        }
        final Pointer device = connection.bind(g, WlInterfaces.FAKE_INPUT, VERSION);
        connection.send(device, 0, text(application), text(reason));
        return new FakeInput(connection, device, keymap);
    }

    private static Memory text(final String value) {
        final byte[] bytes = value.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        final Memory memory = new Memory(bytes.length + 1L);
        memory.write(0, bytes, 0, bytes.length);
        memory.setByte(bytes.length, (byte) 0);
        return memory; // libwayland copies it while marshalling
    }

    @Override
    public Keymap keymap() {
        return keymap;
    }

    @Override
    public void key(final int timeMs, final int keyCode, final boolean down) {
        connection.send(device, 10, keyCode - 8, down ? 1 : 0);
        keymap.update(keyCode, down);
    }

    @Override
    public void moveTo(final int timeMs, final int x, final int y, final int extentX, final int extentY) {
        connection.send(device, 9, x << 8, y << 8);
    }

    @Override
    public void button(final int timeMs, final int button, final boolean down) {
        connection.send(device, 2, button, down ? 1 : 0);
    }

    @Override
    public void wheel(final int timeMs, final int axis, final int steps) {
        connection.send(device, 3, axis, steps * AXIS_UNITS_PER_STEP * 256);
    }

    /** Frees the proxy (version 4 has no destructor: KWin drops the device when the connection goes). */
    @Override
    public void close() {
        if (destroyed) {
            return;
        }
        destroyed = true;
        connection.forget(device);
        connection.flush();
    }
}
