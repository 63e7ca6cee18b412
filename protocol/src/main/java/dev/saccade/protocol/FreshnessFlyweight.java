package dev.saccade.protocol;

/**
 * Freshness, 24 bytes: how new the scene a read answers from must be (spec §5.4).
 * <pre>
 *     0  policy                         i32
 *     4  flags                          u32
 *     8  after_generation               u64
 *    16  timeout_ns                     u64
 *    24  end</pre>
 */
public final class FreshnessFlyweight extends Flyweight<FreshnessFlyweight> {
    public static final int POLICY_OFFSET = 0;
    public static final int FLAGS_OFFSET = POLICY_OFFSET + Integer.BYTES;
    public static final int AFTER_GENERATION_OFFSET = FLAGS_OFFSET + Integer.BYTES;
    public static final int TIMEOUT_NS_OFFSET = AFTER_GENERATION_OFFSET + Long.BYTES;
    public static final int LENGTH = TIMEOUT_NS_OFFSET + Long.BYTES;

    @Override
    public int length() {
        return LENGTH;
    }

    public int policy() {
        return i32(POLICY_OFFSET);
    }

    public FreshnessFlyweight policy(final int value) {
        putI32(POLICY_OFFSET, value);
        return this;
    }

    public int flags() {
        return i32(FLAGS_OFFSET);
    }

    public FreshnessFlyweight flags(final int value) {
        putI32(FLAGS_OFFSET, value);
        return this;
    }

    public long afterGeneration() {
        return u64(AFTER_GENERATION_OFFSET);
    }

    public FreshnessFlyweight afterGeneration(final long value) {
        putU64(AFTER_GENERATION_OFFSET, value);
        return this;
    }

    public long timeoutNs() {
        return u64(TIMEOUT_NS_OFFSET);
    }

    public FreshnessFlyweight timeoutNs(final long value) {
        putU64(TIMEOUT_NS_OFFSET, value);
        return this;
    }
}
