package dev.saccade.pcp;

/**
 * Rate limit of one connection: a token bucket of {@code capacity} tokens refilled at
 * {@code refillPerSecond}; each request takes one. Time comes in as an argument (nanoTime) so the
 * bucket is pure logic. Written by the connection's worker thread only.
 */
public final class TokenBucket {
    private final double capacity;
    private final double refillPerNs;
    private double tokens;
    private long lastNs;

    public TokenBucket(final int capacity, final int refillPerSecond, final long nowNs) {
        if (capacity <= 0 || refillPerSecond <= 0) {
            throw new IllegalArgumentException("capacity and refill must be positive: " + capacity + ", " + refillPerSecond);
        }
        this.capacity = capacity;
        this.refillPerNs = refillPerSecond / 1e9;
        this.tokens = capacity;
        this.lastNs = nowNs;
    }

    /** Takes one token: 0 when granted, else the milliseconds until one is there (at least 1). */
    public long tryTake(final long nowNs) {
        final long elapsedNs = nowNs - lastNs;
        if (elapsedNs > 0) {
            tokens = Math.min(capacity, tokens + elapsedNs * refillPerNs);
            lastNs = nowNs;
        }
        if (tokens >= 1.0) {
            tokens -= 1.0;
            return 0;
        }
        return Math.max(1, (long) Math.ceil((1.0 - tokens) / refillPerNs / 1e6));
    }
}
