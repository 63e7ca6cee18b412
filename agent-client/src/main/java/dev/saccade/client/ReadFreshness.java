package dev.saccade.client;

import dev.saccade.protocol.FreshnessFlyweight;
import dev.saccade.protocol.FreshnessPolicy;
import java.util.concurrent.TimeUnit;

/**
 * The Freshness of an observe or query request (spec §3 "Freshness", §5.4): the latest scene, or
 * the first one newer than a generation, waited for up to a timeout. No freshness flags: this
 * version of the service answers ACTION_UNSUPPORTED to them.
 */
public record ReadFreshness(int policy, long afterGeneration, long timeoutNs) {
    /** The latest valid scene, answered at once. */
    public static final ReadFreshness LATEST = new ReadFreshness(FreshnessPolicy.LATEST_VALID, 0, 0);

    /**
     * A scene newer than {@code generation}; the service waits up to {@code waitMs} for one and
     * answers TIMEOUT after that (0: at once).
     */
    public static ReadFreshness after(final long generation, final long waitMs) {
        return new ReadFreshness(FreshnessPolicy.AFTER_GENERATION, generation, TimeUnit.MILLISECONDS.toNanos(waitMs));
    }

    public void writeTo(final FreshnessFlyweight freshness) {
        freshness.clear().policy(policy).flags(0).afterGeneration(afterGeneration).timeoutNs(timeoutNs);
    }
}
