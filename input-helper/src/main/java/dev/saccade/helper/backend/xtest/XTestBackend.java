package dev.saccade.helper.backend.xtest;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.saccade.helper.backend.BackendUnavailableException;
import dev.saccade.helper.backend.HeldInputRecorder;
import dev.saccade.helper.backend.InputBackend;
import dev.saccade.helper.backend.MultiClickGuard;
import dev.saccade.helper.backend.PointerState;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.ResultCode;
import dev.saccade.x11.Xlib;
import java.util.concurrent.TimeUnit;

/**
 * {@link InputBackend} for X11 through the XTEST extension, on its own Display connection. Events
 * are buffered by Xlib until {@link #flush()} or {@link #sync()} (or a full buffer); the X server
 * then injects them through the "Virtual core XTEST" slave devices, which is how
 * {@link UserInputMonitor} tells them from real input.
 *
 * <ul>
 *   <li>Buttons: LEFT 1, MIDDLE 2, RIGHT 3; wheel up/down/left/right 4/5/6/7.</li>
 *   <li>Keys: HID usage → keysym ({@link HidKeysyms}) → key code from a snapshot of the core
 *       keymap ({@link KeyboardMapping}), refreshed when a mapping event arrives.</li>
 *   <li>Text: {@link TextTyper}; its key code bindings are undone by {@link #restoreKeymap} once
 *       unused for {@link XTestConfiguration#BINDING_GRACE_MS_DEFAULT} ms, and by {@link #close()}.</li>
 *   <li>Windows: {@link EwmhWindows}.</li>
 * </ul>
 *
 * <p>Xlib protocol errors and a lost connection never end the process ({@link XErrorTrap}): the
 * next {@link #sync()} answers PLATFORM_BACKEND. Confined to one thread (the helper thread);
 * {@link #close()} too.
 */
public final class XTestBackend implements InputBackend {
    // XGrabPointer's modes and answers (X.h)
    private static final int GRAB_MODE_ASYNC = 1;
    private static final int GRAB_SUCCESS = 0;
    private static final int ALREADY_GRABBED = 1;
    private static final int GRAB_FROZEN = 4;
    private final long display;
    private final int screen;
    private final long root;
    private final int trapSlot;
    private final KeyboardMapping mapping;
    private final TextTyper typer;
    private final EwmhWindows windows;
    private final XSettings settings;
    private final Memory event = new Memory(Xlib.XEVENT_SIZE);
    private final long[] rootReturn = new long[1];
    private final long[] childReturn = new long[1];
    private final int[] rootX = new int[1];
    private final int[] rootY = new int[1];
    private final int[] winX = new int[1];
    private final int[] winY = new int[1];
    private final int[] mask = new int[1];
    private long errorsSeen;
    private boolean closed;

    private XTestBackend(final long display, final int trapSlot, final long bindingGraceNs) {
        this.display = display;
        this.trapSlot = trapSlot;
        this.screen = Xlib.X11.XDefaultScreen(display);
        this.root = Xlib.X11.XDefaultRootWindow(display);
        this.mapping = new KeyboardMapping(display);
        this.typer = new TextTyper(display, trapSlot, mapping, bindingGraceNs);
        this.windows = new EwmhWindows(display, root);
        this.settings = new XSettings(display, screen);
    }

    /** Connects with the default grace period (or {@link XTestConfiguration#BINDING_GRACE_MS_PROP_NAME}). */
    public static XTestBackend open(final String displayName) throws BackendUnavailableException {
        return open(displayName, TimeUnit.MILLISECONDS.toNanos(XTestConfiguration.bindingGraceMs()));
    }

    /**
     * Connects to {@code displayName} (null: $DISPLAY) and checks the XTEST extension.
     *
     * @param bindingGraceNs how long a key code binding made for typing stays after its last use.
     */
    public static XTestBackend open(final String displayName, final long bindingGraceNs)
        throws BackendUnavailableException {
        if (bindingGraceNs < 0) {
            throw new IllegalArgumentException("bindingGraceNs < 0: " + bindingGraceNs);
        }
        final long display;
        try {
            XErrorTrap.install();
            display = Xlib.X11.XOpenDisplay(displayName);
        } catch (final UnsatisfiedLinkError e) {
            throw new BackendUnavailableException("libX11, libXtst or libXi is missing", e);
        }
        if (display == 0) {
            throw new BackendUnavailableException("cannot open X display " + describe(displayName));
        }
        final int slot = XErrorTrap.register(display);
        try {
            final int[] a = new int[1];
            final int[] b = new int[1];
            final int[] major = new int[1];
            final int[] minor = new int[1];
            if (Xlib.Xtst.XTestQueryExtension(display, a, b, major, minor) == 0) {
                throw new BackendUnavailableException("X display " + describe(displayName) + " has no XTEST extension");
            }
            final XTestBackend backend = new XTestBackend(display, slot, bindingGraceNs);
            if (backend.mapping.refresh() != ResultCode.PLATFORM_OK) {
                throw new BackendUnavailableException("cannot read the keyboard mapping of " + describe(displayName));
            }
            return backend;
        } catch (final BackendUnavailableException | RuntimeException | UnsatisfiedLinkError e) {
            XErrorTrap.unregister(slot);
            Xlib.X11.XCloseDisplay(display);
            if (e instanceof UnsatisfiedLinkError) {
                throw new BackendUnavailableException("libXtst is missing", e);
            }
            throw e;
        }
    }

