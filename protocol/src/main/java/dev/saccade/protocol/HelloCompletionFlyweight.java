package dev.saccade.protocol;

/**
 * Hello completion, 56 bytes (spec §1.4).
 * <pre>
 *     0  header                         Header (16)
 *    16  request_id                     u64
 *    24  result                         i32
 *    28  platform_error                 i32
 *    32  granted_capability_bits        u32
 *    36  accepted_flags                 u32 (reserved in the base ABI, §1.4)
 *    40  service_nonce                  u64[2]
 *    56  end</pre>
 */
public final class HelloCompletionFlyweight extends Flyweight<HelloCompletionFlyweight> {
    public static final int HEADER_OFFSET = 0;
    public static final int REQUEST_ID_OFFSET = HEADER_OFFSET + HeaderFlyweight.LENGTH;
    public static final int RESULT_OFFSET = REQUEST_ID_OFFSET + Long.BYTES;
    public static final int PLATFORM_ERROR_OFFSET = RESULT_OFFSET + Integer.BYTES;
    public static final int GRANTED_CAPABILITY_BITS_OFFSET = PLATFORM_ERROR_OFFSET + Integer.BYTES;
    /** The {@link HelloFlag} bits the service accepted; 0 (reserved) when the client asked for none. */
    public static final int ACCEPTED_FLAGS_OFFSET = GRANTED_CAPABILITY_BITS_OFFSET + Integer.BYTES;
    public static final int RESERVED_OFFSET = ACCEPTED_FLAGS_OFFSET;
    public static final int SERVICE_NONCE_OFFSET = ACCEPTED_FLAGS_OFFSET + Integer.BYTES;
    public static final int LENGTH = SERVICE_NONCE_OFFSET + 2 * Long.BYTES;

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

    public HelloCompletionFlyweight requestId(final long value) {
        putU64(REQUEST_ID_OFFSET, value);
        return this;
    }

    public int result() {
        return i32(RESULT_OFFSET);
    }

    public HelloCompletionFlyweight result(final int value) {
        putI32(RESULT_OFFSET, value);
        return this;
    }

    public int platformError() {
        return i32(PLATFORM_ERROR_OFFSET);
    }

    public HelloCompletionFlyweight platformError(final int value) {
        putI32(PLATFORM_ERROR_OFFSET, value);
        return this;
    }

    public int grantedCapabilityBits() {
        return i32(GRANTED_CAPABILITY_BITS_OFFSET);
    }

    public HelloCompletionFlyweight grantedCapabilityBits(final int value) {
        putI32(GRANTED_CAPABILITY_BITS_OFFSET, value);
        return this;
    }

    /** Word {@code index} (0 or 1) of the 16-byte nonce. */
    public long serviceNonce(final int index) {
        return u64(SERVICE_NONCE_OFFSET + index * Long.BYTES);
    }

    public HelloCompletionFlyweight serviceNonce(final int index, final long value) {
        putU64(SERVICE_NONCE_OFFSET + index * Long.BYTES, value);
        return this;
    }

    /** The {@link HelloFlag} bits the service accepted (requested ∩ known). */
    public int acceptedFlags() {
        return i32(ACCEPTED_FLAGS_OFFSET);
    }

    public HelloCompletionFlyweight acceptedFlags(final int value) {
        putI32(ACCEPTED_FLAGS_OFFSET, value);
        return this;
    }
}
