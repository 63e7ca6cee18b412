package dev.saccade.protocol.plan;

import dev.saccade.protocol.Flyweight;

/**
 * One command of an {@link ActionPlanFlyweight}, 32 bytes. The meaning of {@code a}..{@code d}
 * depends on the op: see {@link PlanOp}.
 * <pre>
 *   0        2        4              6          8          12         16                 24                 32
 *   +--------+--------+--------------+----------+----------+----------+------------------+------------------+
 *   | op u16 |flags   | action_index | reserved | a i32    | b i32    | c u64            | d u64            |
 *   |        |u16 (0) | u16          | u16 (0)  |          |          |                  |                  |
 *   +--------+--------+--------------+----------+----------+----------+------------------+------------------+
 * </pre>
 * {@code action_index} is the index of the batch action the command belongs to (0..63). No
 * command flag is defined in this version: {@code flags} is 0.
 */
public final class PlanCommandFlyweight extends Flyweight<PlanCommandFlyweight> {
    public static final int OP_OFFSET = 0;
    public static final int FLAGS_OFFSET = OP_OFFSET + Short.BYTES;
    public static final int ACTION_INDEX_OFFSET = FLAGS_OFFSET + Short.BYTES;
    public static final int RESERVED_OFFSET = ACTION_INDEX_OFFSET + Short.BYTES;
    public static final int A_OFFSET = RESERVED_OFFSET + Short.BYTES;
    public static final int B_OFFSET = A_OFFSET + Integer.BYTES;
    public static final int C_OFFSET = B_OFFSET + Integer.BYTES;
    public static final int D_OFFSET = C_OFFSET + Long.BYTES;
    public static final int LENGTH = D_OFFSET + Long.BYTES;

    @Override
    public int length() {
        return LENGTH;
    }

    public int op() {
        return u16(OP_OFFSET);
    }

    public PlanCommandFlyweight op(final int value) {
        putU16(OP_OFFSET, value);
        return this;
    }

    public int flags() {
        return u16(FLAGS_OFFSET);
    }

    public PlanCommandFlyweight flags(final int value) {
        putU16(FLAGS_OFFSET, value);
        return this;
    }

    public int actionIndex() {
        return u16(ACTION_INDEX_OFFSET);
    }

    public PlanCommandFlyweight actionIndex(final int value) {
        putU16(ACTION_INDEX_OFFSET, value);
        return this;
    }

    public int reserved() {
        return u16(RESERVED_OFFSET);
    }

    public int a() {
        return i32(A_OFFSET);
    }

    public PlanCommandFlyweight a(final int value) {
        putI32(A_OFFSET, value);
        return this;
    }

    public int b() {
        return i32(B_OFFSET);
    }

    public PlanCommandFlyweight b(final int value) {
        putI32(B_OFFSET, value);
        return this;
    }

    public long c() {
        return u64(C_OFFSET);
    }

    public PlanCommandFlyweight c(final long value) {
        putU64(C_OFFSET, value);
        return this;
    }

    public long d() {
        return u64(D_OFFSET);
    }

    public PlanCommandFlyweight d(final long value) {
        putU64(D_OFFSET, value);
        return this;
    }

    /** TEXT's {@code a}: offset of the slice in the plan's text, read unsigned. */
    public long textOffset() {
        return u32(A_OFFSET);
    }

    /** TEXT's {@code b}: length of the slice in bytes, read unsigned. */
    public long textLength() {
        return u32(B_OFFSET);
    }

    /** Writes all 32 bytes of one command; reserved and flags are 0. */
    public PlanCommandFlyweight set(
        final int op, final int actionIndex, final int a, final int b, final long c, final long d) {
        bytes.writeLong(offset + OP_OFFSET, (op & 0xFFFFL) | (actionIndex & 0xFFFFL) << 32);
        bytes.writeInt(offset + A_OFFSET, a);
        bytes.writeInt(offset + B_OFFSET, b);
        bytes.writeLong(offset + C_OFFSET, c);
        bytes.writeLong(offset + D_OFFSET, d);
        return this;
    }
}
