package dev.saccade.protocol;

/**
 * Query request, 112 bytes, followed by its filters and their text (spec §4.3).
 * <pre>
 *     0  header                         Header (16)
 *    16  request_id                     u64
 *    24  generation                     u64
 *    32  scope                          Scope (32)
 *    64  requested_capability_bits      u32
 *    68  maximum_results                u32
 *    72  filter_count                   u32
 *    76  filter_stride                  u32
 *    80  filters_offset                 u32
 *    84  total_size                     u32
 *    88  freshness                      Freshness (24)
 *   112  end</pre>
 */
public final class QueryRequestFlyweight extends Flyweight<QueryRequestFlyweight> {
    public static final int HEADER_OFFSET = 0;
    public static final int REQUEST_ID_OFFSET = HEADER_OFFSET + HeaderFlyweight.LENGTH;
    public static final int GENERATION_OFFSET = REQUEST_ID_OFFSET + Long.BYTES;
    public static final int SCOPE_OFFSET = GENERATION_OFFSET + Long.BYTES;
    public static final int REQUESTED_CAPABILITY_BITS_OFFSET = SCOPE_OFFSET + ScopeFlyweight.LENGTH;
    public static final int MAXIMUM_RESULTS_OFFSET = REQUESTED_CAPABILITY_BITS_OFFSET + Integer.BYTES;
    public static final int FILTER_COUNT_OFFSET = MAXIMUM_RESULTS_OFFSET + Integer.BYTES;
    public static final int FILTER_STRIDE_OFFSET = FILTER_COUNT_OFFSET + Integer.BYTES;
    public static final int FILTERS_OFFSET_OFFSET = FILTER_STRIDE_OFFSET + Integer.BYTES;
    public static final int TOTAL_SIZE_OFFSET = FILTERS_OFFSET_OFFSET + Integer.BYTES;
    public static final int FRESHNESS_OFFSET = TOTAL_SIZE_OFFSET + Integer.BYTES;
    public static final int LENGTH = FRESHNESS_OFFSET + FreshnessFlyweight.LENGTH;

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

    public QueryRequestFlyweight requestId(final long value) {
        putU64(REQUEST_ID_OFFSET, value);
        return this;
    }

    public long generation() {
        return u64(GENERATION_OFFSET);
    }

    public QueryRequestFlyweight generation(final long value) {
        putU64(GENERATION_OFFSET, value);
        return this;
    }

    /** The embedded scope, viewed in place. */
    public ScopeFlyweight scope() {
        return scope;
    }

    public int requestedCapabilityBits() {
        return i32(REQUESTED_CAPABILITY_BITS_OFFSET);
    }

    public QueryRequestFlyweight requestedCapabilityBits(final int value) {
        putI32(REQUESTED_CAPABILITY_BITS_OFFSET, value);
        return this;
    }

    public long maximumResults() {
        return u32(MAXIMUM_RESULTS_OFFSET);
    }

    public QueryRequestFlyweight maximumResults(final long value) {
        putU32(MAXIMUM_RESULTS_OFFSET, value);
        return this;
    }

    public long filterCount() {
        return u32(FILTER_COUNT_OFFSET);
    }

    public QueryRequestFlyweight filterCount(final long value) {
        putU32(FILTER_COUNT_OFFSET, value);
        return this;
    }

    public long filterStride() {
        return u32(FILTER_STRIDE_OFFSET);
    }

    public QueryRequestFlyweight filterStride(final long value) {
        putU32(FILTER_STRIDE_OFFSET, value);
        return this;
    }

    public long filtersOffset() {
        return u32(FILTERS_OFFSET_OFFSET);
    }

    public QueryRequestFlyweight filtersOffset(final long value) {
        putU32(FILTERS_OFFSET_OFFSET, value);
        return this;
    }

    public long totalSize() {
        return u32(TOTAL_SIZE_OFFSET);
    }

    public QueryRequestFlyweight totalSize(final long value) {
        putU32(TOTAL_SIZE_OFFSET, value);
        return this;
    }

    /** The embedded freshness, viewed in place. */
    public FreshnessFlyweight freshness() {
        return freshness;
    }
}
