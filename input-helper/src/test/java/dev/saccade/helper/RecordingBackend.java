package dev.saccade.helper;

import dev.saccade.helper.backend.HeldInputRecorder;
import dev.saccade.helper.backend.InputBackend;
import dev.saccade.helper.backend.PointerState;
import dev.saccade.protocol.ResultCode;
import java.util.ArrayList;
import java.util.List;

/**
 * A fake backend for the ledger's pure logic: records each call as a string ("key 50 up") and
 * can fail one kind of call. Key codes: HID usage + 100 (modifiers: 200 + bit index).
 */
class RecordingBackend implements InputBackend {
    final List<String> calls = new ArrayList<>();
    String failOn;
    /** Set by the first failed call: the backend's input session ended with it (D56). */
    boolean endsOnFailure;
    private boolean ended;

    private int record(final String call) {
        calls.add(call);
        final boolean failed = ended || failOn != null && call.startsWith(failOn);
        ended = failed && endsOnFailure;
        return failed ? ResultCode.PLATFORM_BACKEND : ResultCode.PLATFORM_OK;
    }

    @Override
    public boolean heldInputEnded() {
        return ended;
    }

    @Override
    public int movePointer(final int x, final int y) {
        return record("move " + x + "," + y);
    }

    @Override
    public int button(final int buttonBit, final boolean down) {
        return record("button 0x" + Integer.toHexString(buttonBit) + (down ? " down" : " up"));
    }

    @Override
    public int scroll(final int dxQ8, final int dyQ8) {
        return record("scroll " + dxQ8 + "," + dyQ8);
    }

    @Override
    public int keyCodeOf(final int hidUsage) {
        return hidUsage == 0 ? ResultCode.PLATFORM_UNSUPPORTED : hidUsage + 100 & 0xFF;
    }

    @Override
    public int keyCodeOfModifier(final int modifierBit) {
        return 200 + Integer.numberOfTrailingZeros(modifierBit);
    }

    @Override
    public int keyCode(final int keyCode, final boolean down) {
        return record("key " + keyCode + (down ? " down" : " up"));
    }

    @Override
    public int typeText(final byte[] utf8, final int offset, final int length, final HeldInputRecorder recorder) {
        recorder.keyCodeBound(150);
        recorder.keyDown(150);
        recorder.keyDown(151);
        final int rc = record("type " + length);
        recorder.keyUp(151);
        return rc;
    }

    @Override
    public int restoreKeymap(final long nowNs, final boolean force, final HeldInputRecorder recorder) {
        return record("restore");
    }

    @Override
    public int unbindKeyCode(final int keyCode) {
        return record("unbind " + keyCode);
    }

    @Override
    public int activateWindow(final long windowId) {
        return record("activate " + windowId);
    }

    @Override
    public int cycleWindow(final boolean backward) {
        return record("cycle " + backward);
    }

    @Override
    public int flush() {
        return record("flush");
    }

    @Override
    public int sync() {
        return record("sync");
    }

    @Override
    public int queryPointer(final PointerState into) {
        return ResultCode.PLATFORM_UNSUPPORTED;
    }

    @Override
    public int queryKeymap(final byte[] keys32) {
        return ResultCode.PLATFORM_UNSUPPORTED;
    }

    @Override
    public void close() {
        record("close");
    }
}
