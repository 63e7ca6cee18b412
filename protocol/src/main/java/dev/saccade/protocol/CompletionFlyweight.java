package dev.saccade.protocol;

/**
 * Observe or query completion, 168 bytes (kinds 2 and 4 share this layout), followed by target records and the text lane (spec §5.5).
 * <pre>
 *     0  header                         Header (16)
 *    16  request_id                     u64
 *    24  result                         i32
 *    28  platform_error                 i32
 *    32  granted_capability_bits        u32
 *    36  target_count                   u32
 *    40  target_stride                  u32
 *    44  targets_offset                 u32
 *    48  total_size                     u32
 *    52  reserved                       u32 reserved
 *    56  generation                     Generation (80)
 *   136  scope                          Scope (32)
 *   168  end</pre>
 */
public final class CompletionFlyweight extends Flyweight<CompletionFlyweight> {
    public static final int HEADER_OFFSET = 0;
    public static final int REQUEST_ID_OFFSET = HEADER_OFFSET + HeaderFlyweight.LENGTH;
    public static final int RESULT_OFFSET = REQUEST_ID_OFFSET + Long.BYTES;
    public static final int PLATFORM_ERROR_OFFSET = RESULT_OFFSET + Integer.BYTES;
    public static final int GRANTED_CAPABILITY_BITS_OFFSET = PLATFORM_ERROR_OFFSET + Integer.BYTES;
    public static final int TARGET_COUNT_OFFSET = GRANTED_CAPABILITY_BITS_OFFSET + Integer.BYTES;
    public static final int TARGET_STRIDE_OFFSET = TARGET_COUNT_OFFSET + Integer.BYTES;
    public static final int TARGETS_OFFSET_OFFSET = TARGET_STRIDE_OFFSET + Integer.BYTES;
    public static final int TOTAL_SIZE_OFFSET = TARGETS_OFFSET_OFFSET + Integer.BYTES;
    public static final int RESERVED_OFFSET = TOTAL_SIZE_OFFSET + Integer.BYTES;
    public static final int GENERATION_OFFSET = RESERVED_OFFSET + Integer.BYTES;
    public static final int SCOPE_OFFSET = GENERATION_OFFSET + GenerationFlyweight.LENGTH;
    public static final int LENGTH = SCOPE_OFFSET + ScopeFlyweight.LENGTH;

    private final HeaderFlyweight header = new HeaderFlyweight();
    private final GenerationFlyweight generation = new GenerationFlyweight();
    private final ScopeFlyweight scope = new ScopeFlyweight();

    @Override
    protected void onWrap() {
        header.wrap(bytes, offset + HEADER_OFFSET);
        generation.wrap(bytes, offset + GENERATION_OFFSET);
        scope.wrap(bytes, offset + SCOPE_OFFSET);
    }

    @Override
    public int length() {
        return LENGTH;
    }

    /** The embedded header, viewed in place. */
    public HeaderFlyweight header() {
        return header;
    }

    public long requestId() {
        return u64(REQUEST_ID_OFFSET);
    }

    public CompletionFlyweight requestId(final long value) {
        putU64(REQUEST_ID_OFFSET, value);
        return this;
    }

    public int result() {
        return i32(RESULT_OFFSET);
    }

    public CompletionFlyweight result(final int value) {
        putI32(RESULT_OFFSET, value);
        return this;
    }

    public int platformError() {
        return i32(PLATFORM_ERROR_OFFSET);
    }

    public CompletionFlyweight platformError(final int value) {
        putI32(PLATFORM_ERROR_OFFSET, value);
        return this;
    }

    public int grantedCapabilityBits() {
        return i32(GRANTED_CAPABILITY_BITS_OFFSET);
    }

    public CompletionFlyweight grantedCapabilityBits(final int value) {
        putI32(GRANTED_CAPABILITY_BITS_OFFSET, value);
        return this;
    }

    public long targetCount() {
        return u32(TARGET_COUNT_OFFSET);
    }

    public CompletionFlyweight targetCount(final long value) {
        putU32(TARGET_COUNT_OFFSET, value);
        return this;
    }

    public long targetStride() {
        return u32(TARGET_STRIDE_OFFSET);
    }

    public CompletionFlyweight targetStride(final long value) {
        putU32(TARGET_STRIDE_OFFSET, value);
        return this;
    }

    public long targetsOffset() {
        return u32(TARGETS_OFFSET_OFFSET);
    }

    public CompletionFlyweight targetsOffset(final long value) {
        putU32(TARGETS_OFFSET_OFFSET, value);
        return this;
    }

    public long totalSize() {
        return u32(TOTAL_SIZE_OFFSET);
    }

    public CompletionFlyweight totalSize(final long value) {
        putU32(TOTAL_SIZE_OFFSET, value);
        return this;
    }

    /** The embedded generation, viewed in place. */
    public GenerationFlyweight generation() {
        return generation;
    }

    /** The embedded scope, viewed in place. */
    public ScopeFlyweight scope() {
        return scope;
    }
}
