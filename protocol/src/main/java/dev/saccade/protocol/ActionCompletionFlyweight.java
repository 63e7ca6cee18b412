package dev.saccade.protocol;

/**
 * Action completion, 192 bytes, followed by one 48-byte row per processed action (spec §5.7).
 * <pre>
 *     0  header                         Header (16)
 *    16  request_id                     u64
 *    24  result                         i32
 *    28  platform_error                 i32
 *    32  completed_action_count         u32
 *    36  failed_action_index            u32
 *    40  action_result_count            u32
 *    44  action_result_stride           u32
 *    48  action_results_offset          u32
 *    52  total_size                     u32
 *    56  validated_generation           u64
 *    64  physical_state                 PhysicalState (48)
 *   112  next_generation                Generation (80)
 *   192  end</pre>
 */
public final class ActionCompletionFlyweight extends Flyweight<ActionCompletionFlyweight> {
    public static final int HEADER_OFFSET = 0;
    public static final int REQUEST_ID_OFFSET = HEADER_OFFSET + HeaderFlyweight.LENGTH;
    public static final int RESULT_OFFSET = REQUEST_ID_OFFSET + Long.BYTES;
    public static final int PLATFORM_ERROR_OFFSET = RESULT_OFFSET + Integer.BYTES;
    public static final int COMPLETED_ACTION_COUNT_OFFSET = PLATFORM_ERROR_OFFSET + Integer.BYTES;
    public static final int FAILED_ACTION_INDEX_OFFSET = COMPLETED_ACTION_COUNT_OFFSET + Integer.BYTES;
    public static final int ACTION_RESULT_COUNT_OFFSET = FAILED_ACTION_INDEX_OFFSET + Integer.BYTES;
    public static final int ACTION_RESULT_STRIDE_OFFSET = ACTION_RESULT_COUNT_OFFSET + Integer.BYTES;
    public static final int ACTION_RESULTS_OFFSET_OFFSET = ACTION_RESULT_STRIDE_OFFSET + Integer.BYTES;
    public static final int TOTAL_SIZE_OFFSET = ACTION_RESULTS_OFFSET_OFFSET + Integer.BYTES;
    public static final int VALIDATED_GENERATION_OFFSET = TOTAL_SIZE_OFFSET + Integer.BYTES;
    public static final int PHYSICAL_STATE_OFFSET = VALIDATED_GENERATION_OFFSET + Long.BYTES;
    public static final int NEXT_GENERATION_OFFSET = PHYSICAL_STATE_OFFSET + PhysicalStateFlyweight.LENGTH;
    public static final int LENGTH = NEXT_GENERATION_OFFSET + GenerationFlyweight.LENGTH;

    private final HeaderFlyweight header = new HeaderFlyweight();
    private final PhysicalStateFlyweight physicalState = new PhysicalStateFlyweight();
    private final GenerationFlyweight nextGeneration = new GenerationFlyweight();

    @Override
    protected void onWrap() {
        header.wrap(bytes, offset + HEADER_OFFSET);
        physicalState.wrap(bytes, offset + PHYSICAL_STATE_OFFSET);
        nextGeneration.wrap(bytes, offset + NEXT_GENERATION_OFFSET);
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

    public ActionCompletionFlyweight requestId(final long value) {
        putU64(REQUEST_ID_OFFSET, value);
        return this;
    }

    public int result() {
        return i32(RESULT_OFFSET);
    }

    public ActionCompletionFlyweight result(final int value) {
        putI32(RESULT_OFFSET, value);
        return this;
    }

    public int platformError() {
        return i32(PLATFORM_ERROR_OFFSET);
    }

    public ActionCompletionFlyweight platformError(final int value) {
        putI32(PLATFORM_ERROR_OFFSET, value);
        return this;
    }

    public long completedActionCount() {
        return u32(COMPLETED_ACTION_COUNT_OFFSET);
    }

    public ActionCompletionFlyweight completedActionCount(final long value) {
        putU32(COMPLETED_ACTION_COUNT_OFFSET, value);
        return this;
    }

    public long failedActionIndex() {
        return u32(FAILED_ACTION_INDEX_OFFSET);
    }

    public ActionCompletionFlyweight failedActionIndex(final long value) {
        putU32(FAILED_ACTION_INDEX_OFFSET, value);
        return this;
    }

    public long actionResultCount() {
        return u32(ACTION_RESULT_COUNT_OFFSET);
    }

    public ActionCompletionFlyweight actionResultCount(final long value) {
        putU32(ACTION_RESULT_COUNT_OFFSET, value);
        return this;
    }

    public long actionResultStride() {
        return u32(ACTION_RESULT_STRIDE_OFFSET);
    }

    public ActionCompletionFlyweight actionResultStride(final long value) {
        putU32(ACTION_RESULT_STRIDE_OFFSET, value);
        return this;
    }

    public long actionResultsOffset() {
        return u32(ACTION_RESULTS_OFFSET_OFFSET);
    }

    public ActionCompletionFlyweight actionResultsOffset(final long value) {
        putU32(ACTION_RESULTS_OFFSET_OFFSET, value);
        return this;
    }

    public long totalSize() {
        return u32(TOTAL_SIZE_OFFSET);
    }

    public ActionCompletionFlyweight totalSize(final long value) {
        putU32(TOTAL_SIZE_OFFSET, value);
        return this;
    }

    public long validatedGeneration() {
        return u64(VALIDATED_GENERATION_OFFSET);
    }

    public ActionCompletionFlyweight validatedGeneration(final long value) {
        putU64(VALIDATED_GENERATION_OFFSET, value);
        return this;
    }

    /** The embedded physical_state, viewed in place. */
    public PhysicalStateFlyweight physicalState() {
        return physicalState;
    }

    /** The embedded next_generation, viewed in place. */
    public GenerationFlyweight nextGeneration() {
        return nextGeneration;
    }
}
