package dev.saccade.helper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.helper.backend.InputBackend;
import dev.saccade.ipc.link.HeldInputLedger;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.ResultCode;
import java.util.List;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;

/** The release procedure over a ledger, and the guarded backend that fills it. */
class LedgerReleaseTest {
    private static HeldInputLedger ledgerAt(final long offset) {
        final BytesStore<?, ?> store = BytesStore.nativeStoreWithFixedCapacity(offset + HeldInputLedger.LENGTH);
        store.zeroOut(0, store.capacity());
        return new HeldInputLedger().wrap(store, offset).init();
    }

    @Test
    void releasesButtonsThenKeysThenModifiersInReverseThenBindingsThenSyncs() {
        final HeldInputLedger ledger = ledgerAt(8);
        final GuardedBackend guarded = new GuardedBackend(new RecordingBackend(), ledger);
        final RecordingBackend backend = (RecordingBackend) guarded.backend();
        guarded.modifiers(Modifier.SHIFT | Modifier.ALT | Modifier.META | Modifier.CONTROL, true);
        guarded.button(Button.LEFT, true);
        guarded.key(0x04, true);
        guarded.button(Button.RIGHT, true);
        guarded.keyCode(30, true);
        ledger.keyCodeBound(97);
        ledger.activeLeaseId(77);
        assertEquals(List.of("key 200 down", "key 201 down", "key 202 down", "key 203 down", "button 0x1 down",
            "key 104 down", "button 0x2 down", "key 30 down"), backend.calls, "SHIFT, CONTROL, ALT, META down");
        assertEquals(Button.LEFT | Button.RIGHT, ledger.buttons());
        assertEquals(Modifier.ALL, ledger.modifiers());
        assertEquals(6, ledger.heldKeyCount());
        backend.calls.clear();

        assertEquals(ResultCode.PLATFORM_OK, LedgerRelease.releaseAll(ledger, backend));
        assertEquals(List.of("button 0x1 up", "button 0x2 up", "key 30 up", "key 104 up",
            "key 203 up", "key 202 up", "key 201 up", "key 200 up", "unbind 97", "sync"), backend.calls);
        assertTrue(ledger.isEmpty());
        assertEquals(0, ledger.activeLeaseId());
        assertEquals(2, ledger.physicalSequence());
    }

    @Test
    void modifiersGoUpInReverseOrderAndLeaveTheLedger() {
        final HeldInputLedger ledger = ledgerAt(0);
        final RecordingBackend backend = new RecordingBackend();
        final GuardedBackend guarded = new GuardedBackend(backend, ledger);
        guarded.modifiers(Modifier.SHIFT | Modifier.META, true);
        assertEquals(203, ledger.modifierKeyCode(Modifier.META));
        guarded.modifiers(Modifier.ALL, false);
        assertEquals(List.of("key 200 down", "key 203 down", "key 203 up", "flush", "key 202 up", "flush",
            "key 201 up", "flush", "key 200 up", "flush"), backend.calls);
        assertTrue(ledger.isEmpty());
        assertEquals(ResultCode.PLATFORM_INVALID_ARGUMENT, guarded.modifiers(0x10, true));
    }

    @Test
    void aBackendWhoseSessionEndedWithItsInputLeavesNothingHeld() {
        final HeldInputLedger ledger = ledgerAt(0);
        final RecordingBackend backend = new RecordingBackend();
        ledger.keyDown(40);
        ledger.buttonDown(Button.LEFT);
        ledger.activeLeaseId(9);
        backend.failOn = "button";
        backend.endsOnFailure = true;
        assertEquals(ResultCode.PLATFORM_OK, LedgerRelease.releaseAll(ledger, backend));
        assertEquals(List.of("button 0x1 up"), backend.calls, "nothing more is sent once the session ended");
        assertTrue(ledger.isEmpty());
        assertEquals(0, ledger.activeLeaseId());
        assertEquals(2, ledger.physicalSequence());
        assertEquals(ResultCode.PLATFORM_OK, LedgerRelease.releaseAll(ledger, backend));
        assertEquals(1, backend.calls.size(), "an ended session is not asked again");
    }

