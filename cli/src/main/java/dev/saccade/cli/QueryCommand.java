package dev.saccade.cli;

import dev.saccade.client.AgentClient;
import dev.saccade.client.QueryRequestBuilder;
import dev.saccade.client.ReadExchange;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.TextMatch;
import dev.saccade.protocol.Utf8;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code saccade query}: one QueryRequest (spec §4.3) whose filter conditions come from the
 * options, its completion on standard output. Every condition given goes into one filter, so a
 * target is kept only when all of them hold.
 */
@Command(
    name = "query",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    header = "Print the targets that match every given condition.",
    description = {
        "Sends one query request to the Saccade service and writes its completion to standard output: the"
            + " binary completion by default, or a readable view with --json. A target is kept when it is in"
            + " the scope and every condition given holds (one filter, spec agent-abi.md §5.6); without"
            + " conditions every target in the scope is kept. Text compares raw UTF-8 bytes, case-sensitive."},
    synopsisHeading = "%nUsage: ",
    descriptionHeading = "%n",
    optionListHeading = "%nOptions:%n",
    footerHeading = "%nExamples:%n",
    footer = {
        "  saccade query --role button --text OK --match exact --json",
        "  saccade query --scope active-window --require click --forbid text --json",
        "  saccade query --relation child --related 4294967297 --json",
        "  saccade query --within 0,0,800,600 --sources accessibility --min-confidence 0.5",
        "  saccade query --generation 1722240000000001 --id 4294967301 --json"})
final class QueryCommand implements Callable<Integer> {
    static final long REQUEST_ID = EndpointOptions.FIRST_REQUEST_ID;

    @Spec
    CommandSpec spec;

    @Mixin
    EndpointOptions endpoint;

    @Mixin
    ScopeOptions scope;

    @Option(names = "--role", paramLabel = "ROLE", converter = AbiNames.Roles.class,
        completionCandidates = AbiNames.Roles.class,
        description = "Keep targets of this role: ${COMPLETION-CANDIDATES}.")
    Integer role;

    @Option(names = "--text", paramLabel = "TEXT",
        description = "Keep targets whose text matches TEXT (1.." + AgentAbi.MAX_TEXT_BYTES + " UTF-8 bytes,"
            + " case-sensitive); see --match. Targets without text never match.")
    String text;

    @Option(names = "--match", paramLabel = "MODE", converter = AbiNames.TextMatches.class,
        completionCandidates = AbiNames.TextMatches.class,
        description = "How --text compares: ${COMPLETION-CANDIDATES} (default: substring).")
    Integer match;

    @Option(names = "--id", paramLabel = "ID", converter = NumberConverters.U64.class,
        description = "Keep the target with this stable id (decimal u64, as --json prints target_id).")
    Long id;

    @Option(names = "--require", paramLabel = "CAP", split = ",", converter = AbiNames.TargetCapabilities.class,
        completionCandidates = AbiNames.TargetCapabilities.class,
        description = "Keep targets that have every one of these capabilities (comma-separated):"
            + " ${COMPLETION-CANDIDATES}.")
    List<Integer> require;

    @Option(names = "--forbid", paramLabel = "CAP", split = ",", converter = AbiNames.TargetCapabilities.class,
        completionCandidates = AbiNames.TargetCapabilities.class,
        description = "Keep targets that have none of these capabilities (comma-separated, same names as"
            + " --require).")
    List<Integer> forbid;

    @Option(names = "--sources", paramLabel = "SOURCE", split = ",", converter = AbiNames.SourceBits.class,
        completionCandidates = AbiNames.SourceBits.class,
        description = "Keep targets found by any of these sources (comma-separated): ${COMPLETION-CANDIDATES}.")
    List<Integer> sources;

    @Option(names = "--within", paramLabel = RectArgument.FORMAT, converter = RectArgument.Converter.class,
        description = "Keep targets whose bounds intersect this rect, in desktop units (decimals allowed).")
    RectArgument within;

    @Option(names = "--min-confidence", paramLabel = "0..1", converter = NumberConverters.FractionQ16.class,
        description = "Keep targets with at least this confidence, 0 to 1 (sent as Q16, 1 = 65536).")
    Long minimumConfidenceQ16;

