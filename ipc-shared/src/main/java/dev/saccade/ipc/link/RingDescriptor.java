package dev.saccade.ipc.link;

/**
 * Layout of one {@link OneToOneByteRing} in shared memory, after Agrona's
 * {@code RingBufferDescriptor} and {@code RecordDescriptor}: a data region of {@code capacity}
 * bytes (a power of two) followed by a trailer that holds the two positions, each on its own
 * pair of cache lines so the producer's and the consumer's stores never share one (adjacent-line
 * prefetch pulls lines in pairs).
 * <pre>
 *   0                                                         capacity
 *   +---------------------------------------------------------+
 *   | records (8-byte aligned), padding record at the wrap    |
 *   +---------------------------------------------------------+
 *   capacity + 0   +------------------------------------------+
 *                  | tail position u64: producer only         |  128 bytes
 *   capacity + 128 +------------------------------------------+
 *                  | head position u64: consumer only         |  128 bytes
 *   capacity + 256 +------------------------------------------+
 * </pre>
 * Positions are byte counts that only grow; the index of a position is {@code position & (capacity
 * - 1)}. Each record:
 * <pre>
 *   0                   4                   8
 *   +-------------------+-------------------+---------------------------+
 *   | length i32        | type i32          | payload (length - 8)      |
 *   | (stored last,     | > 0: a message;   |                           |
 *   |  ordered)         | -1: padding       |                           |
 *   +-------------------+-------------------+---------------------------+
 * </pre>
 * {@code length} counts the header and the payload, unaligned; the next record starts at the
 * next multiple of {@value #ALIGNMENT}. A length of 0 means "nothing published here yet": the
 * consumer zeroes every byte it has consumed before it moves the head, so the free part of the
 * ring is always zero.
 */
public final class RingDescriptor {
    /** Distance between the positions: two 64-byte cache lines. */
    public static final int POSITION_SPACING = 128;
    public static final int TAIL_POSITION_OFFSET = 0;
    public static final int HEAD_POSITION_OFFSET = TAIL_POSITION_OFFSET + POSITION_SPACING;
    public static final int TRAILER_LENGTH = HEAD_POSITION_OFFSET + POSITION_SPACING;

    public static final int LENGTH_OFFSET = 0;
    public static final int TYPE_OFFSET = LENGTH_OFFSET + Integer.BYTES;
    public static final int HEADER_LENGTH = TYPE_OFFSET + Integer.BYTES;
    public static final int ALIGNMENT = HEADER_LENGTH;
    public static final int PADDING_TYPE = -1;

    /** Smallest data capacity: one page. */
    public static final int MIN_CAPACITY = 4_096;
    /** Largest data capacity: 256 MiB, far above anything the link needs. */
    public static final int MAX_CAPACITY = 1 << 28;

    private RingDescriptor() {
    }

    /** Whether {@code capacity} is a power of two within [{@value #MIN_CAPACITY}, {@value #MAX_CAPACITY}]. */
    public static boolean isValidCapacity(final long capacity) {
        return capacity >= MIN_CAPACITY && capacity <= MAX_CAPACITY && Long.bitCount(capacity) == 1;
    }

    /** @throws IllegalArgumentException unless {@link #isValidCapacity(long)}. */
    public static int checkCapacity(final long capacity) {
        if (!isValidCapacity(capacity)) {
            throw new IllegalArgumentException("ring capacity must be a power of two in [" + MIN_CAPACITY + ", "
                + MAX_CAPACITY + "]: " + capacity);
        }
        return (int) capacity;
    }

    /** The largest payload a ring of {@code capacity} takes: an eighth, as Agrona does. */
    public static int maxPayloadLength(final int capacity) {
        return capacity >> 3;
    }

    /** Bytes a ring of {@code capacity} occupies: data and trailer. */
    public static long regionLength(final int capacity) {
        return (long) capacity + TRAILER_LENGTH;
    }

    public static int align(final int length) {
        return (length + ALIGNMENT - 1) & -ALIGNMENT;
    }
}
