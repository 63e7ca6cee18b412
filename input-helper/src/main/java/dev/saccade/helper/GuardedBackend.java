package dev.saccade.helper;

import dev.saccade.helper.backend.HeldInputRecorder;
import dev.saccade.helper.backend.InputBackend;
import dev.saccade.helper.backend.PointerState;
import dev.saccade.ipc.link.HeldInputLedger;
import dev.saccade.protocol.ResultCode;

/**
 * An {@link InputBackend} that records every press in a {@link HeldInputLedger} before the press
 * is emitted and forgets it only after the release was flushed, so nothing can be held without
 * the ledger saying so, whatever kills the process in between. The helper executes plans only
 * through one of these.
 *
 * <p>Releases cost one flush each (a write to the X socket); typing and scrolling flush once per
 * call. Same thread confinement as the wrapped backend; the ledger has this one writer.
 */
public final class GuardedBackend implements InputBackend {
    private final InputBackend backend;
    private final HeldInputLedger ledger;
    private final HeldInputRecorder recorder;

    public GuardedBackend(final InputBackend backend, final HeldInputLedger ledger) {
        this.backend = backend;
        this.ledger = ledger;
        this.recorder = LedgerRelease.recorder(ledger);
    }

    public HeldInputLedger ledger() {
        return ledger;
    }

    /** The raw backend (records nothing); for reads and for releasing through the ledger. */
    public InputBackend backend() {
        return backend;
    }

    @Override
    public int movePointer(final int x, final int y) {
        return backend.movePointer(x, y);
    }

    @Override
    public int button(final int buttonBit, final boolean down) {
        if (Integer.bitCount(buttonBit) != 1 || (buttonBit & ALL_BUTTONS) == 0) {
            return ResultCode.PLATFORM_INVALID_ARGUMENT;
        }
        if (down) {
            ledger.buttonDown(buttonBit);
            return backend.button(buttonBit, true);
        }
        final int rc = backend.button(buttonBit, false);
        if (rc == ResultCode.PLATFORM_OK && backend.flush() == ResultCode.PLATFORM_OK) {
            ledger.buttonUp(buttonBit);
        }
        return rc;
    }

    @Override
    public int scroll(final int dxQ8, final int dyQ8) {
        final int wheel = (dyQ8 > 0 ? WHEEL_DOWN : dyQ8 < 0 ? WHEEL_UP : 0)
            | (dxQ8 > 0 ? WHEEL_RIGHT : dxQ8 < 0 ? WHEEL_LEFT : 0);
        if (wheel == 0) {
            return ResultCode.PLATFORM_OK;
        }
        ledger.buttonDown(wheel);
        final int rc = backend.scroll(dxQ8, dyQ8);
        if (backend.flush() == ResultCode.PLATFORM_OK) {
            ledger.buttonUp(wheel);
        }
        return rc;
    }

    /** May bind a spare key code for the usage's symbol: the binding goes into the ledger first. */
    @Override
    public int keyCodeOf(final int hidUsage) {
        return backend.keyCodeOf(hidUsage, recorder);
    }

    @Override
    public int keyCodeOfModifier(final int modifierBit) {
        return backend.keyCodeOfModifier(modifierBit);
    }

    @Override
    public int keyCode(final int keyCode, final boolean down) {
        if (keyCode < 1 || keyCode > HeldInputLedger.MAX_KEY_CODE) {
            return ResultCode.PLATFORM_INVALID_ARGUMENT;
        }
        if (down) {
            ledger.keyDown(keyCode);
            return backend.keyCode(keyCode, true);
        }
        final int rc = backend.keyCode(keyCode, false);
        if (rc == ResultCode.PLATFORM_OK && backend.flush() == ResultCode.PLATFORM_OK) {
            ledger.keyUp(keyCode);
        }
        return rc;
    }

    @Override
    public int modifier(final int modifierBit, final boolean down) {
        final int keyCode = backend.keyCodeOfModifier(modifierBit);
        if (keyCode < 0) {
            return keyCode;
        }
        if (down) {
            ledger.modifierDown(modifierBit, keyCode);
            return backend.keyCode(keyCode, true);
        }
        final int held = ledger.modifierKeyCode(modifierBit);
        final int rc = backend.keyCode(held != 0 ? held : keyCode, false);
        if (rc == ResultCode.PLATFORM_OK && backend.flush() == ResultCode.PLATFORM_OK) {
            ledger.modifierUp(modifierBit);
        }
        return rc;
    }

    /** Records into the ledger, whatever {@code recorder} says: nothing typed here goes unrecorded. */
    @Override
    public int typeText(final byte[] utf8, final int offset, final int length, final HeldInputRecorder recorder) {
        return backend.typeText(utf8, offset, length, recorder);
    }

    @Override
    public int typeText(final byte[] utf8, final int offset, final int length) {
        return backend.typeText(utf8, offset, length, recorder);
    }

    /** Records into the ledger, whatever {@code recorder} says. */
    @Override
    public int restoreKeymap(final long nowNs, final boolean force, final HeldInputRecorder recorder) {
        return backend.restoreKeymap(nowNs, force, recorder);
    }

    /** {@link #restoreKeymap(long, boolean, HeldInputRecorder)} into the ledger. */
    public int restoreKeymap(final long nowNs, final boolean force) {
        return backend.restoreKeymap(nowNs, force, recorder);
    }

    @Override
    public int unbindKeyCode(final int keyCode) {
        final int rc = backend.unbindKeyCode(keyCode);
        if (rc == ResultCode.PLATFORM_OK && backend.flush() == ResultCode.PLATFORM_OK) {
            ledger.keyCodeRestored(keyCode);
        }
        return rc;
    }

    @Override
    public int activateWindow(final long windowId) {
        return backend.activateWindow(windowId);
    }

    @Override
    public int cycleWindow(final boolean backward) {
        return backend.cycleWindow(backward);
    }

    @Override
    public long activeWindow() {
        return backend.activeWindow();
    }

    @Override
    public void othersHold(final int modifiers) {
        backend.othersHold(modifiers);
    }

    @Override
    public void duringWaits(final Runnable beat) {
        backend.duringWaits(beat);
    }

    @Override
    public int pointerGrabbedElsewhere() {
        return backend.pointerGrabbedElsewhere();
    }

    @Override
    public int doubleClickTimeMs() {
        return backend.doubleClickTimeMs();
    }

    @Override
    public int doubleClickDistancePx() {
        return backend.doubleClickDistancePx();
    }

    @Override
    public int flush() {
        return backend.flush();
    }

    @Override
    public int sync() {
        return backend.sync();
    }

    @Override
    public int queryPointer(final PointerState into) {
        return backend.queryPointer(into);
    }

    @Override
    public int queryKeymap(final byte[] keys32) {
        return backend.queryKeymap(keys32);
    }

    /**
     * Releases everything the ledger holds (buttons, keys, modifiers in reverse order), undoes
     * every key code binding, syncs, and increments physical_sequence: {@link LedgerRelease#releaseAll}.
     */
    public int releaseAll() {
        return LedgerRelease.releaseAll(ledger, backend);
    }

    @Override
    public boolean heldInputEnded() {
        return backend.heldInputEnded();
    }

    /** Releases everything (the helper's shutdown path), then closes the wrapped backend. */
    @Override
    public void close() {
        try {
            LedgerRelease.releaseAll(ledger, backend);
        } finally {
            backend.close();
        }
    }
}
