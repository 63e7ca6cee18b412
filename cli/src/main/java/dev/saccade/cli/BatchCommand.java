package dev.saccade.cli;

import dev.saccade.client.ActionExchange;
import dev.saccade.client.AgentClient;
import dev.saccade.client.BatchVerifier;
import dev.saccade.protocol.ActionBatchFlyweight;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.HeaderFlyweight;
import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code saccade batch FILE}: sends a raw ActionBatch frame from a file (or standard input) as
 * it is, and prints its completion. The CLI checks only what it needs to send it (a length the
 * framing allows, at least the fixed batch, message_kind ACTION_BATCH); everything else is the
 * service's to judge, so a batch that breaks the wire contract ends in the disconnect of §4.4
 * (exit code 3) and one it understands in a typed completion.
 */
@Command(
    name = "batch",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    header = "Send a binary action batch from a file and print its completion.",
    description = {
        "Reads one ActionBatch frame (spec agent-abi.md §3: the 136-byte batch, its actions and payload, no"
            + " length prefix) from FILE, connects asking for the capabilities its requested_capability_bits"
            + " name (and OBSERVE when it has VERIFY_NEXT_GENERATION, or when it names none the service grants),"
            + " sends it unchanged and writes the completion to standard output: binary by default, or a"
            + " readable view with --json. With VERIFY_NEXT_GENERATION a pending answer is verified by"
            + " observing until the batch's deadline (spec §5.12); the batch is never sent twice.",
        "%ndeadline_ns is on the monotonic clock of this boot (System.nanoTime, CLOCK_MONOTONIC): a batch"
            + " saved earlier has a deadline in the past and answers TIMEOUT, unless --deadline-ms sets a new"
            + " one. A file that cannot be read, is shorter than 136 bytes, longer than 1 MiB or not an"
            + " ActionBatch exits 6; a batch the service refuses to read (§4.4: counts, offsets, sizes, policy,"
            + " header flags) exits 3."},
    synopsisHeading = "%nUsage: ",
    descriptionHeading = "%n",
    parameterListHeading = "%nParameters:%n",
    optionListHeading = "%nOptions:%n",
    footerHeading = "%nExamples:%n",
    footer = {
        "  saccade batch hold-then-release.bin --json",
        "  saccade act click --target ID --write-batch click.bin",
        "  saccade batch click.bin --deadline-ms 2000 --json",
        "  my-planner | saccade batch - > completion.bin"})
final class BatchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE",
        description = "The ActionBatch frame, " + ActionBatchFlyweight.LENGTH + ".." + AgentAbi.MAX_MESSAGE_BYTES
            + " bytes; - reads standard input.")
    String file;

    @Mixin
    EndpointOptions endpoint;

    @Option(names = "--deadline-ms", paramLabel = "MS",
        description = "Replace the batch's deadline_ns with now + MS milliseconds, 1.." + ActCommand.MAX_DEADLINE_MS
            + ", just before sending (default: send the file's deadline unchanged).")
    Long deadlineMs;

    @Mixin
    OutputOptions output;

    private final ActionExchange exchange = new ActionExchange();
    private final ActionBatchFlyweight batch = new ActionBatchFlyweight();

    /**
     * The frame of FILE, checked only as far as sending needs; usage errors and unusable input
     * surface here, before any connection.
     */
    byte[] frame() throws InputFailedException {
        endpoint.validate();
        if (deadlineMs != null && (deadlineMs < 1 || deadlineMs > ActCommand.MAX_DEADLINE_MS)) {
            throw new ParameterException(spec.commandLine(), "Invalid value for option '--deadline-ms': expected 1.."
                + ActCommand.MAX_DEADLINE_MS + " but was " + deadlineMs);
        }
        final byte[] frame = InputFile.read(file, AgentAbi.MAX_MESSAGE_BYTES, "batch file");
        final String shown = InputFile.STDIN.equals(file) ? "standard input" : file;
        if (frame.length < ActionBatchFlyweight.LENGTH) {
            throw new InputFailedException("batch file " + shown + " has " + frame.length + " bytes; an ActionBatch"
                + " has at least " + ActionBatchFlyweight.LENGTH + " (spec §3)");
        }
        final int kind = BytesStore.wrap(frame).readInt(HeaderFlyweight.MESSAGE_KIND_OFFSET);
        if (kind != AgentAbi.ACTION_BATCH) {
            throw new InputFailedException("batch file " + shown + " is not an ActionBatch: its message_kind is "
                + kind + " (" + AgentAbi.kindName(kind) + "), an ActionBatch's is " + AgentAbi.ACTION_BATCH);
        }
        return frame;
    }

    /**
     * What Hello asks for: the batch's requested_capability_bits, OBSERVE for VERIFY (§4.4 #4),
     * and OBSERVE when the batch names nothing the service grants, so that the service can
     * answer the batch itself (a typed CAPABILITY_DENIED) instead of refusing the Hello.
     */
    static int helloCapabilities(final ActionBatchFlyweight b) {
        int capabilities = b.requestedCapabilityBits();
        if ((b.header().flags() & AgentAbi.FLAG_VERIFY_NEXT_GENERATION) != 0
            || (capabilities & Capability.POLICY) == 0) {
            capabilities |= Capability.OBSERVE;
        }
        return capabilities;
    }

    @Override
    public Integer call() throws IOException {
        final byte[] frame;
        try {
            frame = frame();
        } catch (final InputFailedException e) {
            return e.report(output.err());
        }
        final ActionBatchFlyweight fileBatch = batch.wrap(BytesStore.wrap(frame), 0);
        final long runMs = deadlineMs != null ? deadlineMs : Math.min(ActCommand.MAX_DEADLINE_MS,
            TimeUnit.NANOSECONDS.toMillis(BatchVerifier.remainingNs(fileBatch.deadlineNs(), System.nanoTime())) + 1);
        // The read timeout covers the batch's run: the service answers by its deadline.
        try (AgentClient client = endpoint.connect(helloCapabilities(fileBatch), runMs)) {
            client.requestStore().write(client.requestOffset(), frame, 0, frame.length);
            if (deadlineMs != null) {
                batch.wrap(client.requestStore(), client.requestOffset())
                    .deadlineNs(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(deadlineMs));
            }
            exchange.roundTrip(client, frame.length);
            return CompletionOutput.act(output, exchange, "batch");
        }
    }
}
