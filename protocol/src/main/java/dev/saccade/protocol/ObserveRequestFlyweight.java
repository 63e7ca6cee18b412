package dev.saccade.protocol;

/**
 * Observe request, 96 bytes (spec §4.2).
 * <pre>
 *     0  header                         Header (16)
 *    16  request_id                     u64
 *    24  scope                          Scope (32)
 *    56  freshness                      Freshness (24)
 *    80  requested_capability_bits      u32
 *    84  maximum_targets                u32
 *    88  target_stride                  u32
 *    92  total_capacity                 u32
 *    96  end</pre>
 */
public final class ObserveRequestFlyweight extends Flyweight<ObserveRequestFlyweight> {
    public static final int HEADER_OFFSET = 0;
    public static final int REQUEST_ID_OFFSET = HEADER_OFFSET + HeaderFlyweight.LENGTH;
    public static final int SCOPE_OFFSET = REQUEST_ID_OFFSET + Long.BYTES;
    public static final int FRESHNESS_OFFSET = SCOPE_OFFSET + ScopeFlyweight.LENGTH;
    public static final int REQUESTED_CAPABILITY_BITS_OFFSET = FRESHNESS_OFFSET + FreshnessFlyweight.LENGTH;
    public static final int MAXIMUM_TARGETS_OFFSET = REQUESTED_CAPABILITY_BITS_OFFSET + Integer.BYTES;
    public static final int TARGET_STRIDE_OFFSET = MAXIMUM_TARGETS_OFFSET + Integer.BYTES;
    public static final int TOTAL_CAPACITY_OFFSET = TARGET_STRIDE_OFFSET + Integer.BYTES;
    public static final int LENGTH = TOTAL_CAPACITY_OFFSET + Integer.BYTES;

    private final HeaderFlyweight header = new HeaderFlyweight();
    private final ScopeFlyweight scope = new ScopeFlyweight();
    private final FreshnessFlyweight freshness = new FreshnessFlyweight();

    @Override
    protected void onWrap() {
        header.wrap(bytes, offset + HEADER_OFFSET);
        scope.wrap(bytes, offset + SCOPE_OFFSET);
        freshness.wrap(bytes, offset + FRESHNESS_OFFSET);
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

    public ObserveRequestFlyweight requestId(final long value) {
        putU64(REQUEST_ID_OFFSET, value);
        return this;
    }

    /** The embedded scope, viewed in place. */
    public ScopeFlyweight scope() {
        return scope;
    }

    /** The embedded freshness, viewed in place. */
    public FreshnessFlyweight freshness() {
        return freshness;
    }

    public int requestedCapabilityBits() {
        return i32(REQUESTED_CAPABILITY_BITS_OFFSET);
    }

    public ObserveRequestFlyweight requestedCapabilityBits(final int value) {
        putI32(REQUESTED_CAPABILITY_BITS_OFFSET, value);
        return this;
    }

    public long maximumTargets() {
        return u32(MAXIMUM_TARGETS_OFFSET);
    }

    public ObserveRequestFlyweight maximumTargets(final long value) {
        putU32(MAXIMUM_TARGETS_OFFSET, value);
        return this;
    }

    public long targetStride() {
        return u32(TARGET_STRIDE_OFFSET);
    }

    public ObserveRequestFlyweight targetStride(final long value) {
        putU32(TARGET_STRIDE_OFFSET, value);
        return this;
    }

    public long totalCapacity() {
        return u32(TOTAL_CAPACITY_OFFSET);
    }

    public ObserveRequestFlyweight totalCapacity(final long value) {
        putU32(TOTAL_CAPACITY_OFFSET, value);
        return this;
    }
}
