package dev.saccade.helper.backend;

import dev.saccade.protocol.Button;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.ResultCode;

/**
 * The one way the input helper emits input on a platform (XTest on X11 first). Platform-neutral:
 * every method returns a platform code of {@link ResultCode} ({@code PLATFORM_OK} 0, or a negative
 * {@code PLATFORM_*}); none throws for bad input or a failed native call.
 *
 * <h2>Units</h2>
 * <ul>
 *   <li>Pointer coordinates are integer <b>desktop pixels</b> (the X root window's coordinates).
 *       Plans carry Q8 (1/256 px); convert with {@link #pixelOfQ8(int)}, which floors, so a Q8
 *       point inside a target's rectangle stays inside its pixel rectangle. The server clamps
 *       points outside the desktop; the planner has already refused them (spec §5.9).</li>
 *   <li>Scroll deltas stay Q8: {@link #Q8_PER_WHEEL_STEP} (256, one desktop unit) is one wheel
 *       notch, rounded to the nearest notch, and a non-zero delta is at least one notch (see
 *       {@link #wheelSteps(int)}). Positive y scrolls down, positive x right.</li>
 *   <li>Keys are <b>platform key codes</b> (X11: 8..255) found from USB HID keyboard-page usages
 *       by {@link #keyCodeOf(int)} through the platform's current keymap; {@link #key(int, boolean)}
 *       combines both. Key codes are what {@link dev.saccade.ipc.link.HeldInputLedger} records, because releasing a key
 *       later must not depend on the keymap still being the same.</li>
 * </ul>
 *
 * <h2>Buffering</h2>
 * Emitting methods may buffer: {@link #flush()} hands everything to the platform (the events can
 * no longer be lost if this process dies), {@link #sync()} waits until the platform has processed
 * them. {@link dev.saccade.helper.GuardedBackend} flushes after every release before it forgets a held key.
 *
 * <p>An implementation is confined to one thread (the helper thread) unless it says otherwise.
 * Nothing pressed through a raw backend is recorded: the helper wraps it in a
 * {@link dev.saccade.helper.GuardedBackend}, whose {@link dev.saccade.ipc.link.HeldInputLedger} sees every press.
 */
public interface InputBackend extends AutoCloseable {
    /** Wheel pseudo-buttons (X11 buttons 4..7): pressed and released by {@link #scroll}, held only in between. */
    int WHEEL_UP = 0x100;
    int WHEEL_DOWN = 0x200;
    int WHEEL_LEFT = 0x400;
    int WHEEL_RIGHT = 0x800;
    /** {@link Button} bits and wheel pseudo-buttons: every button bit a ledger may hold. */
    int ALL_BUTTONS = Button.LEFT | Button.RIGHT | Button.MIDDLE | WHEEL_UP | WHEEL_DOWN | WHEEL_LEFT | WHEEL_RIGHT;

    /** One wheel notch per desktop unit of scroll delta. */
    int Q8_PER_WHEEL_STEP = 256;
    /** More notches than this on one axis is refused (PLATFORM_INVALID_ARGUMENT) before anything is emitted. */
    int MAX_WHEEL_STEPS = 1_000;

    /** Moves the pointer to desktop pixel (x, y). */
    int movePointer(int x, int y);

    /**
     * Presses or releases one button at the pointer: exactly one of {@link Button#LEFT},
     * {@link Button#RIGHT}, {@link Button#MIDDLE} or a wheel pseudo-button; anything else is
     * PLATFORM_INVALID_ARGUMENT.
     */
    int button(int buttonBit, boolean down);

    /**
     * Scrolls by Q8 deltas: vertical notches first, then horizontal, each a press and release of
     * a wheel button. PLATFORM_INVALID_ARGUMENT, before any event, if either axis exceeds
     * {@link #MAX_WHEEL_STEPS}. Zero on both axes does nothing.
     */
    int scroll(int dxQ8, int dyQ8);