    @Override
    public int movePointer(final int x, final int y) {
        if (closed || XErrorTrap.isLost(trapSlot)) {
            return ResultCode.PLATFORM_BACKEND;
        }
        return ok(Xlib.Xtst.XTestFakeMotionEvent(display, screen, x, y, 0));
    }

    @Override
    public int button(final int buttonBit, final boolean down) {
        final int xButton = xButton(buttonBit);
        if (xButton == 0) {
            return ResultCode.PLATFORM_INVALID_ARGUMENT;
        }
        if (closed || XErrorTrap.isLost(trapSlot)) {
            return ResultCode.PLATFORM_BACKEND;
        }
        return ok(Xlib.Xtst.XTestFakeButtonEvent(display, xButton, down ? 1 : 0, 0));
    }

    @Override
    public int scroll(final int dxQ8, final int dyQ8) {
        final int stepsY = InputBackend.wheelSteps(dyQ8);
        final int stepsX = InputBackend.wheelSteps(dxQ8);
        if (stepsY > MAX_WHEEL_STEPS || stepsX > MAX_WHEEL_STEPS) {
            return ResultCode.PLATFORM_INVALID_ARGUMENT;
        }
        if (closed || XErrorTrap.isLost(trapSlot)) {
            return ResultCode.PLATFORM_BACKEND;
        }
        final int buttonY = dyQ8 > 0 ? 5 : 4;
        final int buttonX = dxQ8 > 0 ? 7 : 6;
        int status = 1;
        for (int i = 0; i < stepsY; i++) {
            status &= Xlib.Xtst.XTestFakeButtonEvent(display, buttonY, 1, 0);
            status &= Xlib.Xtst.XTestFakeButtonEvent(display, buttonY, 0, 0);
        }
        for (int i = 0; i < stepsX; i++) {
            status &= Xlib.Xtst.XTestFakeButtonEvent(display, buttonX, 1, 0);
            status &= Xlib.Xtst.XTestFakeButtonEvent(display, buttonX, 0, 0);
        }
        return ok(status);
    }

    @Override
    public int keyCodeOf(final int hidUsage) {
        return keyCodeOf(hidUsage, null);
    }

    /**
     * The key that types the usage's US symbol alone in the active layout and group (agent-abi
     * §5.10): looked up in the keymap as it is now (mapping events are read first, the group asked
     * for); a printable symbol the group lacks, or has only with Shift or AltGr, gets a spare key
     * code bound to it when {@code recorder} can record the binding. Modifiers and Caps Lock are
     * never bound: a bound key would not be a modifier.
     */
    @Override
    public int keyCodeOf(final int hidUsage, final HeldInputRecorder recorder) {
        final int keysym = HidKeysyms.keysym(hidUsage);
        if (keysym == 0) {
            return ResultCode.PLATFORM_UNSUPPORTED;
        }
        if (closed || XErrorTrap.isLost(trapSlot)) {
            return ResultCode.PLATFORM_BACKEND;
        }
        drainQueuedEvents();
        final int rc = mapping.ensureFresh();
        if (rc != ResultCode.PLATFORM_OK) {
            return rc;
        }
        int keyCode = mapping.plainKeyCode(keysym);
        if (keyCode == KeyboardMapping.NOT_FOUND && HidKeysyms.fallback(hidUsage) != 0) {
            keyCode = mapping.plainKeyCode(HidKeysyms.fallback(hidUsage));
        }
        if (keyCode == KeyboardMapping.NOT_FOUND && keysym < 0x100 && recorder != null) {
            return typer.keyCodeFor(keysym, recorder);
        }
        return keyCode == KeyboardMapping.NOT_FOUND ? ResultCode.PLATFORM_UNSUPPORTED : keyCode;
    }

    @Override
    public int keyCodeOfModifier(final int modifierBit) {
        if (Integer.bitCount(modifierBit) != 1 || (modifierBit & Modifier.ALL) == 0) {
            return ResultCode.PLATFORM_INVALID_ARGUMENT;
        }
        return keyCodeOf(HidKeysyms.MODIFIER_USAGES[Integer.numberOfTrailingZeros(modifierBit)]);
    }

