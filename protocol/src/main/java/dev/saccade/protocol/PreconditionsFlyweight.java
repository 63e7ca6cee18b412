package dev.saccade.protocol;

/**
 * Preconditions, 72 bytes: the state a batch was planned against (spec §5.7).
 * <pre>
 *     0  flags                          u32
 *     4  expected_buttons               u32
 *     8  expected_modifiers             u32
 *    12  reserved                       u32 reserved
 *    16  generation                     u64
 *    24  process_id                     u64
 *    32  window_id                      u64
 *    40  display_id                     u64
 *    48  transform_epoch                u64
 *    56  permission_epoch               u64
 *    64  physical_sequence              u64
 *    72  end</pre>
 */
public final class PreconditionsFlyweight extends Flyweight<PreconditionsFlyweight> {
    public static final int FLAGS_OFFSET = 0;
    public static final int EXPECTED_BUTTONS_OFFSET = FLAGS_OFFSET + Integer.BYTES;
    public static final int EXPECTED_MODIFIERS_OFFSET = EXPECTED_BUTTONS_OFFSET + Integer.BYTES;
    public static final int RESERVED_OFFSET = EXPECTED_MODIFIERS_OFFSET + Integer.BYTES;
    public static final int GENERATION_OFFSET = RESERVED_OFFSET + Integer.BYTES;
    public static final int PROCESS_ID_OFFSET = GENERATION_OFFSET + Long.BYTES;
    public static final int WINDOW_ID_OFFSET = PROCESS_ID_OFFSET + Long.BYTES;
    public static final int DISPLAY_ID_OFFSET = WINDOW_ID_OFFSET + Long.BYTES;
    public static final int TRANSFORM_EPOCH_OFFSET = DISPLAY_ID_OFFSET + Long.BYTES;
    public static final int PERMISSION_EPOCH_OFFSET = TRANSFORM_EPOCH_OFFSET + Long.BYTES;
    public static final int PHYSICAL_SEQUENCE_OFFSET = PERMISSION_EPOCH_OFFSET + Long.BYTES;
    public static final int LENGTH = PHYSICAL_SEQUENCE_OFFSET + Long.BYTES;

    @Override
    public int length() {
        return LENGTH;
    }

    public int flags() {
        return i32(FLAGS_OFFSET);
    }

    public PreconditionsFlyweight flags(final int value) {
        putI32(FLAGS_OFFSET, value);
        return this;
    }

    public int expectedButtons() {
        return i32(EXPECTED_BUTTONS_OFFSET);
    }

    public PreconditionsFlyweight expectedButtons(final int value) {
        putI32(EXPECTED_BUTTONS_OFFSET, value);
        return this;
    }

    public int expectedModifiers() {
        return i32(EXPECTED_MODIFIERS_OFFSET);
    }

    public PreconditionsFlyweight expectedModifiers(final int value) {
        putI32(EXPECTED_MODIFIERS_OFFSET, value);
        return this;
    }

    public long generation() {
        return u64(GENERATION_OFFSET);
    }

    public PreconditionsFlyweight generation(final long value) {
        putU64(GENERATION_OFFSET, value);
        return this;
    }

    public long processId() {
        return u64(PROCESS_ID_OFFSET);
    }

    public PreconditionsFlyweight processId(final long value) {
        putU64(PROCESS_ID_OFFSET, value);
        return this;
    }

    public long windowId() {
        return u64(WINDOW_ID_OFFSET);
    }

    public PreconditionsFlyweight windowId(final long value) {
        putU64(WINDOW_ID_OFFSET, value);
        return this;
    }

    public long displayId() {
        return u64(DISPLAY_ID_OFFSET);
    }

    public PreconditionsFlyweight displayId(final long value) {
        putU64(DISPLAY_ID_OFFSET, value);
        return this;
    }

    public long transformEpoch() {
        return u64(TRANSFORM_EPOCH_OFFSET);
    }

    public PreconditionsFlyweight transformEpoch(final long value) {
        putU64(TRANSFORM_EPOCH_OFFSET, value);
        return this;
    }

    public long permissionEpoch() {
        return u64(PERMISSION_EPOCH_OFFSET);
    }

    public PreconditionsFlyweight permissionEpoch(final long value) {
        putU64(PERMISSION_EPOCH_OFFSET, value);
        return this;
    }

    public long physicalSequence() {
        return u64(PHYSICAL_SEQUENCE_OFFSET);
    }

    public PreconditionsFlyweight physicalSequence(final long value) {
        putU64(PHYSICAL_SEQUENCE_OFFSET, value);
        return this;
    }
}
