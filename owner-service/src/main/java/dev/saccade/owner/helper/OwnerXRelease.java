package dev.saccade.owner.helper;

import com.sun.jna.NativeLong;
import com.sun.jna.platform.unix.X11;
import dev.saccade.ipc.link.HeldInputLedger;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.ResultCode;

/**
 * The owner's release of a lost helper's input: over a short-lived X connection of its own,
 * XTest button releases for every button and key releases for every key code the helper's
 * {@link HeldInputLedger} says is held, then {@code XSync}. Release only: rebound key codes are
 * not restored and nothing else changes (the replacement helper restores the keymap at its
 * start). The X server does not release XTest input when the client that pressed it dies, so
 * this is what lets go of a killed helper's held input.
 *
 * <p>Called on the launcher's thread, never the owner thread.
 */
final class OwnerXRelease {
    private static final NativeLong NO_DELAY = new NativeLong(0);

    private OwnerXRelease() {
    }

    /** A {@code wayland:<socket>} display (docs/architecture.md, "Release paths of held input": the replacement releases). */
    private static boolean isWayland(final String display) {
        return display != null && display.startsWith("wayland:");
    }

    /**
     * Loads libX11 and libXtst and binds the calls {@link #release} makes (a release that fakes
     * nothing), so that the first real release after a helper's death pays no loading.
     */
    static void warmUp(final String display) {
        if (isWayland(display)) {
            return;
        }
        try {
            final X11.Display d = X11.INSTANCE.XOpenDisplay(display);
            if (d != null) {
                X11.INSTANCE.XSync(d, false);
                X11.INSTANCE.XCloseDisplay(d);
            }
            X11.XTest.INSTANCE.hashCode();
        } catch (final RuntimeException | LinkageError e) {
            // Reported by the real release, if it ever runs.
        }
    }

    /**
     * Releases what {@code ledger} (a stable copy of the lost helper's region) says is held.
     *
     * @return PLATFORM_OK, or PLATFORM_BACKEND if the display could not be opened or a request failed.
     */
    static int release(final String display, final HeldInputLedger ledger) {
        if (isWayland(display)) {
            // No X server to ask: the replacement helper, whose ledger is seeded with this one,
            // releases it over its own virtual keyboard and pointer at its start.
            return ResultCode.PLATFORM_UNSUPPORTED;
        }
        final X11 x = X11.INSTANCE;
        final X11.Display d = x.XOpenDisplay(display);
        if (d == null) {
            return ResultCode.PLATFORM_BACKEND;
        }
        try {
            final X11.XTest xtest = X11.XTest.INSTANCE;
            final int[] failed = {0};
            final int buttons = ledger.buttons();
            for (int bit = 1; bit <= HeldInputLedger.WHEEL_RIGHT; bit <<= 1) {
                final int xButton = xButton(bit);
                if ((buttons & bit) != 0 && xButton != 0 && xtest.XTestFakeButtonEvent(d, xButton, false, NO_DELAY) == 0) {
                    failed[0]++;
                }
            }
            ledger.forEachHeldPlainKey(keyCode -> {
                if (xtest.XTestFakeKeyEvent(d, keyCode, false, NO_DELAY) == 0) {
                    failed[0]++;
                }
            });
            for (int index = 3; index >= 0; index--) { // META, ALT, CONTROL, SHIFT
                final int keyCode = ledger.modifierKeyCodeAt(index);
                if (keyCode != 0 && xtest.XTestFakeKeyEvent(d, keyCode, false, NO_DELAY) == 0) {
                    failed[0]++;
                }
            }
            x.XSync(d, false);
            return failed[0] == 0 ? ResultCode.PLATFORM_OK : ResultCode.PLATFORM_BACKEND;
        } finally {
            x.XCloseDisplay(d);
        }
    }

    /** The X button of a ledger button bit, 0 for none. */
    static int xButton(final int buttonBit) {
        switch (buttonBit) {
            case Button.LEFT: return 1;
            case Button.MIDDLE: return 2;
            case Button.RIGHT: return 3;
            case HeldInputLedger.WHEEL_UP: return 4;
            case HeldInputLedger.WHEEL_DOWN: return 5;
            case HeldInputLedger.WHEEL_LEFT: return 6;
            case HeldInputLedger.WHEEL_RIGHT: return 7;
            default: return 0;
        }
    }
}
