package dev.saccade.client;

import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.FilterFlag;
import dev.saccade.protocol.QueryFilterFlyweight;
import dev.saccade.protocol.QueryRequestFlyweight;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Writes one QueryRequest with at most one filter (spec §3, §4.3, §5.6) through the flyweights
 * into a buffer, normally {@code AgentClient.requestStore()} at {@code requestOffset()}.
 * <pre>
 *  0                 112               184                184 + text
 *  | QueryRequest    | QueryFilter     | filter text      |
 *  |                 | (if any test)   | (if --text)      |
 *                                                         ^ total_size = frame length
 * </pre>
 * Each condition setter sets its bit in the one filter's flags, so the filter holds exactly the
 * tests asked for, and all of them must hold for a target to be kept. Without any condition the
 * request has no filter (filter_count 0; filter_stride still 72, which the service requires).
 * Values are written as given: the options check their ranges first (spec §4.3 #2 and #6 close
 * the connection on a bad one).
 */
public final class QueryRequestBuilder {
    /** Largest maximum_results (spec §4.3 #2). */
    public static final int MAX_RESULTS = AgentAbi.MAX_TARGETS;
    /** Where the filter goes: right after the fixed request. */
    static final int FILTERS_OFFSET = QueryRequestFlyweight.LENGTH;
    /** Where the filter's text goes: right after the filter. */
    static final int TEXT_OFFSET = FILTERS_OFFSET + QueryFilterFlyweight.LENGTH;
    /** Longest filter text (spec §2 MAX_TEXT_BYTES). */
    public static final int MAX_TEXT_BYTES = AgentAbi.MAX_TEXT_BYTES;

    private final QueryRequestFlyweight request = new QueryRequestFlyweight();
    private final QueryFilterFlyweight filter = new QueryFilterFlyweight();
    private long requestId;
    private long generation;
    private ReadScope scope = ReadScope.DESKTOP;
    private ReadFreshness freshness = ReadFreshness.LATEST;
    private long maximumResults = 100;

    private boolean alwaysOneFilter;
    private int flags;
    private long targetId;
    private int role;
    private byte[] text;
    private int textMatch;
    private int requiredCapabilities;
    private int forbiddenCapabilities;
    private int sourceBits;
    private Q8Rect geometry;
    private long minimumConfidenceQ16;
    private int relation;
    private long relatedTargetId;

    public QueryRequestBuilder requestId(final long value) {
        requestId = value;
        return this;
    }

    /** Pins the query to this generation (0: none); another one is STALE_GENERATION. */
    public QueryRequestBuilder generation(final long value) {
        generation = value;
        return this;
    }

    public QueryRequestBuilder scope(final ReadScope value) {
        scope = value;
        return this;
    }

    public QueryRequestBuilder freshness(final ReadFreshness value) {
        freshness = value;
        return this;
    }

    public QueryRequestBuilder maximumResults(final long value) {
        maximumResults = value;
        return this;
    }

    /** STABLE_ID: the target with this id. */
    public QueryRequestBuilder stableId(final long id) {
        flags |= FilterFlag.STABLE_ID;
        targetId = id;
        return this;
    }

    /** ROLE. */
    public QueryRequestBuilder role(final int value) {
        flags |= FilterFlag.ROLE;
        role = value;
        return this;
    }

    /** TEXT: {@code utf8} (1..16,384 bytes of strict UTF-8) compared by {@code match}. */
    public QueryRequestBuilder text(final byte[] utf8, final int match) {
        flags |= FilterFlag.TEXT;
        text = utf8;
        textMatch = match;
        return this;
    }

    /** CAPABILITY: every required bit set and no forbidden one. */
    public QueryRequestBuilder capabilities(final int required, final int forbidden) {
        flags |= FilterFlag.CAPABILITY;
        requiredCapabilities = required;
        forbiddenCapabilities = forbidden;
        return this;
    }

    /** SOURCE: any of these source bits. */
    public QueryRequestBuilder sources(final int bits) {
        flags |= FilterFlag.SOURCE;
        sourceBits = bits;
        return this;
    }

    /** GEOMETRY: bounds intersect this rect. */
    public QueryRequestBuilder geometry(final Q8Rect rect) {
        flags |= FilterFlag.GEOMETRY;
        geometry = rect;
        return this;
    }

    /** CONFIDENCE: confidence_q16 at least this. */
    public QueryRequestBuilder minimumConfidenceQ16(final long value) {
        flags |= FilterFlag.CONFIDENCE;
        minimumConfidenceQ16 = value;
        return this;
    }

    /** RELATION: the kept target stands in {@code kind} to target {@code relatedId}. */
    public QueryRequestBuilder relation(final int kind, final long relatedId) {
        flags |= FilterFlag.RELATION;
        relation = kind;
        relatedTargetId = relatedId;
        return this;
    }

    /**
     * Writes the one filter even without a condition (flags 0: match all), as the MCP adapter's
     * fixed layout asks (mcp.md §6); otherwise such a request has no filter.
     */
    public QueryRequestBuilder alwaysOneFilter(final boolean value) {
        alwaysOneFilter = value;
        return this;
    }

    /** The filter's flags so far (0: no filter). */
    public int filterFlags() {
        return flags;
    }

    /** Writes the request at {@code at}; returns its frame length, equal to total_size. */
    public int writeTo(final BytesStore<?, ?> store, final long at) {
        final int filterCount = flags == 0 && !alwaysOneFilter ? 0 : 1;
        final int textLength = text == null ? 0 : text.length;
        final int length = filterCount == 0 ? QueryRequestFlyweight.LENGTH : TEXT_OFFSET + textLength;

        final QueryRequestFlyweight r = request.wrap(store, at).clear();
        r.header().set(QueryRequestFlyweight.LENGTH, AgentAbi.QUERY_REQUEST, 0);
        r.requestId(requestId)
            .generation(generation)
            .requestedCapabilityBits(Capability.OBSERVE)
            .maximumResults(maximumResults)
            .filterCount(filterCount)
            .filterStride(QueryFilterFlyweight.LENGTH)
            .filtersOffset(FILTERS_OFFSET)
            .totalSize(length);
        scope.writeTo(r.scope());
        freshness.writeTo(r.freshness());
        if (filterCount == 0) {
            return length;
        }

        final QueryFilterFlyweight f = filter.wrap(store, at + FILTERS_OFFSET).clear();
        f.flags(flags)
            .targetId(targetId)
            .role(role)
            .requiredCapabilityBits(requiredCapabilities)
            .forbiddenCapabilityBits(forbiddenCapabilities)
            .sourceBits(sourceBits)
            .minimumConfidenceQ16(minimumConfidenceQ16)
            .relation(relation)
            .relationTargetId(relatedTargetId);
        if (geometry != null) {
            f.geometry(geometry.xQ8(), geometry.yQ8(), geometry.widthQ8(), geometry.heightQ8());
        }
        if (text != null) {
            f.textMatch(textMatch).textOffset(TEXT_OFFSET).textSize(textLength);
            store.write(at + TEXT_OFFSET, text, 0, textLength);
        }
        return length;
    }
}
