package dev.saccade.helper.backend.wayland;

import com.sun.jna.Pointer;
import dev.saccade.helper.backend.BackendUnavailableException;
import dev.saccade.helper.backend.HeldInputRecorder;
import dev.saccade.helper.backend.InputBackend;
import dev.saccade.helper.backend.OwnKeys;
import dev.saccade.helper.backend.PointerState;
import dev.saccade.helper.backend.TextKeysyms;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.ResultCode;
import dev.saccade.wayland.FakeInput;
import dev.saccade.wayland.KeyDevice;
import dev.saccade.wayland.Keymap;
import dev.saccade.wayland.Outputs;
import dev.saccade.wayland.PointerDevice;
import dev.saccade.wayland.SwayIpc;
import dev.saccade.wayland.VirtualKeyboard;
import dev.saccade.wayland.VirtualPointer;
import dev.saccade.wayland.WaylandConnection;
import dev.saccade.wayland.WlInterfaces;
import java.io.IOException;
import java.nio.CharBuffer;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * Input on a Wayland compositor without uinput. On wlroots: one {@code zwp_virtual_keyboard_v1}
 * with one full keymap and one {@code zwlr_virtual_pointer_v1}, both kept for the backend's whole
 * life (sway 1.7 crashed when its only pointer was destroyed while XWayland windows existed, and a
 * keymap uploaded per call breaks Enter and shortcuts); windows are activated through sway's IPC
 * when SWAYSOCK is set. On KWin ({@link #openKde}): one {@code org_kde_kwin_fake_input} is both
 * devices, and text is mapped through the seat's own keymap, since KWin reads fake key codes with
 * the session's layout (D36).
 *
 * <h2>What the compositor lets a client see</h2>
 * Wayland gives no client the seat's pointer position or key state, so {@link #queryPointer}
 * and {@link #queryKeymap} report what this backend itself holds down and where it last moved
 * the pointer: exactly what release needs, since only our own presses can be released by us.
 * Real user input is not observable either (no UserInputMonitor here, see docs/architecture.md,
 * "Release paths of held input"); the other release paths are the backend-neutral ones.
 *
 * <h2>Keys held when the keyboard goes</h2>
 * What a compositor does with keys still down on a destroyed virtual keyboard is its own
 * business, so {@link #close()} releases every key and button it holds first, flushes, and only
 * then destroys the devices. A helper killed with SIGKILL cannot; its successor or the owner
 * releases from the held-input ledger over a new keyboard (a release of a key the compositor
 * thinks is down on the seat reaches the focused client whichever device sends it).
 *
 * <p>Text: each character is the key of its keysym on layout 0 (level 1 with Shift); characters
 * the uploaded keymap lacks are PLATFORM_UNSUPPORTED before any event (no key code rebinding
 * yet). One thread, the helper's.
 */
public final class WaylandBackend implements InputBackend {
    private static final int SHIFT_L = 0xffe1;
    /** xkb_state's real modifier bits in the standard keymap: Shift, Control, Mod1 (Alt), Mod4 (Super). */
    private static final int XKB_SHIFT = 1;
    private static final int XKB_CONTROL = 1 << 2;
    private static final int XKB_MOD1 = 1 << 3;
    private static final int XKB_MOD4 = 1 << 6;
    private static final int MAX_TEXT_CHARS = 1 << 16;
    /** How long new virtual devices get before their first event (see {@link #open}). */
    static final long DEVICE_SETTLE_NS = WaylandInputConfiguration.settleMs() * 1_000_000L;

    private final WaylandConnection connection;
    private final Keymap keymap;
    private final KeyDevice keyboard;
    private final PointerDevice pointer;
    private final Outputs outputs;
    private final SwayIpc sway;
    private final OwnKeys keys = new OwnKeys();
    private final boolean[] keyDown = keys.down;
    private int x;
    private int y;
    private int buttons;
    private boolean broken;
    private boolean closed;

    private WaylandBackend(final WaylandConnection connection, final Keymap keymap, final KeyDevice keyboard,
        final PointerDevice pointer, final Outputs outputs, final SwayIpc sway) {
        this.connection = connection;
        this.keymap = keymap;
        this.keyboard = keyboard;
        this.pointer = pointer;
        this.outputs = outputs;
        this.sway = sway;
    }

    /**
     * Connects to {@code socket} (a name in XDG_RUNTIME_DIR or an absolute path; null for
     * WAYLAND_DISPLAY) and creates the keyboard and pointer on its first seat.
     *
     * @param swaySocket sway's IPC socket for window activation, or null
     */
    public static WaylandBackend open(final String socket, final Path swaySocket) throws BackendUnavailableException {
        return connect(socket, "Wayland input", (connection, seat, outputs, made) -> {
            made[0] = Keymap.standard();
            final VirtualKeyboard keyboard = VirtualKeyboard.create(connection, seat, made[0]);
            final VirtualPointer pointer = VirtualPointer.create(connection, seat);
            // The compositor has created both devices (and read the keymap) once this returns...
            connection.roundtrip();
            // ...but sway 1.7 drops a click that follows a new virtual pointer too closely (~150
            // ms measured; seen here as a lost first click after another backend's devices
            // went). Nothing tells a client when the device is ready, so this is pacing, once per
            // backend: the helper keeps its devices for its whole life.
            LockSupport.parkNanos(DEVICE_SETTLE_NS);
            final SwayIpc sway = swaySocket == null ? null : SwayIpc.connect(swaySocket);
            return new WaylandBackend(connection, made[0], keyboard, pointer, outputs, sway);
        });
    }

    /**
     * Connects to KWin at {@code socket} and authenticates one fake-input device, typing with the
     * seat's keymap. Fails when KWin does not offer fake input to this program (docs/desktops/kde.md §3).
     */
    public static WaylandBackend openKde(final String socket) throws BackendUnavailableException {
        return connect(socket, "KWin fake input", (connection, seat, outputs, made) -> {
            made[0] = Keymap.ofSeat(connection, seat);
            final FakeInput device = FakeInput.create(connection, made[0], "Saccade", "input for a local agent");
            connection.roundtrip();
            return new WaylandBackend(connection, made[0], device, device, outputs, null);
        });
    }

    /** What a backend sets up on a connection with a seat and outputs; the keymap it makes goes to {@code made[0]}. */
    private interface Setup {
        WaylandBackend on(WaylandConnection connection, Pointer seat, Outputs outputs, Keymap[] made)
            throws IOException, BackendUnavailableException;
    }

    private static WaylandBackend connect(final String socket, final String what, final Setup setup)
        throws BackendUnavailableException {
        final WaylandConnection connection;
        try {
            connection = WaylandConnection.connect(socket);
        } catch (final IOException | UnsatisfiedLinkError e) {
            throw new BackendUnavailableException("cannot connect to Wayland: " + e.getMessage(), e);
        }
        final Keymap[] made = new Keymap[1];
        try {
            final Pointer seat = connection.bind("wl_seat", WlInterfaces.WL_SEAT, 1);
            if (seat == null) {
                throw new BackendUnavailableException("the compositor offers no wl_seat");
            }
            final Outputs outputs = Outputs.read(connection);
            if (outputs.layoutWidth() <= 0 || outputs.layoutHeight() <= 0) {
                throw new BackendUnavailableException("the compositor has no output");
            }
            return setup.on(connection, seat, outputs, made);
        } catch (final IOException | UnsatisfiedLinkError e) {
            cleanUp(connection, made[0]);
            throw new BackendUnavailableException(what + " is unavailable: " + e.getMessage(), e);
        } catch (final BackendUnavailableException e) {
            cleanUp(connection, made[0]);
            throw e;
        }
    }

    private static void cleanUp(final WaylandConnection connection, final Keymap keymap) {
        if (keymap != null) {
            keymap.close();
        }
        connection.close();
    }

    private static int now() {
        return (int) (System.nanoTime() / 1_000_000L);
    }

    private boolean unusable() {
        if (!closed && !broken && connection.error() != 0) {
            broken = true;
        }
        return closed || broken;
    }

    /** The layout's size, the extent of absolute motion. */
    public int layoutWidth() {
        return outputs.layoutWidth();
    }

    public int layoutHeight() {
        return outputs.layoutHeight();
    }

    @Override
    public int movePointer(final int px, final int py) {
        if (unusable()) {
            return ResultCode.PLATFORM_BACKEND;
        }
        final int w = outputs.layoutWidth();
        final int h = outputs.layoutHeight();
        x = Math.max(0, Math.min(w - 1, px));
        y = Math.max(0, Math.min(h - 1, py));
        pointer.moveTo(now(), x, y, w, h);
        return ResultCode.PLATFORM_OK;
    }

    private static int evdevButton(final int buttonBit) {
        switch (buttonBit) {
            case Button.LEFT: return VirtualPointer.BTN_LEFT;
            case Button.RIGHT: return VirtualPointer.BTN_RIGHT;
            case Button.MIDDLE: return VirtualPointer.BTN_MIDDLE;
            default: return 0;
        }
    }

    @Override
    public int button(final int buttonBit, final boolean down) {
        if ((buttonBit & (WHEEL_UP | WHEEL_DOWN | WHEEL_LEFT | WHEEL_RIGHT)) != 0 && Integer.bitCount(buttonBit) == 1) {
            // Wheel pseudo-buttons have no held state on Wayland: a press is one notch, a release nothing.
            if (unusable()) {
                return ResultCode.PLATFORM_BACKEND;
            }
            if (down) {
                final boolean vertical = buttonBit == WHEEL_UP || buttonBit == WHEEL_DOWN;
                pointer.wheel(now(), vertical ? VirtualPointer.AXIS_VERTICAL : VirtualPointer.AXIS_HORIZONTAL,
                    buttonBit == WHEEL_UP || buttonBit == WHEEL_LEFT ? -1 : 1);
            }
            return ResultCode.PLATFORM_OK;
        }
        final int evdev = evdevButton(buttonBit);
        if (evdev == 0) {
            return ResultCode.PLATFORM_INVALID_ARGUMENT;
        }
        if (unusable()) {
            return ResultCode.PLATFORM_BACKEND;
        }
        pointer.button(now(), evdev, down);
        buttons = down ? buttons | buttonBit : buttons & ~buttonBit;
        return ResultCode.PLATFORM_OK;
    }

    @Override
    public int scroll(final int dxQ8, final int dyQ8) {
        final int stepsY = InputBackend.wheelSteps(dyQ8);
        final int stepsX = InputBackend.wheelSteps(dxQ8);
        if (stepsY > MAX_WHEEL_STEPS || stepsX > MAX_WHEEL_STEPS) {
            return ResultCode.PLATFORM_INVALID_ARGUMENT;
        }
        if (unusable()) {
            return ResultCode.PLATFORM_BACKEND;
        }
        if (stepsY > 0) {
            pointer.wheel(now(), VirtualPointer.AXIS_VERTICAL, dyQ8 > 0 ? stepsY : -stepsY);
        }
        if (stepsX > 0) {
            pointer.wheel(now(), VirtualPointer.AXIS_HORIZONTAL, dxQ8 > 0 ? stepsX : -stepsX);
        }
        return ResultCode.PLATFORM_OK;
    }

    @Override
    public int keyCodeOf(final int hidUsage) {
        final int keyCode = HidEvdev.keyCode(hidUsage);
        return keyCode == 0 ? ResultCode.PLATFORM_UNSUPPORTED : keyCode;
    }

    @Override
    public int keyCodeOfModifier(final int modifierBit) {
        if (Integer.bitCount(modifierBit) != 1 || (modifierBit & Modifier.ALL) == 0) {
            return ResultCode.PLATFORM_INVALID_ARGUMENT;
        }
        return keyCodeOf(HidEvdev.MODIFIER_USAGES[Integer.numberOfTrailingZeros(modifierBit)]);
    }

    @Override
    public int keyCode(final int keyCode, final boolean down) {
        if (keyCode < Keymap.MIN_KEY_CODE || keyCode > Keymap.MAX_KEY_CODE) {
            return ResultCode.PLATFORM_INVALID_ARGUMENT;
        }
        if (unusable()) {
            return ResultCode.PLATFORM_BACKEND;
        }
        if (down && keyDown[keyCode]) {
            return ResultCode.PLATFORM_OK; // xkb_state counts presses: a repeated one must not stick
        }
        // A release is always sent: it may be for a key a killed predecessor left down on the seat
        // (LedgerRelease), which xkb_state here never saw and ignores.
        keyboard.key(now(), keyCode, down);
        keyDown[keyCode] = down;
        return ResultCode.PLATFORM_OK;
    }

    /** The keysym of a code point: the function keys for the accepted controls, 0 for other controls. */
    private static int keysymOf(final int codePoint) {
        return TextKeysyms.of(codePoint, Keymap::keysymOf);
    }

    @Override
    public int typeText(final byte[] utf8, final int offset, final int length, final HeldInputRecorder recorder) {
        if (offset < 0 || length < 0 || offset > utf8.length - length || length > MAX_TEXT_CHARS * 4) {
            return ResultCode.PLATFORM_INVALID_ARGUMENT;
        }
        if (unusable()) {
            return ResultCode.PLATFORM_BACKEND;
        }
        final CharBuffer chars = keys.decode(utf8, offset, length);
        if (chars == null) {
            return ResultCode.PLATFORM_UNSUPPORTED;
        }
        final int shiftKey = keymap.keyFor(SHIFT_L) & 0xffff;
        // Pass 1: refuse the whole text before any event.
        for (int i = 0; i < chars.limit(); ) {
            final int cp = Character.codePointAt(chars, i);
            i += Character.charCount(cp);
            final int keysym = keysymOf(cp);
            final int found = keysym == 0 ? -1 : keymap.keyFor(keysym);
            if (found < 0 || found >> 16 == 1 && shiftKey <= 0) {
                return ResultCode.PLATFORM_UNSUPPORTED;
            }
        }
        for (int i = 0; i < chars.limit(); ) {
            final int cp = Character.codePointAt(chars, i);
            i += Character.charCount(cp);
            if (cp == '\r' && i < chars.limit() && chars.get(i) == '\n') {
                i++; // CR LF is one Return
            }
            final int found = keymap.keyFor(keysymOf(cp));
            final boolean shifted = found >> 16 == 1 && !keyDown[shiftKey];
            int rc = shifted ? tap(shiftKey, true, recorder) : ResultCode.PLATFORM_OK;
            if (rc == ResultCode.PLATFORM_OK) {
                rc = tap(found & 0xffff, true, recorder);
            }
            final int up = tap(found & 0xffff, false, recorder);
            final int shiftUp = shifted ? tap(shiftKey, false, recorder) : ResultCode.PLATFORM_OK;
            if (rc != ResultCode.PLATFORM_OK || up != ResultCode.PLATFORM_OK || shiftUp != ResultCode.PLATFORM_OK) {
                return rc != ResultCode.PLATFORM_OK ? rc : up != ResultCode.PLATFORM_OK ? up : shiftUp;
            }
        }
        return ResultCode.PLATFORM_OK;
    }

    /** One key event, recorded before a press and after a release has been handed to the compositor. */
    private int tap(final int keyCode, final boolean down, final HeldInputRecorder recorder) {
        if (down) {
            recorder.keyDown(keyCode);
            return keyCode(keyCode, true);
        }
        final int rc = keyCode(keyCode, false);
        if (rc == ResultCode.PLATFORM_OK && connection.flush()) {
            recorder.keyUp(keyCode);
            return ResultCode.PLATFORM_OK;
        }
        return rc != ResultCode.PLATFORM_OK ? rc : ResultCode.PLATFORM_BACKEND;
    }

    @Override
    public int restoreKeymap(final long nowNs, final boolean force, final HeldInputRecorder recorder) {
        return unusable() ? ResultCode.PLATFORM_BACKEND : 0; // no key code is ever rebound
    }

    @Override
    public int unbindKeyCode(final int keyCode) {
        return ResultCode.PLATFORM_OK; // nothing to undo: the keymap is never changed
    }

    @Override
    public int activateWindow(final long windowId) {
        return swayCommand("[con_id=" + windowId + "] focus");
    }

    @Override
    public int cycleWindow(final boolean backward) {
        return swayCommand(backward ? "focus prev" : "focus next");
    }

    private int swayCommand(final String command) {
        if (sway == null) {
            return ResultCode.PLATFORM_UNSUPPORTED;
        }
        try {
            final String reply = sway.request(SwayIpc.RUN_COMMAND, command);
            return reply.contains("\"success\": true") || reply.contains("\"success\":true")
                ? ResultCode.PLATFORM_OK : ResultCode.PLATFORM_NOT_FOUND;
        } catch (final IOException e) {
            return ResultCode.PLATFORM_BACKEND;
        }
    }

    @Override
    public int flush() {
        if (unusable()) {
            return ResultCode.PLATFORM_BACKEND;
        }
        if (!connection.pump()) {
            broken = true;
            return ResultCode.PLATFORM_BACKEND;
        }
        return ResultCode.PLATFORM_OK;
    }

    @Override
    public int sync() {
        if (unusable()) {
            return ResultCode.PLATFORM_BACKEND;
        }
        try {
            connection.roundtrip();
            return ResultCode.PLATFORM_OK;
        } catch (final IOException e) {
            broken = true;
            return ResultCode.PLATFORM_BACKEND;
        }
    }

    @Override
    public int queryPointer(final PointerState into) {
        if (unusable()) {
            return ResultCode.PLATFORM_BACKEND;
        }
        final int mods = keymap.depressed();
        into.set(x, y, buttons, ((mods & XKB_SHIFT) != 0 ? Modifier.SHIFT : 0)
            | ((mods & XKB_CONTROL) != 0 ? Modifier.CONTROL : 0)
            | ((mods & XKB_MOD1) != 0 ? Modifier.ALT : 0)
            | ((mods & XKB_MOD4) != 0 ? Modifier.META : 0));
        return ResultCode.PLATFORM_OK;
    }

    @Override
    public int queryKeymap(final byte[] keys32) {
        if (keys32.length < 32) {
            return ResultCode.PLATFORM_INVALID_ARGUMENT;
        }
        if (unusable()) {
            return ResultCode.PLATFORM_BACKEND;
        }
        keys.pack(keys32);
        return ResultCode.PLATFORM_OK;
    }

    /** Releases whatever this backend still holds, then destroys the keyboard and pointer and disconnects. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (!broken) {
            for (final int bit : new int[] {Button.LEFT, Button.RIGHT, Button.MIDDLE}) {
                if ((buttons & bit) != 0) {
                    button(bit, false);
                }
            }
            for (int k = Keymap.MAX_KEY_CODE; k >= Keymap.MIN_KEY_CODE; k--) {
                if (keyDown[k]) {
                    keyCode(k, false);
                }
            }
            sync();
            keyboard.close();
            pointer.close();
        }
        closed = true;
        connection.close();
        keymap.close();
        if (sway != null) {
            try {
                sway.close();
            } catch (final IOException ignore) {
                // reason: nothing is held on the IPC socket
            }
        }
    }
}
