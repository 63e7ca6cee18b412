package dev.saccade.protocol;

/**
 * Query filter, 72 bytes: every set test must hold for a target to be kept (spec §5.6).
 * <pre>
 *     0  flags                          u32
 *     4  role                           u16
 *     6  source_bits                    u16
 *     8  required_capability_bits       u32
 *    12  forbidden_capability_bits      u32
 *    16  target_id                      u64
 *    24  relation_target_id             u64
 *    32  geometry                       RectQ8 (16)
 *    48  minimum_confidence_q16         u32
 *    52  text_match                     i32
 *    56  text_offset                    u32
 *    60  text_size                      u32
 *    64  relation                       i32
 *    68  reserved                       u32 reserved
 *    72  end</pre>
 */
public final class QueryFilterFlyweight extends Flyweight<QueryFilterFlyweight> {
    public static final int FLAGS_OFFSET = 0;
    public static final int ROLE_OFFSET = FLAGS_OFFSET + Integer.BYTES;
    public static final int SOURCE_BITS_OFFSET = ROLE_OFFSET + Short.BYTES;
    public static final int REQUIRED_CAPABILITY_BITS_OFFSET = SOURCE_BITS_OFFSET + Short.BYTES;
    public static final int FORBIDDEN_CAPABILITY_BITS_OFFSET = REQUIRED_CAPABILITY_BITS_OFFSET + Integer.BYTES;
    public static final int TARGET_ID_OFFSET = FORBIDDEN_CAPABILITY_BITS_OFFSET + Integer.BYTES;
    public static final int RELATION_TARGET_ID_OFFSET = TARGET_ID_OFFSET + Long.BYTES;
    public static final int GEOMETRY_OFFSET = RELATION_TARGET_ID_OFFSET + Long.BYTES;
    public static final int MINIMUM_CONFIDENCE_Q16_OFFSET = GEOMETRY_OFFSET + RectQ8.LENGTH;
    public static final int TEXT_MATCH_OFFSET = MINIMUM_CONFIDENCE_Q16_OFFSET + Integer.BYTES;
    public static final int TEXT_OFFSET_OFFSET = TEXT_MATCH_OFFSET + Integer.BYTES;
    public static final int TEXT_SIZE_OFFSET = TEXT_OFFSET_OFFSET + Integer.BYTES;
    public static final int RELATION_OFFSET = TEXT_SIZE_OFFSET + Integer.BYTES;
    public static final int RESERVED_OFFSET = RELATION_OFFSET + Integer.BYTES;
    public static final int LENGTH = RESERVED_OFFSET + Integer.BYTES;

    @Override
    public int length() {
        return LENGTH;
    }

    public int flags() {
        return i32(FLAGS_OFFSET);
    }

    public QueryFilterFlyweight flags(final int value) {
        putI32(FLAGS_OFFSET, value);
        return this;
    }

    public int role() {
        return u16(ROLE_OFFSET);
    }

    public QueryFilterFlyweight role(final int value) {
        putU16(ROLE_OFFSET, value);
        return this;
    }

    public int sourceBits() {
        return u16(SOURCE_BITS_OFFSET);
    }

    public QueryFilterFlyweight sourceBits(final int value) {
        putU16(SOURCE_BITS_OFFSET, value);
        return this;
    }

    public int requiredCapabilityBits() {
        return i32(REQUIRED_CAPABILITY_BITS_OFFSET);
    }

    public QueryFilterFlyweight requiredCapabilityBits(final int value) {
        putI32(REQUIRED_CAPABILITY_BITS_OFFSET, value);
        return this;
    }

    public int forbiddenCapabilityBits() {
        return i32(FORBIDDEN_CAPABILITY_BITS_OFFSET);
    }

    public QueryFilterFlyweight forbiddenCapabilityBits(final int value) {
        putI32(FORBIDDEN_CAPABILITY_BITS_OFFSET, value);
        return this;
    }

    public long targetId() {
        return u64(TARGET_ID_OFFSET);
    }

    public QueryFilterFlyweight targetId(final long value) {
        putU64(TARGET_ID_OFFSET, value);
        return this;
    }

    public long relationTargetId() {
        return u64(RELATION_TARGET_ID_OFFSET);
    }

    public QueryFilterFlyweight relationTargetId(final long value) {
        putU64(RELATION_TARGET_ID_OFFSET, value);
        return this;
    }

    public int geometryXQ8() {
        return i32(GEOMETRY_OFFSET + RectQ8.X_OFFSET);
    }

    public int geometryYQ8() {
        return i32(GEOMETRY_OFFSET + RectQ8.Y_OFFSET);
    }

    public int geometryWidthQ8() {
        return i32(GEOMETRY_OFFSET + RectQ8.WIDTH_OFFSET);
    }

    public int geometryHeightQ8() {
        return i32(GEOMETRY_OFFSET + RectQ8.HEIGHT_OFFSET);
    }

    public QueryFilterFlyweight geometry(final int xQ8, final int yQ8, final int widthQ8, final int heightQ8) {
        RectQ8.write(bytes, offset + GEOMETRY_OFFSET, xQ8, yQ8, widthQ8, heightQ8);
        return this;
    }

    public long minimumConfidenceQ16() {
        return u32(MINIMUM_CONFIDENCE_Q16_OFFSET);
    }

    public QueryFilterFlyweight minimumConfidenceQ16(final long value) {
        putU32(MINIMUM_CONFIDENCE_Q16_OFFSET, value);
        return this;
    }

    public int textMatch() {
        return i32(TEXT_MATCH_OFFSET);
    }

    public QueryFilterFlyweight textMatch(final int value) {
        putI32(TEXT_MATCH_OFFSET, value);
        return this;
    }

    public long textOffset() {
        return u32(TEXT_OFFSET_OFFSET);
    }

    public QueryFilterFlyweight textOffset(final long value) {
        putU32(TEXT_OFFSET_OFFSET, value);
        return this;
    }

    public long textSize() {
        return u32(TEXT_SIZE_OFFSET);
    }

    public QueryFilterFlyweight textSize(final long value) {
        putU32(TEXT_SIZE_OFFSET, value);
        return this;
    }

    public int relation() {
        return i32(RELATION_OFFSET);
    }

    public QueryFilterFlyweight relation(final int value) {
        putI32(RELATION_OFFSET, value);
        return this;
    }
}
