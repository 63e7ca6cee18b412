package dev.saccade.ipc.link;

import static dev.saccade.ipc.link.RingDescriptor.ALIGNMENT;
import static dev.saccade.ipc.link.RingDescriptor.HEADER_LENGTH;
import static dev.saccade.ipc.link.RingDescriptor.LENGTH_OFFSET;
import static dev.saccade.ipc.link.RingDescriptor.PADDING_TYPE;
import static dev.saccade.ipc.link.RingDescriptor.TYPE_OFFSET;

import net.openhft.chronicle.bytes.BytesStore;

/**
 * A single-producer, single-consumer ring of variable-length records in shared memory, in the
 * manner of Agrona's {@code OneToOneRingBuffer} (layout: {@link RingDescriptor}). The producer
 * and the consumer may live in different processes, each with its own instance over its own
 * mapping of the same bytes; within a process each side belongs to one thread.
 *
 * <p><b>Write</b> ({@link #tryWrite}): claim space by moving the tail (an ordered store), write a
 * padding record first if the record would cross the end of the data region, copy the payload,
 * store the type, and store the length last with an ordered store: that store publishes the
 * record. A ring without room returns {@code false}; nothing blocks, nothing is allocated.
 *
 * <p><b>Read</b> ({@link #read}): from the head, while records are published (length &gt; 0)
 * and the limit allows, validate each header and hand the payload to the handler in place; then
 * zero the consumed bytes and move the head (ordered). Each header is checked before its payload
 * is touched: the length lies within [8, bytes left before the end of the data region], the
 * record ends at or before the tail the producer published, the type is a message type (&gt; 0)
 * or padding, and the payload is at most {@link RingDescriptor#maxPayloadLength(int)}. A header
 * that fails any check marks the ring corrupt: {@link #read} returns {@link #CORRUPT} from then
 * on and {@link #corruption()} says why. A corrupt ring never throws and never reads or writes
 * outside its region; resynchronising is impossible (record boundaries are lost), so the link
 * that owns it is torn down and built anew.
 *
 * <p>The producer checks the head it reads as well: a head ahead of the tail or more than a
 * capacity behind it marks the ring corrupt and {@link #tryWrite} returns false.
 */
public final class OneToOneByteRing {
    /** {@link #read} result once a corrupt header was found. */
    public static final int CORRUPT = -1;

    public static final int CORRUPTION_NONE = 0;
    /** A length below the header size or past the end of the data region. */
    public static final int CORRUPTION_LENGTH = 1;
    /** A record that ends beyond the published tail. */
    public static final int CORRUPTION_PAST_TAIL = 2;
    /** A type that is neither a message type (&gt; 0) nor padding. */
    public static final int CORRUPTION_TYPE = 3;
    /** A payload longer than the ring's maximum. */
    public static final int CORRUPTION_TOO_LONG = 4;
    /** A tail more than a capacity ahead of the head. */
    public static final int CORRUPTION_TAIL = 5;
    /** A head ahead of the tail or more than a capacity behind it (seen by the producer). */
    public static final int CORRUPTION_HEAD = 6;

    private static final String[] CORRUPTIONS = {
        "none", "record length out of bounds", "record ends past the tail", "unknown record type",
        "payload above the maximum", "tail more than a capacity ahead of the head",
        "head outside [tail - capacity, tail]"};

    private final BytesStore<?, ?> store;
    private final long data;
    private final int capacity;
    private final int mask;
    private final int maxPayloadLength;
    private final long tailAt;
    private final long headAt;

    /** Producer only: the last head read, so most writes need not read the consumer's line. */
    private long headCache;
    /** Consumer only: the last tail read, so most reads need not read the producer's line. */
    private long tailCache;
    /** Written by whichever side found the corruption (each instance serves one side). */
    private int corruption;
    /** Consumer only. */
    private long paddingRecords;

    /**
     * Views the ring whose data region starts at {@code offset} of {@code store} and whose
     * trailer follows it.
     *
     * @param capacity data bytes, a power of two (see {@link RingDescriptor#checkCapacity}).
     */
    public OneToOneByteRing(final BytesStore<?, ?> store, final long offset, final int capacity) {
        RingDescriptor.checkCapacity(capacity);
        if (offset < 0 || offset % ALIGNMENT != 0 || store.capacity() < offset + RingDescriptor.regionLength(capacity)) {
            throw new IllegalArgumentException("ring region [" + offset + ", +" + RingDescriptor.regionLength(capacity)
                + ") does not fit a store of " + store.capacity() + " bytes, or is not 8-byte aligned");
        }
        this.store = store;
        this.data = offset;
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.maxPayloadLength = RingDescriptor.maxPayloadLength(capacity);
        this.tailAt = offset + capacity + RingDescriptor.TAIL_POSITION_OFFSET;
        this.headAt = offset + capacity + RingDescriptor.HEAD_POSITION_OFFSET;
        this.headCache = store.readVolatileLong(headAt);
        this.tailCache = store.readVolatileLong(tailAt);
    }

    public int capacity() {
        return capacity;
    }

    public int maxPayloadLength() {
        return maxPayloadLength;
    }

