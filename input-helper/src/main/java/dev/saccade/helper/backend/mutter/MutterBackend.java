package dev.saccade.helper.backend.mutter;

import dev.saccade.helper.backend.BackendUnavailableException;
import dev.saccade.helper.backend.HeldInputRecorder;
import dev.saccade.helper.backend.InputBackend;
import dev.saccade.helper.backend.OwnKeys;
import dev.saccade.helper.backend.PointerState;
import dev.saccade.helper.backend.TextKeysyms;
import dev.saccade.helper.backend.wayland.HidEvdev;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.ResultCode;
import dev.saccade.wayland.Keymap;
import java.io.IOException;
import java.nio.CharBuffer;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.freedesktop.dbus.DBusPath;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.exceptions.DBusExecutionException;
import org.freedesktop.dbus.interfaces.DBus;
import org.freedesktop.dbus.interfaces.DBusSigHandler;
import org.freedesktop.dbus.interfaces.Properties;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.UInt64;
import org.freedesktop.dbus.types.Variant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Input on GNOME (mutter 43) through mutter's RemoteDesktop D-Bus session, which the session's
 * own user may open without a portal (D33): {@code CreateSession}, a ScreenCast session bound to
 * it ({@code remote-desktop-session-id}) recording the primary monitor, whose stream absolute
 * motion is expressed in, then {@code Start}. Keys are evdev codes ({@code NotifyKeyboardKeycode},
 * the ledger's key codes minus 8); text goes as keysyms ({@code NotifyKeyboardKeysym}), which
 * mutter types on the session's own layout, Shift or AltGr included.
 *
 * <h2>Release</h2>
 * The RemoteDesktop session belongs to this process's bus connection: when the helper dies, the
 * bus tells mutter, which closes the session and lets go of every key and button its virtual
 * devices hold (docs/desktops/gnome.md, measured). {@link #close()} releases explicitly first all
 * the same. A replacement helper's release of its predecessor's ledger sends nothing: mutter
 * refuses to release what the new session does not hold, and has released the old session's. A
 * session lost while the helper lives (gnome-shell stopped) is left by closing the bus connection,
 * after which nothing pressed here is held ({@link #heldInputEnded}, D56). Mutter shows no client the seat's state, so {@link #queryPointer} and
 * {@link #queryKeymap} report what this backend holds, as the wlroots backend does.
 *
 * <p>Mutter drops a keysym the session's layout lacks (it logs "No keycode found") and types the
 * rest, so with the layout read ({@link #checkingLayoutOf}) such a text is PLATFORM_UNSUPPORTED
 * before its first event. One thread, the helper's.
 */
public final class MutterBackend implements InputBackend {
    private static final int BTN_LEFT = 0x110;
    private static final int BTN_RIGHT = 0x111;
    private static final int BTN_MIDDLE = 0x112;
    private static final int EVDEV_OFFSET = 8;
    private static final int SHIFT_L = 42 + EVDEV_OFFSET;
    private static final int CONTROL_L = 29 + EVDEV_OFFSET;
    private static final int ALT_L = 56 + EVDEV_OFFSET;
    private static final int SUPER_L = 125 + EVDEV_OFFSET;
    private static final int MAX_TEXT_CHARS = 1 << 16;
    private static final long STREAM_TIMEOUT_MS = 10_000;
    private static final String FAILED = "org.freedesktop.DBus.Error.Failed";
    private static final Logger LOG = LoggerFactory.getLogger(MutterBackend.class);
    private static final Pattern PRIMARY = Pattern.compile(
        "\"x\":(-?\\d+),\"y\":(-?\\d+),\"width\":(\\d+),\"height\":(\\d+),\"primary\":true");

    private final DBusConnection bus;
    private final MutterBus.RemoteDesktopSession session;
    private final String stream;
    private final MutterBus.SaccadeShell shell;
    private final int originX;
    private final int originY;
    private final int width;
    private final int height;
    private final OwnKeys keys = new OwnKeys();
    private final boolean[] keyDown = keys.down;
    /** The session's layout, when read ({@link #checkingLayoutOf}): text it cannot type is refused whole. */
    private Keymap layout;
    private int x;
    private int y;
    private int buttons;
    private boolean moved;
    private boolean broken;
    private boolean closed;

    private MutterBackend(final DBusConnection bus, final MutterBus.RemoteDesktopSession session, final String stream,
        final MutterBus.SaccadeShell shell, final int[] monitor) {
        this.bus = bus;
        this.session = session;
        this.stream = stream;
        this.shell = shell;
        this.originX = monitor[0];
        this.originY = monitor[1];
        this.width = monitor[2];
        this.height = monitor[3];
    }

    /**
     * The session bus of the Wayland display {@code socket}: for an absolute socket path, the
     * {@code bus} socket beside it when there is one (where systemd's user bus and the headless
     * sessions' buses live, {@code $XDG_RUNTIME_DIR/bus}), else {@code fallback} (DBUS_SESSION_BUS_ADDRESS).
     */
    public static String sessionBusOf(final String socket, final String fallback) {
        if (socket != null && socket.startsWith("/")) {
            final java.nio.file.Path bus = java.nio.file.Path.of(socket).resolveSibling("bus");
            if (java.nio.file.Files.exists(bus)) {
                return "unix:path=" + bus;
            }
        }
        return fallback;
    }

    /** Whether the session bus at {@code address} has mutter's RemoteDesktop: the session is GNOME's. */
    public static boolean isGnome(final String address) {
        if (address == null || address.isEmpty()) {
            return false;
        }
        try (DBusConnection bus = connect(address)) {
            return bus.getRemoteObject("org.freedesktop.DBus", "/org/freedesktop/DBus", DBus.class)
                .NameHasOwner(MutterBus.REMOTE_DESKTOP_NAME);
        } catch (final DBusException | DBusExecutionException | java.io.IOException e) {
            return false; // no bus, or not a GNOME session's
        }
    }

    private static DBusConnection connect(final String address) throws DBusException {
        return DBusConnectionBuilder.forAddress(address).withShared(false).build();
    }

    /** Opens a RemoteDesktop session on the session bus at {@code address} and starts it. */
    public static MutterBackend open(final String address) throws BackendUnavailableException {
        DBusConnection bus = null;
        try {
            bus = connect(address);
            final MutterBus.RemoteDesktop remote = bus.getRemoteObject(MutterBus.REMOTE_DESKTOP_NAME,
                MutterBus.REMOTE_DESKTOP_PATH, MutterBus.RemoteDesktop.class);
            final DBusPath sessionPath = remote.createSession();
            final Object id = bus.getRemoteObject(MutterBus.REMOTE_DESKTOP_NAME, sessionPath.getPath(), Properties.class)
                .Get(MutterBus.REMOTE_DESKTOP_SESSION, "SessionId");
            final MutterBus.ScreenCast cast = bus.getRemoteObject(MutterBus.SCREEN_CAST_NAME,
                MutterBus.SCREEN_CAST_PATH, MutterBus.ScreenCast.class);
            final DBusPath castPath = cast.createSession(Map.of("remote-desktop-session-id",
                new Variant<>(String.valueOf(id))));
            final DBusPath streamPath = bus.getRemoteObject(MutterBus.SCREEN_CAST_NAME, castPath.getPath(),
                MutterBus.ScreenCastSession.class).recordMonitor("", Map.of());
            final MutterBus.RemoteDesktopSession session = bus.getRemoteObject(MutterBus.REMOTE_DESKTOP_NAME,
                sessionPath.getPath(), MutterBus.RemoteDesktopSession.class);
            // Absolute motion in the stream is refused until PipeWire has the stream: wait for it.
            final CountDownLatch streamReady = new CountDownLatch(1);
            final String streamName = streamPath.getPath();
            final DBusSigHandler<MutterBus.Stream.PipeWireStreamAdded> onStream = signal -> {
                if (streamName.equals(signal.getPath())) {
                    streamReady.countDown();
                }
            };
            bus.addSigHandler(MutterBus.Stream.PipeWireStreamAdded.class, onStream);
            session.start();
            try {
                if (!streamReady.await(STREAM_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                    throw new BackendUnavailableException("mutter's ScreenCast stream did not start within "
                        + STREAM_TIMEOUT_MS + " ms (is PipeWire running in the session?)");
                }
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BackendUnavailableException("interrupted waiting for mutter's ScreenCast stream", e);
            } finally {
                bus.removeSigHandler(MutterBus.Stream.PipeWireStreamAdded.class, onStream);
            }
            final MutterBus.SaccadeShell shell = bus.getRemoteObject(MutterBus.SHELL_NAME, MutterBus.EXTENSION_PATH,
                MutterBus.SaccadeShell.class);
            final int[] monitor = primaryMonitor(bus);
            if (!VirtualDevices.awaitLive(shell, session, streamPath.getPath(), monitor, SHIFT_L - EVDEV_OFFSET,
                STREAM_TIMEOUT_MS)) {
                // An extension that does not show the seat (or a seat that never moved): the first
                // events after Start were lost without a wait (two keys, or a whole click, measured on
                // mutter 43 headless), and the first key of a new keyboard never reaches the focused
                // client (it comes with the keymap): pacing, then a Shift tap, which types nothing.
                LOG.warn("event=mutter_devices_unconfirmed settle_ms={}", MutterInputConfiguration.settleMs());
                LockSupport.parkNanos(MutterInputConfiguration.settleMs() * 1_000_000L);
                session.keycode(new UInt32(SHIFT_L - EVDEV_OFFSET), true);
                session.keycode(new UInt32(SHIFT_L - EVDEV_OFFSET), false);
            }
            return new MutterBackend(bus, session, streamPath.getPath(), shell, monitor);
        } catch (final DBusException | DBusExecutionException e) {
            if (bus != null) {
                bus.disconnect();
            }
            throw new BackendUnavailableException("mutter's RemoteDesktop is unavailable: " + e.getMessage(), e);
        } catch (final BackendUnavailableException e) {
            bus.disconnect();
            throw e;
        }
    }

    /**
     * Reads the keymap the compositor behind {@code waylandSocket} gives its keyboards, the one
     * mutter types keysyms with: a text with a character no key of it gives is then refused before
     * anything is typed, where mutter would drop that character and type the rest (D58). Without
     * it (the compositor cannot be reached) text goes unchecked, as before.
     */
    public MutterBackend checkingLayoutOf(final String waylandSocket) {
        try {
            final Keymap read = Keymap.ofCompositor(waylandSocket, STREAM_TIMEOUT_MS);
            if (layout != null) {
                layout.close();
            }
            layout = read;
        } catch (final IOException | RuntimeException e) {
            LOG.warn("event=mutter_layout_unread socket={} error={}", waylandSocket, e.toString());
        }
        return this;
    }

    /** The primary monitor's {x, y, width, height} from the extension; the stream's origin and extent. */
    private static int[] primaryMonitor(final DBusConnection bus) {
        try {
            final String json = bus.getRemoteObject(MutterBus.SHELL_NAME, MutterBus.EXTENSION_PATH,
                MutterBus.SaccadeShell.class).listWindows();
            final Matcher m = PRIMARY.matcher(json);
            if (m.find()) {
                return new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                    Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4))};
            }
        } catch (final DBusException | DBusExecutionException e) {
            // reason: without the extension the stream is taken to start at (0, 0), unclamped
        }
        return new int[] {0, 0, Integer.MAX_VALUE, Integer.MAX_VALUE};
    }

    private int call(final Runnable event) {
        if (closed || broken) {
            return ResultCode.PLATFORM_BACKEND;
        }
        try {
            event.run();
            return ResultCode.PLATFORM_OK;
        } catch (final DBusExecutionException e) {
            // A refused event (org.freedesktop.DBus.Error.Failed: "Invalid button event") leaves
            // the session usable; any other error means it is gone (the shell went away, or stopped it).
            final boolean lost = !FAILED.equals(errorName(e));
            LOG.warn("event=mutter_call_failed session_lost={} error={}", lost, e.getMessage());
            if (lost) {
                sessionLost();
            }
            return ResultCode.PLATFORM_BACKEND;
        }
    }

    /**
     * The session is gone, or mutter no longer answers: leaving the bus ends the session for
     * certain (mutter releases what a connection's devices hold when it drops, and a mutter that
     * died holds nothing), so nothing pressed here stays held (D56).
     */
    private void sessionLost() {
        broken = true;
        buttons = 0;
        java.util.Arrays.fill(keyDown, false);
        bus.disconnect();
    }

    @Override
    public boolean heldInputEnded() {
        return broken;
    }

    /**
     * The D-Bus error name of a failed call. dbus-java 5 marks the getter for removal without a
     * replacement, and the name is the only way to tell a refused event from a lost session.
     */
    @SuppressWarnings("removal")
    private static String errorName(final DBusExecutionException e) {
        return e.getType();
    }

    @Override
    public int movePointer(final int px, final int py) {
        x = Math.max(originX, Math.min(originX + width - 1, px));
        y = Math.max(originY, Math.min(originY + height - 1, py));
        if (!moved) {
            // The first motion of a new session's pointer was lost (measured: the click that
            // followed landed where the pointer was); sent twice, it arrives.
            moved = call(() -> session.motionAbsolute(stream, x - originX, y - originY)) == ResultCode.PLATFORM_OK;
        }
        return call(() -> session.motionAbsolute(stream, x - originX, y - originY));
    }

    private static int evdevButton(final int buttonBit) {
        switch (buttonBit) {
            case Button.LEFT: return BTN_LEFT;
            case Button.RIGHT: return BTN_RIGHT;
            case Button.MIDDLE: return BTN_MIDDLE;
            default: return 0;
        }
    }

    @Override
    public int button(final int buttonBit, final boolean down) {
        if ((buttonBit & (WHEEL_UP | WHEEL_DOWN | WHEEL_LEFT | WHEEL_RIGHT)) != 0 && Integer.bitCount(buttonBit) == 1) {
            if (!down) {
                return closed || broken ? ResultCode.PLATFORM_BACKEND : ResultCode.PLATFORM_OK;
            }
            final boolean vertical = buttonBit == WHEEL_UP || buttonBit == WHEEL_DOWN;
            return wheel(vertical, buttonBit == WHEEL_UP || buttonBit == WHEEL_LEFT ? -1 : 1);
        }
        final int evdev = evdevButton(buttonBit);
        if (evdev == 0) {
            return ResultCode.PLATFORM_INVALID_ARGUMENT;
        }
        if (!down && (buttons & buttonBit) == 0) {
            // mutter refuses to release a button this session does not hold ("Invalid button
            // event"), and a dead predecessor's were released by mutter when its session closed.
            return closed || broken ? ResultCode.PLATFORM_BACKEND : ResultCode.PLATFORM_OK;
        }
        final int rc = call(() -> session.button(evdev, down));
        if (rc == ResultCode.PLATFORM_OK) {
            buttons = down ? buttons | buttonBit : buttons & ~buttonBit;
        }
        return rc;
    }

    private int wheel(final boolean vertical, final int steps) {
        return call(() -> session.axisDiscrete(new UInt32(vertical ? 0 : 1), steps));
    }

    @Override
    public int scroll(final int dxQ8, final int dyQ8) {
        final int stepsY = InputBackend.wheelSteps(dyQ8);
        final int stepsX = InputBackend.wheelSteps(dxQ8);
        if (stepsY > MAX_WHEEL_STEPS || stepsX > MAX_WHEEL_STEPS) {
            return ResultCode.PLATFORM_INVALID_ARGUMENT;
        }
        int rc = stepsY > 0 ? wheel(true, dyQ8 > 0 ? stepsY : -stepsY) : ResultCode.PLATFORM_OK;
        if (rc == ResultCode.PLATFORM_OK && stepsX > 0) {
            rc = wheel(false, dxQ8 > 0 ? stepsX : -stepsX);
        }
        return rc;
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
        if (down == keyDown[keyCode]) {
            // Pressed twice, or released while not held: mutter refuses the event, and a dead
            // predecessor's keys were released by mutter when its session closed (D33).
            return closed || broken ? ResultCode.PLATFORM_BACKEND : ResultCode.PLATFORM_OK;
        }
        final int rc = call(() -> session.keycode(new UInt32(keyCode - EVDEV_OFFSET), down));
        if (rc == ResultCode.PLATFORM_OK) {
            keyDown[keyCode] = down;
        }
        return rc;
    }

    @Override
    public int typeText(final byte[] utf8, final int offset, final int length, final HeldInputRecorder recorder) {
        if (offset < 0 || length < 0 || offset > utf8.length - length || length > MAX_TEXT_CHARS * 4) {
            return ResultCode.PLATFORM_INVALID_ARGUMENT;
        }
        if (closed || broken) {
            return ResultCode.PLATFORM_BACKEND;
        }
        final CharBuffer chars = keys.decode(utf8, offset, length);
        if (chars == null) {
            return ResultCode.PLATFORM_UNSUPPORTED;
        }
        for (int i = 0; i < chars.limit(); ) {
            final int cp = Character.codePointAt(chars, i);
            i += Character.charCount(cp);
            final int keysym = TextKeysyms.of(cp, Keymap::keysymOf);
            if (keysym == 0 || layout != null && !layout.hasKeysym(keysym)) {
                return ResultCode.PLATFORM_UNSUPPORTED;
            }
        }
        for (int i = 0; i < chars.limit(); ) {
            final int cp = Character.codePointAt(chars, i);
            i += Character.charCount(cp);
            if (cp == '\r' && i < chars.limit() && chars.get(i) == '\n') {
                i++; // CR LF is one Return
            }
            final UInt32 keysym = new UInt32(TextKeysyms.of(cp, Keymap::keysymOf));
            // A keysym's press and release go out back to back; mutter picks the key (and the
            // level's modifiers) on the session's layout, and releases it if this process dies
            // in between, so the ledger, which counts key codes, is not told of it.
            int rc = call(() -> session.keysym(keysym, true));
            final int up = call(() -> session.keysym(keysym, false));
            if (rc == ResultCode.PLATFORM_OK) {
                rc = up;
            }
            if (rc != ResultCode.PLATFORM_OK) {
                return rc;
            }
        }
        return ResultCode.PLATFORM_OK;
    }

    @Override
    public int restoreKeymap(final long nowNs, final boolean force, final HeldInputRecorder recorder) {
        return closed || broken ? ResultCode.PLATFORM_BACKEND : 0; // no key code is ever rebound
    }

    @Override
    public int unbindKeyCode(final int keyCode) {
        return ResultCode.PLATFORM_OK;
    }

    @Override
    public int activateWindow(final long windowId) {
        if (closed || broken) {
            return ResultCode.PLATFORM_BACKEND;
        }
        try {
            return shell.activate(new UInt64(windowId)) ? ResultCode.PLATFORM_OK : ResultCode.PLATFORM_NOT_FOUND;
        } catch (final DBusExecutionException e) {
            return ResultCode.PLATFORM_UNSUPPORTED; // the extension is not enabled
        }
    }

    @Override
    public int cycleWindow(final boolean backward) {
        return ResultCode.PLATFORM_UNSUPPORTED;
    }

    /** Every call already waited for mutter's reply. */
    @Override
    public int flush() {
        return closed || broken ? ResultCode.PLATFORM_BACKEND : ResultCode.PLATFORM_OK;
    }

    @Override
    public int sync() {
        return flush();
    }

    @Override
    public int queryPointer(final PointerState into) {
        if (closed || broken) {
            return ResultCode.PLATFORM_BACKEND;
        }
        into.set(x, y, buttons, (keyDown[SHIFT_L] ? Modifier.SHIFT : 0) | (keyDown[CONTROL_L] ? Modifier.CONTROL : 0)
            | (keyDown[ALT_L] ? Modifier.ALT : 0) | (keyDown[SUPER_L] ? Modifier.META : 0));
        return ResultCode.PLATFORM_OK;
    }

    @Override
    public int queryKeymap(final byte[] keys32) {
        if (keys32.length < 32) {
            return ResultCode.PLATFORM_INVALID_ARGUMENT;
        }
        if (closed || broken) {
            return ResultCode.PLATFORM_BACKEND;
        }
        keys.pack(keys32);
        return ResultCode.PLATFORM_OK;
    }

    /** Releases whatever this backend holds, stops the session and disconnects. */
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
            call(session::stop);
        }
        if (layout != null) {
            layout.close();
        }
        if (!broken) {
            bus.disconnect(); // a lost session's connection is closed already
        }
        closed = true;
    }
}
