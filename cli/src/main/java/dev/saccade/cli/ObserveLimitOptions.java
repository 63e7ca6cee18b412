package dev.saccade.cli;

import dev.saccade.client.ObserveRequestBuilder;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --max-targets}, {@code --capacity} and the hidden {@code --stride}: the size of an
 * observe completion (spec §5.5). Record capacity = min(max-targets, (capacity − 168) / stride);
 * the text lane gets what the records leave of the capacity. A completion that had to leave
 * targets or texts out carries the TRUNCATED flag.
 */
final class ObserveLimitOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--max-targets", paramLabel = "N", defaultValue = "10000",
        description = "Most targets to return, 1.." + ObserveRequestBuilder.MAX_TARGETS + " (default: ${DEFAULT-VALUE}).")
    int maximumTargets;

    @Option(names = "--capacity", paramLabel = "BYTES", defaultValue = "1048576",
        description = "Most bytes of the completion, records and text together, "
            + ObserveRequestBuilder.MIN_CAPACITY + ".." + ObserveRequestBuilder.MAX_CAPACITY
            + " (default: ${DEFAULT-VALUE}, 1 MiB).")
    int totalCapacity;

    @Option(names = "--stride", paramLabel = "BYTES", defaultValue = "88", hidden = true,
        description = "Bytes per target record, at least 88; larger records are zero-padded (default: ${DEFAULT-VALUE}).")
    int targetStride;

    /** Usage errors of these options; the service would close the connection instead (spec §4.2 #2). */
    void validate() {
        check("--max-targets", maximumTargets, 1, ObserveRequestBuilder.MAX_TARGETS);
        check("--capacity", totalCapacity, ObserveRequestBuilder.MIN_CAPACITY, ObserveRequestBuilder.MAX_CAPACITY);
        check("--stride", targetStride, ObserveRequestBuilder.MIN_TARGET_STRIDE, ObserveRequestBuilder.MAX_CAPACITY);
    }

    /** Writes the limits into {@code builder}. */
    ObserveRequestBuilder applyTo(final ObserveRequestBuilder builder) {
        validate();
        return builder.maximumTargets(maximumTargets).targetStride(targetStride).totalCapacity(totalCapacity);
    }

    private void check(final String option, final int value, final int min, final int max) {
        if (value < min || value > max) {
            throw new ParameterException(mixee.commandLine(),
                "Invalid value for option '" + option + "': expected " + min + ".." + max + " but was " + value);
        }
    }
}
