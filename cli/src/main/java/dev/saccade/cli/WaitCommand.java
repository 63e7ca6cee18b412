package dev.saccade.cli;

import dev.saccade.client.AgentClient;
import dev.saccade.client.ObserveRequestBuilder;
import dev.saccade.client.ReadExchange;
import dev.saccade.client.ReadFreshness;
import dev.saccade.client.ReadScope;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.TargetFlyweight;
import java.io.IOException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code saccade wait}: blocks until the service publishes a generation newer than a given one
 * (or than the current one), then prints the observe completion of that scene. The wait happens
 * in the service (AFTER_GENERATION, spec §5.4): one parked read, no polling.
 */
@Command(
    name = "wait",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    header = "Wait for the next scene generation, then print it like observe.",
    description = {
        "Without --after-generation, first reads the current generation (a one-target observe), then waits"
            + " for any newer one. When a newer scene is published within --wait-ms, writes its observe"
            + " completion to standard output (binary, or --json) and exits 0. Otherwise the service answers"
            + " TIMEOUT, which is printed too, and the exit code is 4."},
    synopsisHeading = "%nUsage: ",
    descriptionHeading = "%n",
    optionListHeading = "%nOptions:%n",
    footerHeading = "%nExamples:%n",
    footer = {
        "  saccade wait --json",
        "  saccade wait --after-generation 1722240000000001 --wait-ms 5000 --scope active-window --json",
        "  saccade observe --scope active-window --json"})
final class WaitCommand implements Callable<Integer> {
    /** The probe that learns the current generation. */
    static final long PROBE_REQUEST_ID = EndpointOptions.FIRST_REQUEST_ID;
    static final long WAIT_REQUEST_ID = PROBE_REQUEST_ID + 1;
    /** The probe needs no targets: a completion with room for one record. */
    static final int PROBE_CAPACITY = CompletionFlyweight.LENGTH + TargetFlyweight.LENGTH;

    @Spec
    CommandSpec spec;

    @Mixin
    EndpointOptions endpoint;

    @Mixin
    ScopeOptions scope;

    @Mixin
    ObserveLimitOptions limits;

    @Option(names = "--after-generation", paramLabel = "G", converter = NumberConverters.U64.class,
        description = "Wait for a generation newer than G (default: newer than the current one).")
    Long afterGeneration;

    @Option(names = "--wait-ms", paramLabel = "MS", defaultValue = "30000",
        description = "How long the service waits for a newer scene, in milliseconds, 0.."
            + FreshnessOptions.MAX_WAIT_MS + " (default: ${DEFAULT-VALUE}); 0 answers at once.")
    long waitMs;

    @Mixin
    OutputOptions output;

    private final ReadExchange exchange = new ReadExchange();

    /**
     * The wait request these options describe, for a wait after {@code generation}; usage errors
     * surface here, before any connection.
     */
    ObserveRequestBuilder request(final long generation) {
        endpoint.validate();
        if (waitMs < 0 || waitMs > FreshnessOptions.MAX_WAIT_MS) {
            throw new ParameterException(spec.commandLine(), "Invalid value for option '--wait-ms': expected 0.."
                + FreshnessOptions.MAX_WAIT_MS + " but was " + waitMs);
        }
        return limits.applyTo(new ObserveRequestBuilder())
            .requestId(WAIT_REQUEST_ID)
            .scope(scope.scope())
            .freshness(ReadFreshness.after(generation, waitMs));
    }

    /** The request that learns the current generation: the latest scene, desktop, one target. */
    static ObserveRequestBuilder probe() {
        return new ObserveRequestBuilder()
            .requestId(PROBE_REQUEST_ID)
            .scope(ReadScope.DESKTOP)
            .freshness(ReadFreshness.LATEST)
            .maximumTargets(1)
            .totalCapacity(PROBE_CAPACITY);
    }

    @Override
    public Integer call() throws IOException {
        final ObserveRequestBuilder request = request(afterGeneration == null ? 0 : afterGeneration);
        try (AgentClient client = endpoint.connect(Capability.OBSERVE, waitMs)) {
            long after = 0;
            if (afterGeneration != null) {
                after = afterGeneration;
            } else {
                final int probeLength = probe().writeTo(client.requestStore(), client.requestOffset());
                final CompletionFlyweight current =
                    exchange.roundTrip(client, probeLength, PROBE_REQUEST_ID, AgentAbi.OBSERVE_COMPLETION);
                // No scene yet (a typed error carries generation 0): then any first scene is newer.
                after = current.result() == ResultCode.OK ? current.generation().generation() : 0;
                request.freshness(ReadFreshness.after(after, waitMs));
            }
            final int length = request.writeTo(client.requestStore(), client.requestOffset());
            exchange.roundTrip(client, length, WAIT_REQUEST_ID, AgentAbi.OBSERVE_COMPLETION);
            return CompletionOutput.read(output, exchange, "wait",
                "no generation newer than " + Long.toUnsignedString(after) + " within " + waitMs + " ms");
        }
    }
}
