package dev.saccade.protocol;

/**
 * Action batch, 136 bytes, followed by its actions and payload (spec §4.4, §5.7).
 * <pre>
 *     0  header                         Header (16)
 *    16  request_id                     u64
 *    24  requested_capability_bits      u32
 *    28  policy                         i32
 *    32  deadline_ns                    u64
 *    40  preconditions                  Preconditions (72)
 *   112  action_count                   u32
 *   116  action_stride                  u32
 *   120  actions_offset                 u32
 *   124  payload_offset                 u32
 *   128  payload_size                   u32
 *   132  total_size                     u32
 *   136  end</pre>
 */
public final class ActionBatchFlyweight extends Flyweight<ActionBatchFlyweight> {
    public static final int HEADER_OFFSET = 0;
    public static final int REQUEST_ID_OFFSET = HEADER_OFFSET + HeaderFlyweight.LENGTH;
    public static final int REQUESTED_CAPABILITY_BITS_OFFSET = REQUEST_ID_OFFSET + Long.BYTES;
    public static final int POLICY_OFFSET = REQUESTED_CAPABILITY_BITS_OFFSET + Integer.BYTES;
    public static final int DEADLINE_NS_OFFSET = POLICY_OFFSET + Integer.BYTES;
    public static final int PRECONDITIONS_OFFSET = DEADLINE_NS_OFFSET + Long.BYTES;
    public static final int ACTION_COUNT_OFFSET = PRECONDITIONS_OFFSET + PreconditionsFlyweight.LENGTH;
    public static final int ACTION_STRIDE_OFFSET = ACTION_COUNT_OFFSET + Integer.BYTES;
    public static final int ACTIONS_OFFSET_OFFSET = ACTION_STRIDE_OFFSET + Integer.BYTES;
    public static final int PAYLOAD_OFFSET_OFFSET = ACTIONS_OFFSET_OFFSET + Integer.BYTES;
    public static final int PAYLOAD_SIZE_OFFSET = PAYLOAD_OFFSET_OFFSET + Integer.BYTES;
    public static final int TOTAL_SIZE_OFFSET = PAYLOAD_SIZE_OFFSET + Integer.BYTES;
    public static final int LENGTH = TOTAL_SIZE_OFFSET + Integer.BYTES;

    private final HeaderFlyweight header = new HeaderFlyweight();
    private final PreconditionsFlyweight preconditions = new PreconditionsFlyweight();

    @Override
    protected void onWrap() {
        header.wrap(bytes, offset + HEADER_OFFSET);
        preconditions.wrap(bytes, offset + PRECONDITIONS_OFFSET);
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

    public ActionBatchFlyweight requestId(final long value) {
        putU64(REQUEST_ID_OFFSET, value);
        return this;
    }

    public int requestedCapabilityBits() {
        return i32(REQUESTED_CAPABILITY_BITS_OFFSET);
    }

    public ActionBatchFlyweight requestedCapabilityBits(final int value) {
        putI32(REQUESTED_CAPABILITY_BITS_OFFSET, value);
        return this;
    }

    public int policy() {
        return i32(POLICY_OFFSET);
    }

    public ActionBatchFlyweight policy(final int value) {
        putI32(POLICY_OFFSET, value);
        return this;
    }

    public long deadlineNs() {
        return u64(DEADLINE_NS_OFFSET);
    }

    public ActionBatchFlyweight deadlineNs(final long value) {
        putU64(DEADLINE_NS_OFFSET, value);
        return this;
    }

    /** The embedded preconditions, viewed in place. */
    public PreconditionsFlyweight preconditions() {
        return preconditions;
    }

    public long actionCount() {
        return u32(ACTION_COUNT_OFFSET);
    }

    public ActionBatchFlyweight actionCount(final long value) {
        putU32(ACTION_COUNT_OFFSET, value);
        return this;
    }

    public long actionStride() {
        return u32(ACTION_STRIDE_OFFSET);
    }

    public ActionBatchFlyweight actionStride(final long value) {
        putU32(ACTION_STRIDE_OFFSET, value);
        return this;
    }

    public long actionsOffset() {
        return u32(ACTIONS_OFFSET_OFFSET);
    }

    public ActionBatchFlyweight actionsOffset(final long value) {
        putU32(ACTIONS_OFFSET_OFFSET, value);
        return this;
    }

    public long payloadOffset() {
        return u32(PAYLOAD_OFFSET_OFFSET);
    }

    public ActionBatchFlyweight payloadOffset(final long value) {
        putU32(PAYLOAD_OFFSET_OFFSET, value);
        return this;
    }

    public long payloadSize() {
        return u32(PAYLOAD_SIZE_OFFSET);
    }

    public ActionBatchFlyweight payloadSize(final long value) {
        putU32(PAYLOAD_SIZE_OFFSET, value);
        return this;
    }

    public long totalSize() {
        return u32(TOTAL_SIZE_OFFSET);
    }

    public ActionBatchFlyweight totalSize(final long value) {
        putU32(TOTAL_SIZE_OFFSET, value);
        return this;
    }
}
