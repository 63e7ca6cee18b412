package dev.saccade.owner.helper;

import dev.saccade.ipc.link.HeldInputLedger;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.ResultCode;
import dev.saccade.x11.Xlib.X11;
import dev.saccade.x11.Xlib.Xtst;

/**
 * The owner's release of a lost helper's input: over a short-lived X connection of its own,
 * XTest button releases for every button and key releases for every key code the helper's
 * {@link HeldInputLedger} says is held, then {@code XSync}. Release only: rebound key codes are
 * not restored and nothing else changes (the replacement helper restores the keymap at its
 * start). The X server does not release XTest input when the client that pressed it dies, so
 * this is what lets go of a killed helper's held input.
 *
 * <p>Its X calls are the {@code x11} module's binding ({@code Xlib}), the one the helper's XTest
 * backend uses. Called on the launcher's thread, never the owner thread.
 */
final class OwnerXRelease {
    private static final long NO_DELAY = 0;
    private static final int RELEASE = 0;

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
            final long d = X11.XOpenDisplay(display);
            if (d != 0) {
                X11.XSync(d, 0);
                X11.XCloseDisplay(d);
            }
            Xtst.load();
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
        final long d = X11.XOpenDisplay(display);
        if (d == 0) {
            return ResultCode.PLATFORM_BACKEND;
        }
        try {
            final int[] failed = {0};
            final int buttons = ledger.buttons();
            for (int bit = 1; bit <= HeldInputLedger.WHEEL_RIGHT; bit <<= 1) {
                final int xButton = xButton(bit);
                if ((buttons & bit) != 0 && xButton != 0 && Xtst.XTestFakeButtonEvent(d, xButton, RELEASE, NO_DELAY) == 0) {
                    failed[0]++;
                }
            }
            ledger.forEachHeldPlainKey(keyCode -> {
                if (Xtst.XTestFakeKeyEvent(d, keyCode, RELEASE, NO_DELAY) == 0) {
                    failed[0]++;
                }
            });
            for (int index = 3; index >= 0; index--) { // META, ALT, CONTROL, SHIFT
                final int keyCode = ledger.modifierKeyCodeAt(index);
                if (keyCode != 0 && Xtst.XTestFakeKeyEvent(d, keyCode, RELEASE, NO_DELAY) == 0) {
                    failed[0]++;
                }
            }
            X11.XSync(d, 0);
            return failed[0] == 0 ? ResultCode.PLATFORM_OK : ResultCode.PLATFORM_BACKEND;
        } finally {
            X11.XCloseDisplay(d);
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
