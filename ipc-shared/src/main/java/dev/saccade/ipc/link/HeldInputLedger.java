package dev.saccade.ipc.link;

import dev.saccade.protocol.Button;
import dev.saccade.protocol.Flyweight;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.ResultCode;
import java.lang.invoke.VarHandle;
import java.util.function.IntConsumer;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Every key and button the helper holds down, every key code it rebound for typing, and the
 * physical sequence: a flyweight over 128 bytes of a {@link BytesStore}, meant to live in the
 * shared-memory control block. The X server does not release XTest input when the client that
 * pressed it dies, so when the helper is killed, another process (the owner, then the replacement
 * helper) reads this region and releases what it says is held.
 *
 * <pre>
 *   0                   8                   16                  24        28        32
 *   +-------------------+-------------------+-------------------+---------+---------+
 *   | version           | physical_sequence | active_lease_id   | buttons |modifiers|
 *   +---------+---------+-------------------+-------------------+---------+---------+
 *  32 flags   |36 modifier_keycodes (u8 × 4: SHIFT, CONTROL, ALT, META)
 *   +---------+---------+-------------------------------------------------------------+
 *  40 held_keys: 256 bits, bit k of u64 word k/64 = key code k is down                 |
 *   +-----------------------------------------------------------------------------------+
 *  72 bound_keycodes: 256 bits = key code k is rebound to a keysym (restore: no symbols)|
 *   +-----------------------------------------------------------------------------------+
 * 104 reserved (24 bytes, written 0)                                               128 end
 * </pre>
 *
 * <p><b>Writer</b>: one thread of one process (the helper thread). Every change is bracketed by
 * {@code version}: an ordered store of an odd value before, of the next even value after; the
 * even store is the last write of a change and publishes it (a seqlock). Presses are recorded
 * before they are emitted and releases only after they were flushed (the helper's
 * {@code GuardedBackend} and {@code HeldInputRecorder}), so the region always holds a superset of
 * what the platform holds.
 *
 * <p><b>Readers</b> in other processes take a consistent copy with {@link #copyStableTo}. After the
 * writer died, any state is safe to act on (an odd version only means a change was in flight;
 * every word is written whole, and releasing an extra key is harmless): wrap the region, release
 * what it says through a connection of your own (the helper's {@code LedgerRelease}, the owner's
 * X release), then {@link #markReleased()}. This class only holds state; it talks to no backend. All offsets are relative to the wrapped offset, so the
 * layout is position-independent.
 *
 * <p>Button bits are {@link Button} bits plus the wheel pseudo-buttons {@link #WHEEL_UP} ..
 * {@link #WHEEL_RIGHT} (the same bits as the helper's {@code InputBackend}).
 */
public final class HeldInputLedger extends Flyweight<HeldInputLedger> {
    public static final int VERSION_OFFSET = 0;
    public static final int PHYSICAL_SEQUENCE_OFFSET = VERSION_OFFSET + Long.BYTES;
    public static final int ACTIVE_LEASE_ID_OFFSET = PHYSICAL_SEQUENCE_OFFSET + Long.BYTES;
    public static final int BUTTONS_OFFSET = ACTIVE_LEASE_ID_OFFSET + Long.BYTES;
    public static final int MODIFIERS_OFFSET = BUTTONS_OFFSET + Integer.BYTES;
    public static final int FLAGS_OFFSET = MODIFIERS_OFFSET + Integer.BYTES;
    public static final int MODIFIER_KEYCODES_OFFSET = FLAGS_OFFSET + Integer.BYTES;
    public static final int HELD_KEYS_OFFSET = MODIFIER_KEYCODES_OFFSET + 4;
    public static final int KEY_BITMAP_BYTES = 256 / Byte.SIZE;
    public static final int BOUND_KEYCODES_OFFSET = HELD_KEYS_OFFSET + KEY_BITMAP_BYTES;
    public static final int RESERVED_OFFSET = BOUND_KEYCODES_OFFSET + KEY_BITMAP_BYTES;
    public static final int LENGTH = 128;

    /** Wheel pseudo-buttons (X buttons 4..7), held only during one scroll call. */
    public static final int WHEEL_UP = 0x100;
    public static final int WHEEL_DOWN = 0x200;
    public static final int WHEEL_LEFT = 0x400;
    public static final int WHEEL_RIGHT = 0x800;
    /** Every button bit a ledger records. */
    public static final int ALL_BUTTON_BITS = Button.LEFT | Button.RIGHT | Button.MIDDLE | WHEEL_UP | WHEEL_DOWN
        | WHEEL_LEFT | WHEEL_RIGHT;

    /** physical_sequence of a fresh ledger (spec §5.11: "starts at 1"). */
    public static final long INITIAL_PHYSICAL_SEQUENCE = 1;
    /** The highest key code a ledger can record. */
    public static final int MAX_KEY_CODE = 255;

    private static final int WORDS = 4;

    static {
        if (RESERVED_OFFSET > LENGTH || HELD_KEYS_OFFSET % Long.BYTES != 0) {
            throw new ExceptionInInitializerError("ledger layout overflows: " + RESERVED_OFFSET);
        }
    }

    @Override
    public int length() {
        return LENGTH;
    }

    /**
     * Whether {@code LENGTH} bytes fit at {@code offset} of {@code bytes}, 8-byte aligned (the
     * ordered stores need it): PLATFORM_OK, else PLATFORM_INVALID_ARGUMENT.
     */
    public static int validate(final BytesStore<?, ?> bytes, final long offset) {
        if (offset < 0 || offset % Long.BYTES != 0 || bytes.capacity() - offset < LENGTH) {
            return ResultCode.PLATFORM_INVALID_ARGUMENT;
        }
        return ResultCode.PLATFORM_OK;
    }

    /** Writes a fresh ledger: nothing held, physical_sequence 1, version 0. */
    public HeldInputLedger init() {
        clear();
        bytes.writeLong(offset + PHYSICAL_SEQUENCE_OFFSET, INITIAL_PHYSICAL_SEQUENCE);
        bytes.writeOrderedLong(offset + VERSION_OFFSET, 0);
        return this;
    }

    // ---------------------------------------------------------------- keys

    /** Records key code {@code keyCode} as down; call before emitting the press. */
    public void keyDown(final int keyCode) {
        setBit(HELD_KEYS_OFFSET, keyCode, true);
    }

    /** Forgets key code {@code keyCode}; call after its release was flushed. */
    public void keyUp(final int keyCode) {
        setBit(HELD_KEYS_OFFSET, keyCode, false);
    }

    public boolean isKeyHeld(final int keyCode) {
        return bit(HELD_KEYS_OFFSET, keyCode);
    }

    public int heldKeyCount() {
        return count(HELD_KEYS_OFFSET);
    }

    /** Calls {@code action} with each held key code, ascending; allocates nothing. */
    public void forEachHeldKey(final IntConsumer action) {
        forEachBit(HELD_KEYS_OFFSET, action);
    }

    // ---------------------------------------------------------------- key code bindings

    /** Records that typing rebinds key code {@code keyCode}; call before the binding request. */
    public void keyCodeBound(final int keyCode) {
        setBit(BOUND_KEYCODES_OFFSET, keyCode, true);
    }

    /** Forgets a binding; call after the restoring request was flushed. */
    public void keyCodeRestored(final int keyCode) {
        setBit(BOUND_KEYCODES_OFFSET, keyCode, false);
    }

    public boolean isKeyCodeBound(final int keyCode) {
        return bit(BOUND_KEYCODES_OFFSET, keyCode);
    }

    public int boundKeyCodeCount() {
        return count(BOUND_KEYCODES_OFFSET);
    }

    /** Calls {@code action} with each rebound key code, ascending; allocates nothing. */
    public void forEachBoundKeyCode(final IntConsumer action) {
        forEachBit(BOUND_KEYCODES_OFFSET, action);
    }

    // ---------------------------------------------------------------- buttons

    /** Records button bits as held; call before emitting the presses. */
    public void buttonDown(final int buttonBits) {
        final int held = buttons();
        if ((held | buttonBits) != held) {
            beginWrite();
            bytes.writeInt(offset + BUTTONS_OFFSET, held | buttonBits);
            endWrite();
        }
    }

    /** Forgets button bits; call after the releases were flushed. */
    public void buttonUp(final int buttonBits) {
        final int held = buttons();
        if ((held & ~buttonBits) != held) {
            beginWrite();
            bytes.writeInt(offset + BUTTONS_OFFSET, held & ~buttonBits);
            endWrite();
        }
    }

    /** Held button bits. */
    public int buttons() {
        return bytes.readVolatileInt(offset + BUTTONS_OFFSET);
    }

    public boolean isButtonHeld(final int buttonBit) {
        return (buttons() & buttonBit) != 0;
    }

    // ---------------------------------------------------------------- modifiers

    /**
     * Records one modifier as held through key code {@code keyCode} (also in the key bitmap);
     * call before emitting the press.
     */
    public void modifierDown(final int modifierBit, final int keyCode) {
        final int index = modifierIndex(modifierBit);
        checkKeyCode(keyCode);
        beginWrite();
        bytes.writeInt(offset + MODIFIERS_OFFSET, bytes.readInt(offset + MODIFIERS_OFFSET) | modifierBit);
        bytes.writeByte(offset + MODIFIER_KEYCODES_OFFSET + index, (byte) keyCode);
        writeBit(HELD_KEYS_OFFSET, keyCode, true);
        endWrite();
    }

    /** Forgets one modifier and its key; call after the release was flushed. */
    public void modifierUp(final int modifierBit) {
        final int index = modifierIndex(modifierBit);
        final int keyCode = modifierKeyCode(modifierBit);
        beginWrite();
        bytes.writeInt(offset + MODIFIERS_OFFSET, bytes.readInt(offset + MODIFIERS_OFFSET) & ~modifierBit);
        bytes.writeByte(offset + MODIFIER_KEYCODES_OFFSET + index, (byte) 0);
        if (keyCode != 0) {
            writeBit(HELD_KEYS_OFFSET, keyCode, false);
        }
        endWrite();
    }

    /** Held {@link Modifier} bits. */
    public int modifiers() {
        return bytes.readVolatileInt(offset + MODIFIERS_OFFSET);
    }

    /** The key code a held modifier was pressed with, 0 if it is not held. */
    public int modifierKeyCode(final int modifierBit) {
        return bytes.readVolatileByte(offset + MODIFIER_KEYCODES_OFFSET + modifierIndex(modifierBit)) & 0xFF;
    }

    // ---------------------------------------------------------------- physical state

    public long physicalSequence() {
        return bytes.readVolatileLong(offset + PHYSICAL_SEQUENCE_OFFSET);
    }

    /** Id of the plan that left input held (spec §5.11), 0 when none. */
    public long activeLeaseId() {
        return bytes.readVolatileLong(offset + ACTIVE_LEASE_ID_OFFSET);
    }

    public HeldInputLedger activeLeaseId(final long leaseId) {
        beginWrite();
        bytes.writeLong(offset + ACTIVE_LEASE_ID_OFFSET, leaseId);
        endWrite();
        return this;
    }

    /** {@link dev.saccade.protocol.PhysicalFlag} bits (USER_OVERRIDE, SUSPENDED). */
    public int flags() {
        return bytes.readVolatileInt(offset + FLAGS_OFFSET);
    }

    public HeldInputLedger flags(final int flags) {
        beginWrite();
        bytes.writeInt(offset + FLAGS_OFFSET, flags);
        endWrite();
        return this;
    }

    /** Seqlock counter: even when no change is in flight. */
    public long version() {
        return bytes.readVolatileLong(offset + VERSION_OFFSET);
    }

    /** No key, button or modifier held and no key code rebound. */
    public boolean isEmpty() {
        return buttons() == 0 && modifiers() == 0 && count(HELD_KEYS_OFFSET) == 0 && count(BOUND_KEYCODES_OFFSET) == 0;
    }

    /**
     * Copies the whole region to {@code target} if no change was in flight meanwhile (version
     * even and unchanged across the copy). For readers in other processes; retry on false.
     */
    public boolean copyStableTo(final HeldInputLedger target) {
        final long before = version();
        if ((before & 1) != 0) {
            return false;
        }
        for (int i = 0; i < LENGTH; i += Long.BYTES) {
            target.bytes.writeLong(target.offset + i, bytes.readVolatileLong(offset + i));
        }
        VarHandle.loadLoadFence();
        return version() == before;
    }

    // ---------------------------------------------------------------- after a release

    /**
     * Calls {@code action} with each held key code that is not a held modifier's key code,
     * ascending (releasers let these go first, then the modifiers); allocates nothing.
     */
    public void forEachHeldPlainKey(final IntConsumer action) {
        for (int word = 0; word < WORDS; word++) {
            long bits = bytes.readVolatileLong(offset + HELD_KEYS_OFFSET + (long) word * Long.BYTES);
            while (bits != 0) {
                final int keyCode = word * Long.SIZE + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                if (!isModifierKeyCode(keyCode)) {
                    action.accept(keyCode);
                }
            }
        }
    }

    /**
     * The key code of the held modifier at {@code index} (0 SHIFT, 1 CONTROL, 2 ALT, 3 META), 0 if
     * it is not held.
     */
    public int modifierKeyCodeAt(final int index) {
        if (index < 0 || index > 3) {
            throw new IndexOutOfBoundsException(index);
        }
        return bytes.readVolatileByte(offset + MODIFIER_KEYCODES_OFFSET + index) & 0xFF;
    }

    /** Whether {@code keyCode} is the key code of a held modifier. */
    public boolean isModifierKeyCode(final int keyCode) {
        for (int index = 0; index < 4; index++) {
            if ((bytes.readVolatileByte(offset + MODIFIER_KEYCODES_OFFSET + index) & 0xFF) == keyCode) {
                return true;
            }
        }
        return false;
    }

    /**
     * Records that everything this ledger said was held has been released and every rebound key
     * code restored: empties it, clears the lease and increments physical_sequence, in one change.
     * Call only after the releases were synced with the platform.
     */
    public HeldInputLedger markReleased() {
        beginWrite();
        bytes.writeInt(offset + BUTTONS_OFFSET, 0);
        bytes.writeInt(offset + MODIFIERS_OFFSET, 0);
        bytes.writeInt(offset + MODIFIER_KEYCODES_OFFSET, 0);
        for (int word = 0; word < WORDS; word++) {
            bytes.writeLong(offset + HELD_KEYS_OFFSET + (long) word * Long.BYTES, 0);
            bytes.writeLong(offset + BOUND_KEYCODES_OFFSET + (long) word * Long.BYTES, 0);
        }
        bytes.writeLong(offset + ACTIVE_LEASE_ID_OFFSET, 0);
        bytes.writeLong(offset + PHYSICAL_SEQUENCE_OFFSET, bytes.readLong(offset + PHYSICAL_SEQUENCE_OFFSET) + 1);
        endWrite();
        return this;
    }

    @Override
    public String toString() {
        final StringBuilder keys = new StringBuilder();
        forEachHeldKey(k -> keys.append(keys.length() == 0 ? "" : ",").append(k));
        return "HeldInputLedger[version=" + version() + ", physicalSequence=" + physicalSequence() + ", lease="
            + activeLeaseId() + ", buttons=0x" + Integer.toHexString(buttons()) + ", modifiers=0x"
            + Integer.toHexString(modifiers()) + ", keys=[" + keys + "], bound=" + boundKeyCodeCount() + "]";
    }

    // ---------------------------------------------------------------- internals

    private static int modifierIndex(final int modifierBit) {
        if (Integer.bitCount(modifierBit) != 1 || (modifierBit & Modifier.ALL) == 0) {
            throw new IllegalArgumentException("not one modifier bit: 0x" + Integer.toHexString(modifierBit));
        }
        return Integer.numberOfTrailingZeros(modifierBit);
    }

    private static void checkKeyCode(final int keyCode) {
        if (keyCode < 1 || keyCode > MAX_KEY_CODE) {
            throw new IllegalArgumentException("key code outside 1..255: " + keyCode);
        }
    }

    private void setBit(final int bitmap, final int keyCode, final boolean set) {
        checkKeyCode(keyCode);
        if (bit(bitmap, keyCode) != set) {
            beginWrite();
            writeBit(bitmap, keyCode, set);
            endWrite();
        }
    }

    private void writeBit(final int bitmap, final int keyCode, final boolean set) {
        final long at = offset + bitmap + (long) (keyCode >>> 6) * Long.BYTES;
        final long mask = 1L << (keyCode & 63);
        final long word = bytes.readLong(at);
        bytes.writeLong(at, set ? word | mask : word & ~mask);
    }

    private boolean bit(final int bitmap, final int keyCode) {
        if (keyCode < 0 || keyCode > MAX_KEY_CODE) {
            return false;
        }
        return (bytes.readVolatileLong(offset + bitmap + (long) (keyCode >>> 6) * Long.BYTES) & (1L << (keyCode & 63))) != 0;
    }

    private int count(final int bitmap) {
        int n = 0;
        for (int word = 0; word < WORDS; word++) {
            n += Long.bitCount(bytes.readVolatileLong(offset + bitmap + (long) word * Long.BYTES));
        }
        return n;
    }

    private void forEachBit(final int bitmap, final IntConsumer action) {
        for (int word = 0; word < WORDS; word++) {
            long bits = bytes.readVolatileLong(offset + bitmap + (long) word * Long.BYTES);
            while (bits != 0) {
                action.accept(word * Long.SIZE + Long.numberOfTrailingZeros(bits));
                bits &= bits - 1;
            }
        }
    }

    private void beginWrite() {
        bytes.writeOrderedLong(offset + VERSION_OFFSET, bytes.readLong(offset + VERSION_OFFSET) + 1);
        VarHandle.storeStoreFence(); // the odd version is visible before any field of the change
    }

    /** The last store of every change: publishes it. */
    private void endWrite() {
        bytes.writeOrderedLong(offset + VERSION_OFFSET, bytes.readLong(offset + VERSION_OFFSET) + 1);
    }
}
