package dev.saccade.protocol;

/**
 * Action, 80 bytes: one step of a batch (spec §5.8).
 * <pre>
 *     0  kind                           i32
 *     4  flags                          u32
 *     8  target_id                      u64
 *    16  secondary_target_id            u64
 *    24  point                          PointQ8 (8)
 *    32  secondary_point                PointQ8 (8)
 *    40  button_bits                    u32
 *    44  modifiers                      u32
 *    48  key_usage                      u32
 *    52  repeat_count                   u32
 *    56  delta_x_q8                     i32
 *    60  delta_y_q8                     i32
 *    64  duration_ns                    u64
 *    72  payload_offset                 u32
 *    76  payload_size                   u32
 *    80  end</pre>
 */
public final class ActionFlyweight extends Flyweight<ActionFlyweight> {
    public static final int KIND_OFFSET = 0;
    public static final int FLAGS_OFFSET = KIND_OFFSET + Integer.BYTES;
    public static final int TARGET_ID_OFFSET = FLAGS_OFFSET + Integer.BYTES;
    public static final int SECONDARY_TARGET_ID_OFFSET = TARGET_ID_OFFSET + Long.BYTES;
    public static final int POINT_OFFSET = SECONDARY_TARGET_ID_OFFSET + Long.BYTES;
    public static final int SECONDARY_POINT_OFFSET = POINT_OFFSET + RectQ8.POINT_LENGTH;
    public static final int BUTTON_BITS_OFFSET = SECONDARY_POINT_OFFSET + RectQ8.POINT_LENGTH;
    public static final int MODIFIERS_OFFSET = BUTTON_BITS_OFFSET + Integer.BYTES;
    public static final int KEY_USAGE_OFFSET = MODIFIERS_OFFSET + Integer.BYTES;
    public static final int REPEAT_COUNT_OFFSET = KEY_USAGE_OFFSET + Integer.BYTES;
    public static final int DELTA_X_Q8_OFFSET = REPEAT_COUNT_OFFSET + Integer.BYTES;
    public static final int DELTA_Y_Q8_OFFSET = DELTA_X_Q8_OFFSET + Integer.BYTES;
    public static final int DURATION_NS_OFFSET = DELTA_Y_Q8_OFFSET + Integer.BYTES;
    public static final int PAYLOAD_OFFSET_OFFSET = DURATION_NS_OFFSET + Long.BYTES;
    public static final int PAYLOAD_SIZE_OFFSET = PAYLOAD_OFFSET_OFFSET + Integer.BYTES;
    public static final int LENGTH = PAYLOAD_SIZE_OFFSET + Integer.BYTES;

    @Override
    public int length() {
        return LENGTH;
    }

    public int kind() {
        return i32(KIND_OFFSET);
    }

    public ActionFlyweight kind(final int value) {
        putI32(KIND_OFFSET, value);
        return this;
    }

    public int flags() {
        return i32(FLAGS_OFFSET);
    }

    public ActionFlyweight flags(final int value) {
        putI32(FLAGS_OFFSET, value);
        return this;
    }

    public long targetId() {
        return u64(TARGET_ID_OFFSET);
    }

    public ActionFlyweight targetId(final long value) {
        putU64(TARGET_ID_OFFSET, value);
        return this;
    }

    public long secondaryTargetId() {
        return u64(SECONDARY_TARGET_ID_OFFSET);
    }

    public ActionFlyweight secondaryTargetId(final long value) {
        putU64(SECONDARY_TARGET_ID_OFFSET, value);
        return this;
    }

    public int pointXQ8() {
        return i32(POINT_OFFSET + RectQ8.X_OFFSET);
    }

    public int pointYQ8() {
        return i32(POINT_OFFSET + RectQ8.Y_OFFSET);
    }

    public ActionFlyweight point(final int xQ8, final int yQ8) {
        RectQ8.writePoint(bytes, offset + POINT_OFFSET, xQ8, yQ8);
        return this;
    }

    public int secondaryPointXQ8() {
        return i32(SECONDARY_POINT_OFFSET + RectQ8.X_OFFSET);
    }

    public int secondaryPointYQ8() {
        return i32(SECONDARY_POINT_OFFSET + RectQ8.Y_OFFSET);
    }

    public ActionFlyweight secondaryPoint(final int xQ8, final int yQ8) {
        RectQ8.writePoint(bytes, offset + SECONDARY_POINT_OFFSET, xQ8, yQ8);
        return this;
    }

    public int buttonBits() {
        return i32(BUTTON_BITS_OFFSET);
    }

    public ActionFlyweight buttonBits(final int value) {
        putI32(BUTTON_BITS_OFFSET, value);
        return this;
    }

    public int modifiers() {
        return i32(MODIFIERS_OFFSET);
    }

    public ActionFlyweight modifiers(final int value) {
        putI32(MODIFIERS_OFFSET, value);
        return this;
    }

    public long keyUsage() {
        return u32(KEY_USAGE_OFFSET);
    }

    public ActionFlyweight keyUsage(final long value) {
        putU32(KEY_USAGE_OFFSET, value);
        return this;
    }

    public long repeatCount() {
        return u32(REPEAT_COUNT_OFFSET);
    }

    public ActionFlyweight repeatCount(final long value) {
        putU32(REPEAT_COUNT_OFFSET, value);
        return this;
    }

    public int deltaXQ8() {
        return i32(DELTA_X_Q8_OFFSET);
    }

    public ActionFlyweight deltaXQ8(final int value) {
        putI32(DELTA_X_Q8_OFFSET, value);
        return this;
    }

    public int deltaYQ8() {
        return i32(DELTA_Y_Q8_OFFSET);
    }

    public ActionFlyweight deltaYQ8(final int value) {
        putI32(DELTA_Y_Q8_OFFSET, value);
        return this;
    }

    public long durationNs() {
        return u64(DURATION_NS_OFFSET);
    }

    public ActionFlyweight durationNs(final long value) {
        putU64(DURATION_NS_OFFSET, value);
        return this;
    }

    public long payloadOffset() {
        return u32(PAYLOAD_OFFSET_OFFSET);
    }

    public ActionFlyweight payloadOffset(final long value) {
        putU32(PAYLOAD_OFFSET_OFFSET, value);
        return this;
    }

    public long payloadSize() {
        return u32(PAYLOAD_SIZE_OFFSET);
    }

    public ActionFlyweight payloadSize(final long value) {
        putU32(PAYLOAD_SIZE_OFFSET, value);
        return this;
    }
}
