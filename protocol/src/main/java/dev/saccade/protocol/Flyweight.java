package dev.saccade.protocol;

import net.openhft.chronicle.bytes.BytesStore;

/**
 * A reusable view of one fixed-size struct at an offset in a {@link BytesStore}. {@code wrap}
 * re-points the view; accessors read and write little-endian fields at named offsets and
 * allocate nothing. Accessors trust their caller: a received frame goes through
 * {@link RequestValidator} or {@link CompletionValidator} before any accessor reads past its
 * header.
 *
 * <p>u32 fields that count or locate bytes are read as {@code long} (unsigned) so bounds
 * arithmetic never wraps; bit sets and enumerations are read as {@code int}.
 *
 * @param <F> the concrete flyweight, so {@code wrap} returns it.
 */
public abstract class Flyweight<F extends Flyweight<F>> {
    protected BytesStore<?, ?> bytes;
    protected long offset;

    /** Views the struct that starts at {@code offset} of {@code bytes}. */
    @SuppressWarnings("unchecked")
    public final F wrap(final BytesStore<?, ?> bytes, final long offset) {
        this.bytes = bytes;
        this.offset = offset;
        onWrap();
        return (F) this;
    }

    /** Nested struct views re-point themselves here. */
    protected void onWrap() {
    }

    public final BytesStore<?, ?> bytes() {
        return bytes;
    }

    public final long offset() {
        return offset;
    }

    /** Size of the struct in bytes, as in the spec's tables. */
    public abstract int length();

    /** Zeroes the whole struct: reserved fields and padding are written 0. */
    @SuppressWarnings("unchecked")
    public final F clear() {
        bytes.zeroOut(offset, offset + length());
        return (F) this;
    }

    protected final int i32(final int field) {
        return bytes.readInt(offset + field);
    }

    protected final long u32(final int field) {
        return bytes.readUnsignedInt(offset + field);
    }

    protected final int u16(final int field) {
        return bytes.readUnsignedShort(offset + field);
    }

    protected final long u64(final int field) {
        return bytes.readLong(offset + field);
    }

    protected final void putI32(final int field, final int value) {
        bytes.writeInt(offset + field, value);
    }

    /** Writes the low 32 bits; callers pass values in 0..2^32-1. */
    protected final void putU32(final int field, final long value) {
        bytes.writeInt(offset + field, (int) value);
    }

    protected final void putU16(final int field, final int value) {
        bytes.writeShort(offset + field, (short) value);
    }

    protected final void putU64(final int field, final long value) {
        bytes.writeLong(offset + field, value);
    }
}
