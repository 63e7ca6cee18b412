package dev.saccade.cli;

import dev.saccade.client.BatchVerifier;
import dev.saccade.client.ReadFreshness;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --after-generation} and {@code --wait-ms} of observe and query: read the latest scene,
 * or the first one newer than a generation (spec §5.4).
 */
final class FreshnessOptions {
    /** Longest wait: Integer.MAX_VALUE ms, about 24.8 days; loop for longer. */
    static final long MAX_WAIT_MS = dev.saccade.client.BatchVerifier.MAX_WAIT_MS;

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--after-generation", paramLabel = "G", converter = NumberConverters.U64.class,
        description = "Answer from a scene newer than generation G (AFTER_GENERATION) instead of the latest"
            + " one. If there is none yet the service waits up to --wait-ms for it, then answers TIMEOUT"
            + " (exit code 4).")
    Long afterGeneration;

    @Option(names = "--wait-ms", paramLabel = "MS",
        description = "With --after-generation: how long the service waits for a newer scene, in"
            + " milliseconds (default: 0, which answers TIMEOUT at once when the scene is not newer yet).")
    Long waitMs;

    /** LATEST_VALID, or AFTER_GENERATION with the wait; a usage error for a wait without a generation. */
    ReadFreshness freshness() {
        if (waitMs != null && (waitMs < 0 || waitMs > MAX_WAIT_MS)) {
            throw new ParameterException(mixee.commandLine(),
                "Invalid value for option '--wait-ms': expected 0.." + MAX_WAIT_MS + " but was " + waitMs);
        }
        if (afterGeneration == null) {
            if (waitMs != null) {
                throw new ParameterException(mixee.commandLine(), "--wait-ms needs --after-generation G");
            }
            return ReadFreshness.LATEST;
        }
        return ReadFreshness.after(afterGeneration, waitMs == null ? 0 : waitMs);
    }

    /** What the service may hold the reply back for, in milliseconds. */
    long waitMs() {
        return afterGeneration == null || waitMs == null ? 0 : waitMs;
    }
}
