package dev.saccade.protocol;

/**
 * Physical state, 48 bytes: what synthetic input holds now and whether the user overrode it (spec §5.11).
 * <pre>
 *     0  pointer                        PointQ8 (8)
 *     8  buttons                        u32
 *    12  modifiers                      u32
 *    16  active_lease_id                u64
 *    24  permission_epoch               u64
 *    32  physical_sequence              u64
 *    40  flags                          u32
 *    44  user_modifiers                 u32
 *    48  end</pre>
 */
public final class PhysicalStateFlyweight extends Flyweight<PhysicalStateFlyweight> {
    public static final int POINTER_OFFSET = 0;
    public static final int BUTTONS_OFFSET = POINTER_OFFSET + RectQ8.POINT_LENGTH;
    public static final int MODIFIERS_OFFSET = BUTTONS_OFFSET + Integer.BYTES;
    public static final int ACTIVE_LEASE_ID_OFFSET = MODIFIERS_OFFSET + Integer.BYTES;
    public static final int PERMISSION_EPOCH_OFFSET = ACTIVE_LEASE_ID_OFFSET + Long.BYTES;
    public static final int PHYSICAL_SEQUENCE_OFFSET = PERMISSION_EPOCH_OFFSET + Long.BYTES;
    public static final int FLAGS_OFFSET = PHYSICAL_SEQUENCE_OFFSET + Long.BYTES;
    public static final int USER_MODIFIERS_OFFSET = FLAGS_OFFSET + Integer.BYTES;
    public static final int LENGTH = USER_MODIFIERS_OFFSET + Integer.BYTES;

    @Override
    public int length() {
        return LENGTH;
    }

    public int pointerXQ8() {
        return i32(POINTER_OFFSET + RectQ8.X_OFFSET);
    }

    public int pointerYQ8() {
        return i32(POINTER_OFFSET + RectQ8.Y_OFFSET);
    }

    public PhysicalStateFlyweight pointer(final int xQ8, final int yQ8) {
        RectQ8.writePoint(bytes, offset + POINTER_OFFSET, xQ8, yQ8);
        return this;
    }

    public int buttons() {
        return i32(BUTTONS_OFFSET);
    }

    public PhysicalStateFlyweight buttons(final int value) {
        putI32(BUTTONS_OFFSET, value);
        return this;
    }

    public int modifiers() {
        return i32(MODIFIERS_OFFSET);
    }

    public PhysicalStateFlyweight modifiers(final int value) {
        putI32(MODIFIERS_OFFSET, value);
        return this;
    }

    public long activeLeaseId() {
        return u64(ACTIVE_LEASE_ID_OFFSET);
    }

    public PhysicalStateFlyweight activeLeaseId(final long value) {
        putU64(ACTIVE_LEASE_ID_OFFSET, value);
        return this;
    }

    public long permissionEpoch() {
        return u64(PERMISSION_EPOCH_OFFSET);
    }

    public PhysicalStateFlyweight permissionEpoch(final long value) {
        putU64(PERMISSION_EPOCH_OFFSET, value);
        return this;
    }

    public long physicalSequence() {
        return u64(PHYSICAL_SEQUENCE_OFFSET);
    }

    public PhysicalStateFlyweight physicalSequence(final long value) {
        putU64(PHYSICAL_SEQUENCE_OFFSET, value);
        return this;
    }

    public int flags() {
        return i32(FLAGS_OFFSET);
    }

    public PhysicalStateFlyweight flags(final int value) {
        putI32(FLAGS_OFFSET, value);
        return this;
    }

    /**
     * Modifiers other input than the service's held when the last batch started (a user's
     * keyboard, another client): reported, never released on their behalf (§5.11, D23).
     */
    public int userModifiers() {
        return i32(USER_MODIFIERS_OFFSET);
    }

    public PhysicalStateFlyweight userModifiers(final int value) {
        putI32(USER_MODIFIERS_OFFSET, value);
        return this;
    }
}