    /**
     * The key code of a HID keyboard-page usage in the current keymap, for the usages spec §5.10
     * accepts; PLATFORM_UNSUPPORTED for any other usage or one the keymap cannot produce.
     */
    int keyCodeOf(int hidUsage);

    /**
     * {@link #keyCodeOf(int)} that may bind a spare key code to the usage's symbol when the
     * layout lacks it, telling {@code recorder} of the binding first; backends that cannot bind
     * answer as {@link #keyCodeOf(int)}.
     */
    default int keyCodeOf(final int hidUsage, final HeldInputRecorder recorder) {
        return keyCodeOf(hidUsage);
    }

    /**
     * The key code of a modifier bit ({@link Modifier}: SHIFT Left Shift, CONTROL Left Control,
     * ALT Left Alt, META Left GUI/Super); PLATFORM_UNSUPPORTED if the keymap lacks it,
     * PLATFORM_INVALID_ARGUMENT unless exactly one bit of {@link Modifier#ALL}.
     */
    int keyCodeOfModifier(int modifierBit);

    /** Presses or releases a key by key code; PLATFORM_INVALID_ARGUMENT outside the platform's range. */
    int keyCode(int keyCode, boolean down);

    /** Presses or releases a key by HID usage; PLATFORM_UNSUPPORTED, and no event, if unmappable. */
    default int key(final int hidUsage, final boolean down) {
        final int keyCode = keyCodeOf(hidUsage);
        return keyCode < 0 ? keyCode : keyCode(keyCode, down);
    }

    /** Presses or releases one modifier ({@link Modifier} bit). */
    default int modifier(final int modifierBit, final boolean down) {
        final int keyCode = keyCodeOfModifier(modifierBit);
        return keyCode < 0 ? keyCode : keyCode(keyCode, down);
    }

    /**
     * Presses (SHIFT, CONTROL, ALT, META) or releases (META, ALT, CONTROL, SHIFT) every modifier
     * in {@code modifierBits}, the order of spec §5.8; stops at the first failure.
     */
    default int modifiers(final int modifierBits, final boolean down) {
        if ((modifierBits & ~Modifier.ALL) != 0) {
            return ResultCode.PLATFORM_INVALID_ARGUMENT;
        }
        for (int i = 0; i < 4; i++) {
            final int bit = down ? 1 << i : 1 << (3 - i);
            if ((modifierBits & bit) != 0) {
                final int rc = modifier(bit, down);
                if (rc != ResultCode.PLATFORM_OK) {
                    return rc;
                }
            }
        }
        return ResultCode.PLATFORM_OK;
    }

    /**
     * Types strict UTF-8 text of any Unicode: each character as a press and release of the key
     * that produces it (with Shift when it is the key's second level). Characters the keymap
     * lacks are typed through spare key codes bound to their keysyms for the purpose; those
     * bindings are undone by {@link #restoreKeymap}. Not strict UTF-8, or a control character
     * other than tab, newline, carriage return (CR LF counts once), backspace, escape and delete:
     * PLATFORM_UNSUPPORTED before any event.
     *
     * @param recorder told of every key code before it goes down, of every key code after its
     *                 release was flushed, and of every binding made; {@link HeldInputRecorder#NONE}
     *                 for none.
     */
    int typeText(byte[] utf8, int offset, int length, HeldInputRecorder recorder);

    /** {@link #typeText(byte[], int, int, HeldInputRecorder)} recording nothing. */
    default int typeText(final byte[] utf8, final int offset, final int length) {
        return typeText(utf8, offset, length, HeldInputRecorder.NONE);
    }

    /**
     * Undoes the key code bindings {@link #typeText} made. A binding must outlive the key events
     * that use it until the receiving client has translated them (clients look the keymap up
     * lazily), so only bindings unused for the backend's grace period are undone, unless
     * {@code force}.
     *
     * @return how many bindings remain (≥ 0), or a negative platform code.
     */
    int restoreKeymap(long nowNs, boolean force, HeldInputRecorder recorder);

    /**
     * Resets a key code to no symbols: for bindings a dead helper left behind, found in its
     * {@link dev.saccade.ipc.link.HeldInputLedger}.
     */
    int unbindKeyCode(int keyCode);

