package dev.saccade.protocol;

/**
 * Target record, 88 bytes: one on-screen element of a scene (spec §3, §5.5).
 * <pre>
 *     0  target_id                      u64
 *     8  parent_id                      u64
 *    16  window_id                      u64
 *    24  display_id                     u64
 *    32  bounds                         RectQ8 (16)
 *    48  safe_point                     PointQ8 (8)
 *    56  capability_bits                u32
 *    60  flags                          u32
 *    64  role                           u16
 *    66  source_bits                    u16
 *    68  confidence_q16                 u32
 *    72  text_offset                    u32
 *    76  text_size                      u32
 *    80  order                          u32
 *    84  states                         u32 (reserved unless negotiated, §1.4)
 *    88  end</pre>
 */
public final class TargetFlyweight extends Flyweight<TargetFlyweight> {
    public static final int TARGET_ID_OFFSET = 0;
    public static final int PARENT_ID_OFFSET = TARGET_ID_OFFSET + Long.BYTES;
    public static final int WINDOW_ID_OFFSET = PARENT_ID_OFFSET + Long.BYTES;
    public static final int DISPLAY_ID_OFFSET = WINDOW_ID_OFFSET + Long.BYTES;
    public static final int BOUNDS_OFFSET = DISPLAY_ID_OFFSET + Long.BYTES;
    public static final int SAFE_POINT_OFFSET = BOUNDS_OFFSET + RectQ8.LENGTH;
    public static final int CAPABILITY_BITS_OFFSET = SAFE_POINT_OFFSET + RectQ8.POINT_LENGTH;
    public static final int FLAGS_OFFSET = CAPABILITY_BITS_OFFSET + Integer.BYTES;
    public static final int ROLE_OFFSET = FLAGS_OFFSET + Integer.BYTES;
    public static final int SOURCE_BITS_OFFSET = ROLE_OFFSET + Short.BYTES;
    public static final int CONFIDENCE_Q16_OFFSET = SOURCE_BITS_OFFSET + Short.BYTES;
    public static final int TEXT_OFFSET_OFFSET = CONFIDENCE_Q16_OFFSET + Integer.BYTES;
    public static final int TEXT_SIZE_OFFSET = TEXT_OFFSET_OFFSET + Integer.BYTES;
    public static final int ORDER_OFFSET = TEXT_SIZE_OFFSET + Integer.BYTES;
    /** The record's last word: {@link TargetState} bits for a connection that negotiated them, else reserved (0). */
    public static final int STATES_OFFSET = ORDER_OFFSET + Integer.BYTES;
    /** The same word under its base-ABI name. */
    public static final int RESERVED_OFFSET = STATES_OFFSET;
    public static final int LENGTH = STATES_OFFSET + Integer.BYTES;

    @Override
    public int length() {
        return LENGTH;
    }

    public long targetId() {
        return u64(TARGET_ID_OFFSET);
    }

    public TargetFlyweight targetId(final long value) {
        putU64(TARGET_ID_OFFSET, value);
        return this;
    }

    public long parentId() {
        return u64(PARENT_ID_OFFSET);
    }

    public TargetFlyweight parentId(final long value) {
        putU64(PARENT_ID_OFFSET, value);
        return this;
    }

    public long windowId() {
        return u64(WINDOW_ID_OFFSET);
    }

    public TargetFlyweight windowId(final long value) {
        putU64(WINDOW_ID_OFFSET, value);
        return this;
    }

    public long displayId() {
        return u64(DISPLAY_ID_OFFSET);
    }

    public TargetFlyweight displayId(final long value) {
        putU64(DISPLAY_ID_OFFSET, value);
        return this;
    }

    public int boundsXQ8() {
        return i32(BOUNDS_OFFSET + RectQ8.X_OFFSET);
    }

    public int boundsYQ8() {
        return i32(BOUNDS_OFFSET + RectQ8.Y_OFFSET);
    }

    public int boundsWidthQ8() {
        return i32(BOUNDS_OFFSET + RectQ8.WIDTH_OFFSET);
    }

    public int boundsHeightQ8() {
        return i32(BOUNDS_OFFSET + RectQ8.HEIGHT_OFFSET);
    }

    public TargetFlyweight bounds(final int xQ8, final int yQ8, final int widthQ8, final int heightQ8) {
        RectQ8.write(bytes, offset + BOUNDS_OFFSET, xQ8, yQ8, widthQ8, heightQ8);
        return this;
    }

    public int safePointXQ8() {
        return i32(SAFE_POINT_OFFSET + RectQ8.X_OFFSET);
    }

    public int safePointYQ8() {
        return i32(SAFE_POINT_OFFSET + RectQ8.Y_OFFSET);
    }

    public TargetFlyweight safePoint(final int xQ8, final int yQ8) {
        RectQ8.writePoint(bytes, offset + SAFE_POINT_OFFSET, xQ8, yQ8);
        return this;
    }

    public int capabilityBits() {
        return i32(CAPABILITY_BITS_OFFSET);
    }

    public TargetFlyweight capabilityBits(final int value) {
        putI32(CAPABILITY_BITS_OFFSET, value);
        return this;
    }

    public int flags() {
        return i32(FLAGS_OFFSET);
    }

    public TargetFlyweight flags(final int value) {
        putI32(FLAGS_OFFSET, value);
        return this;
    }

    public int role() {
        return u16(ROLE_OFFSET);
    }

    public TargetFlyweight role(final int value) {
        putU16(ROLE_OFFSET, value);
        return this;
    }

    public int sourceBits() {
        return u16(SOURCE_BITS_OFFSET);
    }

    public TargetFlyweight sourceBits(final int value) {
        putU16(SOURCE_BITS_OFFSET, value);
        return this;
    }

    public long confidenceQ16() {
        return u32(CONFIDENCE_Q16_OFFSET);
    }

    public TargetFlyweight confidenceQ16(final long value) {
        putU32(CONFIDENCE_Q16_OFFSET, value);
        return this;
    }

    public long textOffset() {
        return u32(TEXT_OFFSET_OFFSET);
    }

    public TargetFlyweight textOffset(final long value) {
        putU32(TEXT_OFFSET_OFFSET, value);
        return this;
    }

    public long textSize() {
        return u32(TEXT_SIZE_OFFSET);
    }

    public TargetFlyweight textSize(final long value) {
        putU32(TEXT_SIZE_OFFSET, value);
        return this;
    }

    public long order() {
        return u32(ORDER_OFFSET);
    }

    public TargetFlyweight order(final long value) {
        putU32(ORDER_OFFSET, value);
        return this;
    }

    /** {@link TargetState} bits; 0 on a connection that did not ask for them (§1.4). */
    public int states() {
        return i32(STATES_OFFSET);
    }

    public TargetFlyweight states(final int value) {
        putI32(STATES_OFFSET, value);
        return this;
    }
}