    @Option(names = "--relation", paramLabel = "RELATION", converter = AbiNames.Relations.class,
        completionCandidates = AbiNames.Relations.class,
        description = "Keep targets that stand in this relation to --related: ${COMPLETION-CANDIDATES}"
            + " (e.g. child: children of --related; contains: bounds contain those of --related).")
    Integer relation;

    @Option(names = "--related", paramLabel = "ID", converter = NumberConverters.U64.class,
        description = "The target --relation refers to (decimal u64 target id); a target outside the scene"
            + " relates to nothing.")
    Long related;

    @Option(names = "--generation", paramLabel = "G", converter = NumberConverters.U64.class,
        description = "Answer only from generation G (as observe printed it): if the scene has moved on, the"
            + " service answers STALE_GENERATION (exit code 4) instead of answering from another scene.")
    Long generation;

    @Option(names = "--max-results", paramLabel = "N", defaultValue = "100",
        description = "Most targets to return, 1.." + QueryRequestBuilder.MAX_RESULTS + " (default: ${DEFAULT-VALUE});"
            + " more matches set the TRUNCATED flag.")
    int maximumResults;

    @Mixin
    FreshnessOptions freshness;

    @Mixin
    OutputOptions output;

    private final ReadExchange exchange = new ReadExchange();

    /** The request these options describe; usage errors surface here, before any connection. */
    QueryRequestBuilder request() {
        endpoint.validate();
        if (maximumResults < 1 || maximumResults > QueryRequestBuilder.MAX_RESULTS) {
            throw usage("Invalid value for option '--max-results': expected 1.." + QueryRequestBuilder.MAX_RESULTS
                + " but was " + maximumResults);
        }
        final QueryRequestBuilder request = new QueryRequestBuilder()
            .requestId(REQUEST_ID)
            .scope(scope.scope())
            .freshness(freshness.freshness())
            .maximumResults(maximumResults)
            .generation(generation == null ? 0 : generation);
        if (id != null) {
            request.stableId(id);
        }
        if (role != null) {
            request.role(role);
        }
        if (text != null) {
            request.text(utf8(text), match == null ? TextMatch.SUBSTRING : match);
        } else if (match != null) {
            throw usage("--match needs --text");
        }
        if (require != null || forbid != null) {
            final int required = bits(require);
            final int forbidden = bits(forbid);
            if ((required & forbidden) != 0) {
                throw usage("a capability cannot be both in --require and in --forbid: "
                    + new AbiNames.TargetCapabilities().wordOf(Integer.lowestOneBit(required & forbidden)));
            }
            request.capabilities(required, forbidden);
        }
        if (sources != null) {
            request.sources(bits(sources));
        }
        if (within != null) {
            request.geometry(within.q8());
        }
        if (minimumConfidenceQ16 != null) {
            request.minimumConfidenceQ16(minimumConfidenceQ16);
        }
        if (relation != null && related != null) {
            request.relation(relation, related);
        } else if (relation != null) {
            throw usage("--relation needs --related ID");
        } else if (related != null) {
            throw usage("--related needs --relation RELATION");
        }
        return request;
    }

    @Override
    public Integer call() throws IOException {
        final QueryRequestBuilder request = request();
        try (AgentClient client = endpoint.connect(Capability.OBSERVE, freshness.waitMs())) {
            final int length = request.writeTo(client.requestStore(), client.requestOffset());
            exchange.roundTrip(client, length, REQUEST_ID, AgentAbi.QUERY_COMPLETION);
            return CompletionOutput.read(output, exchange, "query", ObserveCommand.timeoutHint(freshness));
        }
    }

    /** Strict UTF-8 of 1..16,384 bytes, as the service requires (spec §4.3 #6). */
    private byte[] utf8(final String value) {
        final byte[] bytes = Utf8.encodeStrict(value);
        if (bytes == null) {
            throw usage("Invalid value for option '--text': not valid Unicode text");
        }
        if (bytes.length == 0 || bytes.length > QueryRequestBuilder.MAX_TEXT_BYTES) {
            throw usage("Invalid value for option '--text': expected 1.." + QueryRequestBuilder.MAX_TEXT_BYTES
                + " UTF-8 bytes but was " + bytes.length);
        }
        return bytes;
    }

    private static int bits(final List<Integer> words) {
        int bits = 0;
        if (words != null) {
            for (final int bit : words) {
                bits |= bit;
            }
        }
        return bits;
    }

    private ParameterException usage(final String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