    /** Asks the window manager to activate a top-level window (X11: EWMH _NET_ACTIVE_WINDOW, source 2). */
    int activateWindow(long windowId);

    /**
     * Activates the next window (alt-tab order: the one just below the active window in the
     * window manager's stacking order), or with {@code backward} the previous one.
     */
    int cycleWindow(boolean backward);

    /** Hands every buffered event to the platform. */
    int flush();

    /**
     * The window the window manager reports active, 0 if none, or -1 when this backend cannot
     * tell (callers then do not wait for focus).
     */
    default long activeWindow() {
        return -1;
    }

    /**
     * The longest time between two presses that toolkits join into a double (or triple) click, in
     * ms: the desktop's setting where there is one (X11: XSETTINGS Net/DoubleClickTime), else
     * {@link MultiClickGuard#DEFAULT_TIME_MS}.
     */
    default int doubleClickTimeMs() {
        return MultiClickGuard.DEFAULT_TIME_MS;
    }

    /**
     * The farthest two presses may lie apart, in pixels along each axis, and still make a double
     * click (X11: XSETTINGS Net/DoubleClickDistance), else {@link MultiClickGuard#DEFAULT_DISTANCE_PX}.
     */
    default int doubleClickDistancePx() {
        return MultiClickGuard.DEFAULT_DISTANCE_PX;
    }

    /**
     * Whether another client holds an active pointer grab now (X11: our XGrabPointer fails with
     * AlreadyGrabbed; when it succeeds it is let go at once); 1 grabbed, 0 not, -1 when the platform
     * cannot tell. A toolkit's drag-and-drop grabs the pointer until it has processed the
     * release: {@link dev.saccade.helper.DragPacer}.
     */
    default int pointerGrabbedElsewhere() {
        return -1;
    }

    /**
     * The modifiers other input (the user's keyboard, another client) holds as the current plan
     * starts (ABI {@code Modifier} bits, D23): text typed next must come out as asked with them
     * down and must neither press nor release them (D24). Backends that cannot see them ignore it.
     */
    default void othersHold(final int modifiers) {
    }

    /**
     * Something to run now and then while a call waits (typing that must pace its key code
     * bindings): the helper's heartbeat, so its owner does not take it for hung.
     */
    default void duringWaits(final Runnable beat) {
    }

    /** Flushes and waits until the platform has processed every event (X11: XSync). */
    int sync();

    /**
     * Whether this backend's input session ended, and everything it pressed ended with it, so
     * nothing it pressed can still be held (mutter's RemoteDesktop session, whose devices mutter
     * releases when their connection ends, D56). False by default: an X server or KWin keeps a
     * dead client's keys and buttons down, and only a release sent again lets them go.
     */
    default boolean heldInputEnded() {
        return false;
    }

    /** Reads the platform's pointer: position in desktop pixels, held buttons and modifiers, whoever holds them. */
    int queryPointer(PointerState into);

    /** Reads the platform's keyboard: 32 bytes, bit k set while key code k is down (X11: XQueryKeymap). */
    int queryKeymap(byte[] keys32);

    /** Closes the platform connection. Holds nothing back: release first (see {@link dev.saccade.helper.GuardedBackend#close()}). */
    @Override
    void close();

    /** Desktop pixel of a Q8 coordinate, rounding towards negative infinity. */
    static int pixelOfQ8(final int q8) {
        return q8 >> 8;
    }

    /**
     * Wheel notches for a Q8 delta: |delta| / 256 rounded half up, at least 1 for a non-zero
     * delta, 0 for zero; the sign is the caller's.
     */
    static int wheelSteps(final int deltaQ8) {
        if (deltaQ8 == 0) {
            return 0;
        }
        final long magnitude = Math.abs((long) deltaQ8);
        return (int) Math.max(1, (magnitude + Q8_PER_WHEEL_STEP / 2) / Q8_PER_WHEEL_STEP);
    }
}