    @Override
    public int keyCode(final int keyCode, final boolean down) {
        if (keyCode < 8 || keyCode > 255) {
            return ResultCode.PLATFORM_INVALID_ARGUMENT;
        }
        if (closed || XErrorTrap.isLost(trapSlot)) {
            return ResultCode.PLATFORM_BACKEND;
        }
        return ok(Xlib.Xtst.XTestFakeKeyEvent(display, keyCode, down ? 1 : 0, 0));
    }

    @Override
    public int typeText(final byte[] utf8, final int offset, final int length, final HeldInputRecorder recorder) {
        if (closed || XErrorTrap.isLost(trapSlot)) {
            return ResultCode.PLATFORM_BACKEND;
        }
        drainQueuedEvents();
        return typer.type(utf8, offset, length, recorder);
    }

    @Override
    public void othersHold(final int modifiers) {
        typer.othersHoldShift((modifiers & Modifier.SHIFT) != 0);
    }

    @Override
    public void duringWaits(final Runnable beat) {
        typer.beat(beat);
    }

    @Override
    public int restoreKeymap(final long nowNs, final boolean force, final HeldInputRecorder recorder) {
        if (closed || XErrorTrap.isLost(trapSlot)) {
            return ResultCode.PLATFORM_BACKEND;
        }
        return typer.restore(nowNs, force, recorder);
    }

    @Override
    public int unbindKeyCode(final int keyCode) {
        if (closed || XErrorTrap.isLost(trapSlot)) {
            return ResultCode.PLATFORM_BACKEND;
        }
        return typer.unbind(keyCode);
    }

    @Override
    public int activateWindow(final long windowId) {
        if (closed || XErrorTrap.isLost(trapSlot)) {
            return ResultCode.PLATFORM_BACKEND;
        }
        final int rc = windows.activate(windowId, windows.activeWindow());
        return rc == ResultCode.PLATFORM_OK ? flush() : rc;
    }

    @Override
    public int cycleWindow(final boolean backward) {
        if (closed || XErrorTrap.isLost(trapSlot)) {
            return ResultCode.PLATFORM_BACKEND;
        }
        final int rc = windows.cycle(backward);
        return rc == ResultCode.PLATFORM_OK ? flush() : rc;
    }

    @Override
    public int pointerGrabbedElsewhere() {
        if (closed || XErrorTrap.isLost(trapSlot)) {
            return -1;
        }
        // no events selected, asynchronous: for the moment it is ours, the pointer's events go nowhere
        final int status = Xlib.X11.XGrabPointer(display, root, 0, 0, GRAB_MODE_ASYNC, GRAB_MODE_ASYNC, 0, 0, 0);
        if (status == GRAB_SUCCESS) {
            Xlib.X11.XUngrabPointer(display, 0);
            Xlib.X11.XFlush(display);
            return 0;
        }
        return status == ALREADY_GRABBED || status == GRAB_FROZEN ? 1 : -1;
    }

    @Override
    public int doubleClickTimeMs() {
        return closed || XErrorTrap.isLost(trapSlot) ? MultiClickGuard.DEFAULT_TIME_MS : readSettings(true);
    }

    @Override
    public int doubleClickDistancePx() {
        return closed || XErrorTrap.isLost(trapSlot) ? MultiClickGuard.DEFAULT_DISTANCE_PX : readSettings(false);
    }

    /**
     * One XSETTINGS value. The manager's window can vanish between finding it and reading it: a
     * BadWindow then must not fail the plan at its sync, so errors during the read are counted as
     * seen.
     */
    private int readSettings(final boolean time) {
        final long before = XErrorTrap.errors(trapSlot);
        final long now = System.nanoTime();
        final int value = time ? settings.doubleClickTimeMs(now) : settings.doubleClickDistancePx(now);
        errorsSeen += XErrorTrap.errors(trapSlot) - before; // both are round trips: their errors are in by now
        return value;
    }

    /** The root's _NET_ACTIVE_WINDOW (0 if none), read over this connection. */
    public long activeWindow() {
        return closed || XErrorTrap.isLost(trapSlot) ? 0 : windows.activeWindow();
    }

    @Override
    public int flush() {
        if (closed || XErrorTrap.isLost(trapSlot)) {
            return ResultCode.PLATFORM_BACKEND;
        }
        Xlib.X11.XFlush(display);
        return XErrorTrap.isLost(trapSlot) ? ResultCode.PLATFORM_BACKEND : ResultCode.PLATFORM_OK;
    }

