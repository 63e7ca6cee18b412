package dev.saccade.protocol;

/**
 * Hello request, 48 bytes: the first frame of every connection (spec §1.4).
 * <pre>
 *     0  header                         Header (16)
 *    16  request_id                     u64
 *    24  requested_capability_bits      u32
 *    28  flags                          u32
 *    32  client_nonce                   u64[2]
 *    48  end</pre>
 */
public final class HelloRequestFlyweight extends Flyweight<HelloRequestFlyweight> {
    public static final int HEADER_OFFSET = 0;
    public static final int REQUEST_ID_OFFSET = HEADER_OFFSET + HeaderFlyweight.LENGTH;
    public static final int REQUESTED_CAPABILITY_BITS_OFFSET = REQUEST_ID_OFFSET + Long.BYTES;
    public static final int FLAGS_OFFSET = REQUESTED_CAPABILITY_BITS_OFFSET + Integer.BYTES;
    public static final int CLIENT_NONCE_OFFSET = FLAGS_OFFSET + Integer.BYTES;
    public static final int LENGTH = CLIENT_NONCE_OFFSET + 2 * Long.BYTES;

    private final HeaderFlyweight header = new HeaderFlyweight();

    @Override
    protected void onWrap() {
        header.wrap(bytes, offset + HEADER_OFFSET);
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

    public HelloRequestFlyweight requestId(final long value) {
        putU64(REQUEST_ID_OFFSET, value);
        return this;
    }

    public int requestedCapabilityBits() {
        return i32(REQUESTED_CAPABILITY_BITS_OFFSET);
    }

    public HelloRequestFlyweight requestedCapabilityBits(final int value) {
        putI32(REQUESTED_CAPABILITY_BITS_OFFSET, value);
        return this;
    }

    public int flags() {
        return i32(FLAGS_OFFSET);
    }

    public HelloRequestFlyweight flags(final int value) {
        putI32(FLAGS_OFFSET, value);
        return this;
    }

    /** Word {@code index} (0 or 1) of the 16-byte nonce. */
    public long clientNonce(final int index) {
        return u64(CLIENT_NONCE_OFFSET + index * Long.BYTES);
    }

    public HelloRequestFlyweight clientNonce(final int index, final long value) {
        putU64(CLIENT_NONCE_OFFSET + index * Long.BYTES, value);
        return this;
    }
}
