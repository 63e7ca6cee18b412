package dev.saccade.protocol;

/**
 * Action result row, 48 bytes (spec §5.7).
 * <pre>
 *     0  action_index                   u32
 *     4  kind                           i32
 *     8  result                         i32
 *    12  platform_error                 i32
 *    16  resolved_target_id             u64
 *    24  resolved_secondary_target_id   u64
 *    32  validated_generation           u64
 *    40  flags                          u32
 *    44  reserved                       u32 reserved
 *    48  end</pre>
 */
public final class ActionResultFlyweight extends Flyweight<ActionResultFlyweight> {
    public static final int ACTION_INDEX_OFFSET = 0;
    public static final int KIND_OFFSET = ACTION_INDEX_OFFSET + Integer.BYTES;
    public static final int RESULT_OFFSET = KIND_OFFSET + Integer.BYTES;
    public static final int PLATFORM_ERROR_OFFSET = RESULT_OFFSET + Integer.BYTES;
    public static final int RESOLVED_TARGET_ID_OFFSET = PLATFORM_ERROR_OFFSET + Integer.BYTES;
    public static final int RESOLVED_SECONDARY_TARGET_ID_OFFSET = RESOLVED_TARGET_ID_OFFSET + Long.BYTES;
    public static final int VALIDATED_GENERATION_OFFSET = RESOLVED_SECONDARY_TARGET_ID_OFFSET + Long.BYTES;
    public static final int FLAGS_OFFSET = VALIDATED_GENERATION_OFFSET + Long.BYTES;
    public static final int RESERVED_OFFSET = FLAGS_OFFSET + Integer.BYTES;
    public static final int LENGTH = RESERVED_OFFSET + Integer.BYTES;

    @Override
    public int length() {
        return LENGTH;
    }

    public long actionIndex() {
        return u32(ACTION_INDEX_OFFSET);
    }

    public ActionResultFlyweight actionIndex(final long value) {
        putU32(ACTION_INDEX_OFFSET, value);
        return this;
    }

    public int kind() {
        return i32(KIND_OFFSET);
    }

    public ActionResultFlyweight kind(final int value) {
        putI32(KIND_OFFSET, value);
        return this;
    }

    public int result() {
        return i32(RESULT_OFFSET);
    }

    public ActionResultFlyweight result(final int value) {
        putI32(RESULT_OFFSET, value);
        return this;
    }

    public int platformError() {
        return i32(PLATFORM_ERROR_OFFSET);
    }

    public ActionResultFlyweight platformError(final int value) {
        putI32(PLATFORM_ERROR_OFFSET, value);
        return this;
    }

    public long resolvedTargetId() {
        return u64(RESOLVED_TARGET_ID_OFFSET);
    }

    public ActionResultFlyweight resolvedTargetId(final long value) {
        putU64(RESOLVED_TARGET_ID_OFFSET, value);
        return this;
    }

    public long resolvedSecondaryTargetId() {
        return u64(RESOLVED_SECONDARY_TARGET_ID_OFFSET);
    }

    public ActionResultFlyweight resolvedSecondaryTargetId(final long value) {
        putU64(RESOLVED_SECONDARY_TARGET_ID_OFFSET, value);
        return this;
    }

    public long validatedGeneration() {
        return u64(VALIDATED_GENERATION_OFFSET);
    }

    public ActionResultFlyweight validatedGeneration(final long value) {
        putU64(VALIDATED_GENERATION_OFFSET, value);
        return this;
    }

    public int flags() {
        return i32(FLAGS_OFFSET);
    }

    public ActionResultFlyweight flags(final int value) {
        putI32(FLAGS_OFFSET, value);
        return this;
    }
}