    /**
     * Producer: copies one record of {@code type} from {@code length} bytes at {@code srcOffset}
     * of {@code src}.
     *
     * @return false when the ring has no room now (or is corrupt).
     * @throws IllegalArgumentException for a type ≤ 0 or a length outside [0, max payload]: a
     *     programming error, not a state of the ring.
     */
    public boolean tryWrite(final int type, final BytesStore<?, ?> src, final long srcOffset, final int length) {
        if (type <= 0) {
            throw new IllegalArgumentException("message type must be positive: " + type);
        }
        if (length < 0 || length > maxPayloadLength) {
            throw new IllegalArgumentException("payload of " + length + " bytes outside [0, " + maxPayloadLength + "]");
        }
        if (corruption != CORRUPTION_NONE) {
            return false;
        }
        final int recordLength = length + HEADER_LENGTH;
        final long at = claim(RingDescriptor.align(recordLength));
        if (at < 0) {
            return false;
        }
        if (length > 0) {
            store.write(at + HEADER_LENGTH, src, srcOffset, length);
        }
        store.writeInt(at + TYPE_OFFSET, type);
        store.writeOrderedInt(at + LENGTH_OFFSET, recordLength);
        return true;
    }

    /**
     * Consumer: hands up to {@code limit} published records to {@code handler}, in order, then
     * frees their space. Never blocks, allocates nothing. Reads stop at the end of the data
     * region; the next call continues from its start.
     *
     * @return the number of records handed out, or {@link #CORRUPT} if a corrupt header was
     *     found in this call or before (records before it in this call were still handed out).
     *     If the handler throws, the record it was given counts as consumed and the exception
     *     propagates.
     */
    public int read(final RecordHandler handler, final int limit) {
        if (corruption != CORRUPTION_NONE) {
            return CORRUPT;
        }
        final long head = store.readLong(headAt);
        final int headIndex = (int) head & mask;
        final int contiguous = capacity - headIndex;
        int bytesRead = 0;
        int records = 0;
        try {
            while (bytesRead < contiguous && records < limit) {
                final long recordAt = data + headIndex + bytesRead;
                final int length = store.readVolatileInt(recordAt + LENGTH_OFFSET);
                if (length == 0) {
                    break;
                }
                final int remaining = contiguous - bytesRead;
                if (length < HEADER_LENGTH || length > remaining) {
                    corruption = CORRUPTION_LENGTH;
                    break;
                }
                final int aligned = RingDescriptor.align(length);
                final long end = head + bytesRead + aligned;
                if (end - tailCache > 0) {
                    tailCache = store.readVolatileLong(tailAt);
                    if (end - tailCache > 0) {
                        corruption = CORRUPTION_PAST_TAIL;
                        break;
                    }
                    if (tailCache - head > capacity) {
                        corruption = CORRUPTION_TAIL;
                        break;
                    }
                }
                final int type = store.readInt(recordAt + TYPE_OFFSET);
                if (type == PADDING_TYPE) {
                    bytesRead += aligned;
                    paddingRecords++;
                    continue;
                }
                if (type <= 0) {
                    corruption = CORRUPTION_TYPE;
                    break;
                }
                if (length - HEADER_LENGTH > maxPayloadLength) {
                    corruption = CORRUPTION_TOO_LONG;
                    break;
                }
                bytesRead += aligned;
                records++;
                handler.onRecord(type, store, recordAt + HEADER_LENGTH, length - HEADER_LENGTH);
            }
        } finally {
            if (bytesRead > 0) {
                store.zeroOut(data + headIndex, data + headIndex + bytesRead);
                store.writeOrderedLong(headAt, head + bytesRead);
            }
        }
        return corruption != CORRUPTION_NONE ? CORRUPT : records;
    }

    /** Consumer: whether a published record waits at the head (a peek; no validation). */
    public boolean hasRecord() {
        return corruption == CORRUPTION_NONE
            && store.readVolatileInt(data + ((int) store.readLong(headAt) & mask) + LENGTH_OFFSET) != 0;
    }

    /** Why the ring is corrupt, or {@link #CORRUPTION_NONE}. */
    public int corruption() {
        return corruption;
    }

    public static String corruptionReason(final int corruption) {
        return corruption >= 0 && corruption < CORRUPTIONS.length ? CORRUPTIONS[corruption] : "unknown";
    }

    /** Consumer: padding records skipped so far (one per wrap). */
    public long paddingRecords() {
        return paddingRecords;
    }

    /** Bytes written and not yet consumed, from either side (approximate while the other moves). */
    public long size() {
        return store.readVolatileLong(tailAt) - store.readVolatileLong(headAt);
    }

    /** The producer's position (bytes ever claimed). */
    public long tailPosition() {
        return store.readVolatileLong(tailAt);
    }

    /** The consumer's position (bytes ever consumed). */
    public long headPosition() {
        return store.readVolatileLong(headAt);
    }

    /** Absolute offset of the data region in the store. */
    long dataOffset() {
        return data;
    }

    /**
     * Claims {@code required} bytes (and the padding to the end of the region when they would
     * cross it) by moving the tail; returns the absolute offset of the record, or -1.
     */
    private long claim(final int required) {
        final long tail = store.readLong(tailAt);
        final int index = (int) tail & mask;
        final int toEnd = capacity - index;
        final int padding = required > toEnd ? toEnd : 0;
        final long needed = (long) required + padding;
        if (needed > capacity - (tail - headCache)) {
            final long head = store.readVolatileLong(headAt);
            if (head - tail > 0 || tail - head > capacity) {
                corruption = CORRUPTION_HEAD;
                return -1;
            }
            headCache = head;
            if (needed > capacity - (tail - head)) {
                return -1;
            }
        }
        // The tail moves first, so a consumer that sees a length also sees a tail past its record.
        store.writeOrderedLong(tailAt, tail + needed);
        if (padding != 0) {
            store.writeInt(data + index + TYPE_OFFSET, PADDING_TYPE);
            store.writeOrderedInt(data + index + LENGTH_OFFSET, padding);
            return data;
        }
        return data + index;
    }
}
