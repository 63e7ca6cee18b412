package dev.saccade.cli;

import dev.saccade.client.AgentClient;
import dev.saccade.client.ObserveRequestBuilder;
import dev.saccade.client.ReadExchange;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import java.io.IOException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code saccade observe}: one ObserveRequest (spec §4.2), its completion on standard output. */
@Command(
    name = "observe",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    header = "Print the targets of the current scene: what is on the desktop and what can be done with it.",
    description = {
        "Sends one observe request to the Saccade service and writes its completion to standard output:"
            + " the binary completion by default (exactly its total_size bytes, spec agent-abi.md §3, §5.5),"
            + " or a readable view with --json. Targets follow scene order; a completion that had to leave"
            + " targets or texts out carries the TRUNCATED flag.",
        "The generation in the completion names the scene it was read from: pass it to `saccade query"
            + " --generation` to pin a query to the same scene, or to --after-generation to wait for the"
            + " next one."},
    synopsisHeading = "%nUsage: ",
    descriptionHeading = "%n",
    optionListHeading = "%nOptions:%n",
    footerHeading = "%nExamples:%n",
    footer = {
        "  saccade observe --json",
        "  saccade observe --scope active-window --json",
        "  saccade observe --scope rect --rect 0,0,640,480 --source semantic --json",
        "  saccade observe --after-generation 1722240000000001 --wait-ms 2000 > scene.bin",
        "  saccade query --role button --text OK --match exact --json",
        "  saccade wait --json"})
final class ObserveCommand implements Callable<Integer> {
    static final long REQUEST_ID = EndpointOptions.FIRST_REQUEST_ID;

    @Mixin
    EndpointOptions endpoint;

    @Mixin
    ScopeOptions scope;

    @Mixin
    ObserveLimitOptions limits;

    @Mixin
    FreshnessOptions freshness;

    @Mixin
    OutputOptions output;

    private final ReadExchange exchange = new ReadExchange();

    /** The request these options describe; usage errors surface here, before any connection. */
    ObserveRequestBuilder request() {
        endpoint.validate();
        return limits.applyTo(new ObserveRequestBuilder())
            .requestId(REQUEST_ID)
            .scope(scope.scope())
            .freshness(freshness.freshness());
    }

    @Override
    public Integer call() throws IOException {
        final ObserveRequestBuilder request = request();
        try (AgentClient client = endpoint.connect(Capability.OBSERVE, freshness.waitMs())) {
            final int length = request.writeTo(client.requestStore(), client.requestOffset());
            exchange.roundTrip(client, length, REQUEST_ID, AgentAbi.OBSERVE_COMPLETION);
            return CompletionOutput.read(output, exchange, "observe", timeoutHint(freshness));
        }
    }

    /** Says what a TIMEOUT means for a read with these freshness options. */
    static String timeoutHint(final FreshnessOptions freshness) {
        return freshness.afterGeneration == null ? null
            : "no generation newer than " + Long.toUnsignedString(freshness.afterGeneration) + " within "
                + freshness.waitMs() + " ms";
    }
}