    @Test
    void keepsEverythingWhenTheBackendFailsSoAnotherReleaserCanRetry() {
        final HeldInputLedger ledger = ledgerAt(0);
        final RecordingBackend backend = new RecordingBackend();
        ledger.keyDown(40);
        ledger.buttonDown(Button.MIDDLE);
        backend.failOn = "sync";
        assertEquals(ResultCode.PLATFORM_BACKEND, LedgerRelease.releaseAll(ledger, backend));
        assertTrue(ledger.isKeyHeld(40));
        assertEquals(Button.MIDDLE, ledger.buttons());
        assertEquals(1, ledger.physicalSequence());
        backend.failOn = null;
        assertEquals(ResultCode.PLATFORM_OK, LedgerRelease.releaseAll(ledger, backend));
        assertTrue(ledger.isEmpty());
        assertEquals(2, ledger.physicalSequence());
    }

    @Test
    void guardedBackendForgetsAReleaseOnlyAfterItWasFlushed() {
        final HeldInputLedger ledger = ledgerAt(0);
        final RecordingBackend backend = new RecordingBackend();
        final GuardedBackend guarded = new GuardedBackend(backend, ledger);
        guarded.button(Button.LEFT, true);
        guarded.keyCode(50, true);
        backend.failOn = "flush";
        guarded.button(Button.LEFT, false);
        guarded.keyCode(50, false);
        assertTrue(ledger.isButtonHeld(Button.LEFT), "release not flushed: still recorded");
        assertTrue(ledger.isKeyHeld(50));
        backend.failOn = null;
        guarded.button(Button.LEFT, false);
        guarded.keyCode(50, false);
        assertTrue(ledger.isEmpty());
        assertEquals(List.of("button 0x1 down", "key 50 down", "button 0x1 up", "flush", "key 50 up", "flush",
            "button 0x1 up", "flush", "key 50 up", "flush"), backend.calls);
    }

    @Test
    void guardedScrollHoldsTheWheelButtonsOnlyDuringTheCall() {
        final HeldInputLedger ledger = ledgerAt(0);
        final RecordingBackend backend = new RecordingBackend() {
            @Override
            public int scroll(final int dxQ8, final int dyQ8) {
                calls.add("held 0x" + Integer.toHexString(ledger.buttons()));
                return super.scroll(dxQ8, dyQ8);
            }
        };
        final GuardedBackend guarded = new GuardedBackend(backend, ledger);
        guarded.scroll(-256, 512);
        assertEquals(List.of("held 0x" + Integer.toHexString(InputBackend.WHEEL_DOWN | InputBackend.WHEEL_LEFT),
            "scroll -256,512", "flush"), backend.calls);
        assertEquals(0, ledger.buttons());
    }

    @Test
    void guardedTypingRecordsWhatTheBackendReports() {
        final HeldInputLedger ledger = ledgerAt(0);
        final GuardedBackend guarded = new GuardedBackend(new RecordingBackend(), ledger);
        guarded.typeText(new byte[] {'a'}, 0, 1);
        assertTrue(ledger.isKeyHeld(150), "the fake left 150 down");
        assertFalse(ledger.isKeyHeld(151));
        assertTrue(ledger.isKeyCodeBound(150));
    }

    @Test
    void wheelStepsRoundToTheNearestNotchAndNeverToZero() {
        assertEquals(0, InputBackend.wheelSteps(0));
        assertEquals(1, InputBackend.wheelSteps(1));
        assertEquals(1, InputBackend.wheelSteps(-383));
        assertEquals(2, InputBackend.wheelSteps(384));
        assertEquals(3, InputBackend.wheelSteps(-768));
        assertEquals(8_388_608, InputBackend.wheelSteps(Integer.MIN_VALUE));
        assertEquals(-1, InputBackend.pixelOfQ8(-1));
        assertEquals(10, InputBackend.pixelOfQ8(10 * 256 + 255));
    }
}
