package dev.saccade.helper;

import dev.saccade.helper.backend.HeldInputRecorder;
import dev.saccade.helper.backend.InputBackend;
import dev.saccade.ipc.link.HeldInputLedger;
import dev.saccade.protocol.ResultCode;

/**
 * The release procedure over a {@link HeldInputLedger}: lets go of everything the ledger says is
 * held through an {@link InputBackend}, then marks the ledger released. The ledger itself (in
 * {@code ipc-shared}, so the owner can read it too) only holds state.
 */
public final class LedgerRelease {
    private LedgerRelease() {
    }

    /**
     * Releases everything {@code ledger} holds through {@code backend}, in reverse order of how
     * input is pressed: buttons (incl. wheel), then plain keys by ascending key code, then
     * modifiers META, ALT, CONTROL, SHIFT; then resets rebound key codes and syncs. On success the
     * ledger is emptied, the lease cleared and physical_sequence incremented
     * ({@link HeldInputLedger#markReleased()}). On the first failure the ledger stays as it is
     * (another releaser may retry) and the code is returned, unless the backend's input session
     * ended with what it held ({@link InputBackend#heldInputEnded()}, D56): then nothing is held
     * any more and the ledger is marked released all the same.
     *
     * <p>Works on a ledger whose writer died, from any process with its own backend connection.
     * Allocates nothing.
     */
    public static int releaseAll(final HeldInputLedger ledger, final InputBackend backend) {
        final int rc = backend.heldInputEnded() ? ResultCode.PLATFORM_BACKEND : releaseEach(ledger, backend);
        if (rc != ResultCode.PLATFORM_OK && backend.heldInputEnded()) {
            ledger.markReleased();
            return ResultCode.PLATFORM_OK;
        }
        return rc;
    }

    private static int releaseEach(final HeldInputLedger ledger, final InputBackend backend) {
        final int held = ledger.buttons();
        for (int bit = 1; bit <= InputBackend.WHEEL_RIGHT; bit <<= 1) {
            if ((held & bit) != 0) {
                final int rc = backend.button(bit, false);
                if (rc != ResultCode.PLATFORM_OK) {
                    return rc;
                }
            }
        }
        for (int keyCode = 1; keyCode <= HeldInputLedger.MAX_KEY_CODE; keyCode++) {
            if (ledger.isKeyHeld(keyCode) && !ledger.isModifierKeyCode(keyCode)) {
                final int rc = backend.keyCode(keyCode, false);
                if (rc != ResultCode.PLATFORM_OK) {
                    return rc;
                }
            }
        }
        for (int index = 3; index >= 0; index--) {
            final int keyCode = ledger.modifierKeyCodeAt(index);
            if (keyCode != 0) {
                final int rc = backend.keyCode(keyCode, false);
                if (rc != ResultCode.PLATFORM_OK) {
                    return rc;
                }
            }
        }
        for (int keyCode = 1; keyCode <= HeldInputLedger.MAX_KEY_CODE; keyCode++) {
            if (ledger.isKeyCodeBound(keyCode)) {
                final int rc = backend.unbindKeyCode(keyCode);
                if (rc != ResultCode.PLATFORM_OK) {
                    return rc;
                }
            }
        }
        final int rc = backend.sync();
        if (rc != ResultCode.PLATFORM_OK) {
            return rc;
        }
        ledger.markReleased();
        return ResultCode.PLATFORM_OK;
    }

    /** A {@link HeldInputRecorder} that records into {@code ledger}. */
    public static HeldInputRecorder recorder(final HeldInputLedger ledger) {
        return new HeldInputRecorder() {
            @Override
            public void keyDown(final int keyCode) {
                ledger.keyDown(keyCode);
            }

            @Override
            public void keyUp(final int keyCode) {
                ledger.keyUp(keyCode);
            }

            @Override
            public void keyCodeBound(final int keyCode) {
                ledger.keyCodeBound(keyCode);
            }

            @Override
            public void keyCodeRestored(final int keyCode) {
                ledger.keyCodeRestored(keyCode);
            }
        };
    }
}
