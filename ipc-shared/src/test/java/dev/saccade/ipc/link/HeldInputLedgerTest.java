package dev.saccade.ipc.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.protocol.Button;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.ResultCode;
import java.util.ArrayList;
import java.util.List;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;

class HeldInputLedgerTest {
    private static HeldInputLedger ledgerAt(final long offset) {
        final BytesStore<?, ?> store = BytesStore.nativeStoreWithFixedCapacity(offset + HeldInputLedger.LENGTH);
        store.zeroOut(0, store.capacity());
        return new HeldInputLedger().wrap(store, offset).init();
    }

    @Test
    void layoutIsPaddingFreeAndFitsOneHundredTwentyEightBytes() {
        assertEquals(0, HeldInputLedger.VERSION_OFFSET);
        assertEquals(8, HeldInputLedger.PHYSICAL_SEQUENCE_OFFSET);
        assertEquals(16, HeldInputLedger.ACTIVE_LEASE_ID_OFFSET);
        assertEquals(24, HeldInputLedger.BUTTONS_OFFSET);
        assertEquals(28, HeldInputLedger.MODIFIERS_OFFSET);
        assertEquals(32, HeldInputLedger.FLAGS_OFFSET);
        assertEquals(36, HeldInputLedger.MODIFIER_KEYCODES_OFFSET);
        assertEquals(40, HeldInputLedger.HELD_KEYS_OFFSET);
        assertEquals(72, HeldInputLedger.BOUND_KEYCODES_OFFSET);
        assertEquals(104, HeldInputLedger.RESERVED_OFFSET);
        assertEquals(128, HeldInputLedger.LENGTH);
    }

    @Test
    void freshLedgerHoldsNothingAndStartsThePhysicalSequenceAtOne() {
        final HeldInputLedger ledger = ledgerAt(0);
        assertTrue(ledger.isEmpty());
        assertEquals(1, ledger.physicalSequence());
        assertEquals(0, ledger.activeLeaseId());
        assertEquals(0, ledger.version());
    }

    @Test
    void recordsKeysOfEveryWordAndVisitsThemInOrder() {
        final HeldInputLedger ledger = ledgerAt(64);
        for (final int keyCode : new int[] {255, 8, 63, 64, 128, 200}) {
            ledger.keyDown(keyCode);
        }
        ledger.keyDown(64); // idempotent
        assertEquals(6, ledger.heldKeyCount());
        final List<Integer> seen = new ArrayList<>();
        ledger.forEachHeldKey(seen::add);
        assertEquals(List.of(8, 63, 64, 128, 200, 255), seen);
        ledger.keyUp(63);
        assertFalse(ledger.isKeyHeld(63));
        assertTrue(ledger.isKeyHeld(64));
        assertEquals(0, ledger.version() & 1, "even version: no change in flight");
    }

    @Test
    void refusesKeyCodesOutsideOneByte() {
        final HeldInputLedger ledger = ledgerAt(0);
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> ledger.keyDown(256));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> ledger.keyDown(0));
        assertTrue(ledger.isEmpty());
    }

    @Test
    void stableCopyFailsWhileAChangeIsInFlight() {
        final HeldInputLedger ledger = ledgerAt(0);
        final HeldInputLedger copy = ledgerAt(0);
        ledger.keyDown(9);
        ledger.buttonDown(Button.RIGHT);
        assertTrue(ledger.copyStableTo(copy));
        assertTrue(copy.isKeyHeld(9));
        assertEquals(Button.RIGHT, copy.buttons());
        ledger.bytes().writeLong(ledger.offset() + HeldInputLedger.VERSION_OFFSET, ledger.version() + 1); // writer died mid-change
        assertFalse(ledger.copyStableTo(copy));
    }

    @Test
    void validatesRegionBoundsAndAlignment() {
        final BytesStore<?, ?> store = BytesStore.nativeStoreWithFixedCapacity(256);
        assertEquals(ResultCode.PLATFORM_OK, HeldInputLedger.validate(store, 128));
        assertEquals(ResultCode.PLATFORM_INVALID_ARGUMENT, HeldInputLedger.validate(store, 136));
        assertEquals(ResultCode.PLATFORM_INVALID_ARGUMENT, HeldInputLedger.validate(store, 4));
        assertEquals(ResultCode.PLATFORM_INVALID_ARGUMENT, HeldInputLedger.validate(store, -8));
    }

    @Test
    void markReleasedEmptiesTheLedgerClearsTheLeaseAndAdvancesTheSequence() {
        final HeldInputLedger ledger = ledgerAt(16);
        ledger.modifierDown(Modifier.CONTROL, 37);
        ledger.keyDown(38);
        ledger.buttonDown(Button.LEFT | HeldInputLedger.WHEEL_UP);
        ledger.keyCodeBound(99);
        ledger.activeLeaseId(5);
        final List<Integer> plain = new ArrayList<>();
        ledger.forEachHeldPlainKey(plain::add);
        assertEquals(List.of(38), plain, "the modifier's key code is not a plain key");
        assertEquals(37, ledger.modifierKeyCodeAt(1));
        assertTrue(ledger.isModifierKeyCode(37));
        ledger.markReleased();
        assertTrue(ledger.isEmpty());
        assertEquals(0, ledger.activeLeaseId());
        assertEquals(2, ledger.physicalSequence());
        assertEquals(0, ledger.version() & 1);
    }
}