    @Override
    public int sync() {
        if (closed || XErrorTrap.isLost(trapSlot)) {
            return ResultCode.PLATFORM_BACKEND;
        }
        Xlib.X11.XSync(display, 0);
        drainQueuedEvents();
        return checkErrors();
    }

    @Override
    public int queryPointer(final PointerState into) {
        if (closed || XErrorTrap.isLost(trapSlot)) {
            return ResultCode.PLATFORM_BACKEND;
        }
        if (Xlib.X11.XQueryPointer(display, root, rootReturn, childReturn, rootX, rootY, winX, winY, mask) == 0
            && XErrorTrap.isLost(trapSlot)) {
            return ResultCode.PLATFORM_BACKEND;
        }
        final int state = mask[0];
        final int buttons = ((state & Xlib.BUTTON1_MASK) != 0 ? Button.LEFT : 0)
            | ((state & Xlib.BUTTON2_MASK) != 0 ? Button.MIDDLE : 0)
            | ((state & Xlib.BUTTON3_MASK) != 0 ? Button.RIGHT : 0);
        final int modifiers = ((state & Xlib.SHIFT_MASK) != 0 ? Modifier.SHIFT : 0)
            | ((state & Xlib.CONTROL_MASK) != 0 ? Modifier.CONTROL : 0)
            | ((state & Xlib.MOD1_MASK) != 0 ? Modifier.ALT : 0)
            | ((state & Xlib.MOD4_MASK) != 0 ? Modifier.META : 0);
        into.set(rootX[0], rootY[0], buttons, modifiers);
        return ResultCode.PLATFORM_OK;
    }

    @Override
    public int queryKeymap(final byte[] keys32) {
        if (keys32.length < 32) {
            return ResultCode.PLATFORM_INVALID_ARGUMENT;
        }
        if (closed || XErrorTrap.isLost(trapSlot)) {
            return ResultCode.PLATFORM_BACKEND;
        }
        Xlib.X11.XQueryKeymap(display, keys32);
        return XErrorTrap.isLost(trapSlot) ? ResultCode.PLATFORM_BACKEND : ResultCode.PLATFORM_OK;
    }

    /** Key code bindings made for typing that are still in place. */
    public int boundKeyCodeCount() {
        return typer.boundCount();
    }

    /** error_code | request_code &lt;&lt; 8 of the last X protocol error on this connection, 0 if none. */
    public int lastXError() {
        return XErrorTrap.lastError(trapSlot);
    }

    /** Undoes every key code binding at once, syncs, and disconnects. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (!XErrorTrap.isLost(trapSlot)) {
            typer.restore(System.nanoTime(), true, HeldInputRecorder.NONE);
            Xlib.X11.XSync(display, 0);
        }
        closed = true;
        Xlib.X11.XCloseDisplay(display);
        XErrorTrap.unregister(trapSlot);
    }

    @Override
    public String toString() {
        return "XTestBackend[display=0x" + Long.toHexString(display) + (closed ? ", closed" : "") + "]";
    }

    /**
     * Reads the events the connection has (mapping changes only: we select nothing), without
     * blocking: a layout switched by setxkbmap since our last round trip is seen before the next
     * key, not after it.
     */
    private void drainQueuedEvents() {
        while (Xlib.X11.XEventsQueued(display, Xlib.QUEUED_AFTER_READING) > 0) {
            Xlib.X11.XNextEvent(display, Pointer.nativeValue(event));
            if (event.getInt(0) == Xlib.MAPPING_NOTIFY) {
                Xlib.X11.XRefreshKeyboardMapping(Pointer.nativeValue(event));
            }
        }
    }

    private int checkErrors() {
        if (XErrorTrap.isLost(trapSlot)) {
            return ResultCode.PLATFORM_BACKEND;
        }
        final long errors = XErrorTrap.errors(trapSlot);
        if (errors != errorsSeen) {
            errorsSeen = errors;
            return ResultCode.PLATFORM_BACKEND;
        }
        return ResultCode.PLATFORM_OK;
    }

    private static int ok(final int xStatus) {
        return xStatus != 0 ? ResultCode.PLATFORM_OK : ResultCode.PLATFORM_BACKEND;
    }

    private static int xButton(final int buttonBit) {
        switch (buttonBit) {
            case Button.LEFT: return 1;
            case Button.MIDDLE: return 2;
            case Button.RIGHT: return 3;
            case WHEEL_UP: return 4;
            case WHEEL_DOWN: return 5;
            case WHEEL_LEFT: return 6;
            case WHEEL_RIGHT: return 7;
            default: return 0;
        }
    }

    private static String describe(final String displayName) {
        return displayName != null ? displayName : "$DISPLAY=" + System.getenv("DISPLAY");
    }
}
