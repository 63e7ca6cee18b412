package dev.saccade.cli;

import dev.saccade.client.ActionBatchBuilder;
import dev.saccade.client.ActionExchange;
import dev.saccade.client.AgentClient;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Utf8;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
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
 * {@code saccade act KIND}: one ActionBatch with one action (spec §4.4, §5.7–§5.12), built from
 * the options, and its completion on standard output. The options are checked against the kind
 * (§5.8's table, {@link ActionRules}) before any connection; the connection and the batch ask for
 * exactly the capability the kind needs, plus OBSERVE at Hello for {@code --verify}.
 */
@Command(
    name = "act",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    header = "Act on the desktop: one action, checked against the scene it was planned on.",
    description = {
        "Sends one action batch to the Saccade service and writes its completion to standard output: the"
            + " binary completion by default (exactly its total_size bytes, spec agent-abi.md §3), or a readable"
            + " view with --json. The service checks the preconditions, the target (it must be in the current"
            + " scene, actionable, with the capability the kind needs, and an --at point inside it) and the"
            + " input permission before any input; the input itself is injected by the input helper, without"
            + " which every batch answers EXECUTOR_LOST.",
        "%nKinds and their options (targets are ids from observe or query; points and distances are in"
            + " desktop units, decimals allowed):",
        "  pointer-move, hover       --target ID [--at X,Y]",
        "  click, invoke             --target ID [--at X,Y] [--button B] [--repeat N]",
        "                              [--modifiers M]",
        "  hold                      --target ID [--at X,Y] [--button B]  (see below)",
        "  drag-drop, text-select    --target ID --to ID [--at X,Y --to-at X,Y]",
        "                              [--button B]",
        "  scroll                    --target ID --dx U and/or --dy U [--at X,Y]",
        "  text                      --target ID --text S | --text-file PATH",
        "                              [--at X,Y] [--button B] [--fill]  (focus click, then text)",
        "  window-activate           --target ID  (activates the target's window)",
        "  key, key-chord            --key KEY [--modifiers M]",
        "  release                   [--button B]",
        "  window-cycle              [--backward]",
        "  abort                     (releases all held synthetic input)",
        "%nWith --duration pointer-move, hover, drag-drop and text-select move over that time in paced steps;"
            + " hold keeps its button down that long and then lets go by itself; scroll spreads its distance over"
            + " it (at most 60s). ABORT, the end of the connection and the user's own input end it early.",
        "  query-physical-state      (reads the physical state into the completion)",
        "%nInput that stays held (hold) belongs to this command's connection, and the service releases it when"
            + " the connection closes, right after the reply: hold and release belong in one batch (saccade"
            + " batch).",
        "%nWith --verify the service reports the first scene generation after the input"
            + " (NEXT_GENERATION_AVAILABLE and next_generation); when there is none yet, this command keeps"
            + " observing until the deadline, as spec §5.12 says, and never sends the batch again."},
    synopsisHeading = "%nUsage: ",
    descriptionHeading = "%n",
    parameterListHeading = "%nParameters:%n",
    optionListHeading = "%nOptions:%n",
    footerHeading = "%nExamples:%n",
    footer = {
        "  saccade act click --target 72057594044219399 --json",
        "  saccade act text --target ID --text \"héllo\" --dry-run",
        "  saccade act key --key a --modifiers control",
        "  saccade act click --target ID --generation G --window W --verify --json",
        "  saccade act drag-drop --target ID --to ID2 --button left",
        "  saccade act drag-drop --target ID --to ID2 --duration 2s",
        "  saccade act scroll --target ID --dy -3",
        "  saccade act query-physical-state --json"})
final class ActCommand implements Callable<Integer> {
    static final long REQUEST_ID = EndpointOptions.FIRST_REQUEST_ID;
    /** --deadline-ms bounds: at least 1 ms, at most what one wait may last (about 24.8 days). */
    static final long MAX_DEADLINE_MS = FreshnessOptions.MAX_WAIT_MS;
    /** --write-batch's name for standard output. */
    static final String STDOUT = "-";

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "KIND", converter = ActionNames.Kinds.class,
        completionCandidates = ActionNames.Kinds.class,
        description = "The action: ${COMPLETION-CANDIDATES} (the ABI's names work too, e.g. POINTER_HOVER).")
    int kind;

    @Mixin
    EndpointOptions endpoint;

    @Option(names = "--target", paramLabel = "ID", converter = NumberConverters.U64.class,
        description = "The target to act on (decimal u64 target_id, as observe --json prints it).")
    Long target;

    @Option(names = "--to", paramLabel = "ID", converter = NumberConverters.U64.class,
        description = "drag-drop, text-select: the second target (drop target, or where the selection ends).")
    Long to;

    @Option(names = "--at", paramLabel = PointArgument.FORMAT, converter = PointArgument.Converter.class,
        description = "Act at this point inside --target instead of its safe point (EXPLICIT_POINTS),"
            + " in desktop units; outside the target the service answers TARGET_NOT_FOUND.")
    PointArgument at;

    @Option(names = "--to-at", paramLabel = PointArgument.FORMAT, converter = PointArgument.Converter.class,
        description = "drag-drop, text-select, with --at: the point inside --to.")
    PointArgument toAt;

    @Option(names = "--button", paramLabel = "BUTTON", converter = ActionNames.Buttons.class,
        completionCandidates = ActionNames.Buttons.class,
        description = "The pointer button of click, invoke, hold, drag-drop, text-select, text and release:"
            + " ${COMPLETION-CANDIDATES} (default: left).")
    Integer button;

    @Option(names = "--repeat", paramLabel = "N",
        description = "click, invoke: click N times, 1.." + AgentAbi.MAX_REPEAT_COUNT + " (2 is a double click;"
            + " default: 1).")
    Integer repeat;

    @Option(names = "--modifiers", paramLabel = "MODIFIER", split = ",", converter = ActionNames.Modifiers.class,
        completionCandidates = ActionNames.Modifiers.class,
        description = "click, invoke, key, key-chord: hold these down around the input, comma-separated:"
            + " ${COMPLETION-CANDIDATES} (also ctrl, super).")
    List<Integer> modifiers;

    @Option(names = "--key", paramLabel = "KEY", converter = ActionNames.KeyUsages.class,
        description = "key, key-chord: the key, by name (" + ActionNames.KeyUsages.SUMMARY + ") or as a USB HID"
            + " keyboard usage, hex 0x04 or decimal of two or more digits (a single digit is that digit's key)."
            + " Usages outside spec §5.10's list are sent as given; the service answers ACTION_UNSUPPORTED.")
    Integer key;

    @Option(names = "--dx", paramLabel = "UNITS", converter = PointArgument.UnitsQ8.class,
        description = "scroll: horizontal distance in desktop units, positive to the right (decimals allowed).")
    Integer dxQ8;

    @Option(names = "--dy", paramLabel = "UNITS", converter = PointArgument.UnitsQ8.class,
        description = "scroll: vertical distance in desktop units, positive downwards (decimals allowed).")
    Integer dyQ8;

    @Option(names = "--text", paramLabel = "TEXT",
        description = "text: the text to type, 1.." + AgentAbi.MAX_TEXT_BYTES + " UTF-8 bytes, any Unicode.")
    String text;

    @Option(names = "--text-file", paramLabel = "PATH",
        description = "text: type the contents of this UTF-8 file instead (1.." + AgentAbi.MAX_TEXT_BYTES
            + " bytes; - reads standard input). An unreadable, empty, too long or not UTF-8 file exits 6.")
    String textFile;

    @Option(names = "--fill",
        description = "text: replace the target's whole text through the application's accessibility interface"
            + " instead of typing it, and read it back (FILL); an accessible, editable target only, never a secure one.")
    boolean fill;

    @Option(names = "--backward",
        description = "window-cycle: focus the previous window instead of the next (CYCLE_BACKWARD).")
    boolean backward;

    @Option(names = "--explicit-window",
        description = "Act in the window --window W names, active or not, and in no other (EXPLICIT_WINDOW,"
            + " API 0x00010002): click and invoke of an accessible target run in the background; an action that"
            + " needs the window in front answers ACTIVATION_REQUIRED unless --allow-activation.")
    boolean explicitWindow;

    @Option(names = "--allow-activation",
        description = "With --explicit-window: bring the window to the front first when the action needs input"
            + " at coordinates (ALLOW_ACTIVATION); the target is found again in the scene after that.")
    boolean allowActivation;

    @Mixin
    PreconditionOptions preconditions;

    @Option(names = "--dry-run",
        description = "Run every check and emit no input (DRY_RUN); the completion says what would happen.")
    boolean dryRun;

    @Option(names = "--verify",
        description = "Report the first scene generation after the input (VERIFY_NEXT_GENERATION): the"
            + " completion gets NEXT_GENERATION_AVAILABLE and next_generation; TIMEOUT (exit code 4) if none"
            + " appears before the deadline. Also asks for OBSERVE.")
    boolean verify;

    @Option(names = "--continue-on-failure",
        description = "Policy CONTINUE_ON_FAILURE instead of STOP_ON_FAILURE (matters for batches of several"
            + " actions; see saccade batch).")
    boolean continueOnFailure;

    @Option(names = "--duration", paramLabel = "TIME", converter = NumberConverters.DurationNs.class,
        description = "A timed action (pointer-move, hover, drag-drop, text-select, hold, scroll): its move or"
            + " lease time with its unit, e.g. 2s or 500ms, at most 60s. The deadline then defaults to the"
            + " duration and 5 s more.")
    Long durationNs;

    @Option(names = "--deadline-ms", paramLabel = "MS", defaultValue = "5000",
        description = "The batch's deadline, in milliseconds from when it is sent, 1.." + MAX_DEADLINE_MS
            + " (default: ${DEFAULT-VALUE}): input still running then is released and answers TIMEOUT; --verify"
            + " observes until then.")
    long deadlineMs;

    @Option(names = "--write-batch", paramLabel = "PATH",
        description = "Write the batch (the raw ActionBatch frame, no length prefix) to PATH, - for standard"
            + " output, instead of sending it; send it later with saccade batch --deadline-ms.")
    String writeBatch;

    @Mixin
    OutputOptions output;

    private final ActionExchange exchange = new ActionExchange();

    /**
     * The batch these options describe, its deadline --deadline-ms from now; usage errors
     * ({@link ParameterException}) and unusable --text-file input surface here, before any
     * connection.
     */
    ActionBatchBuilder request() throws InputFailedException {
        endpoint.validate();
        if (deadlineMs < 1 || deadlineMs > MAX_DEADLINE_MS) {
            throw usage("Invalid value for option '--deadline-ms': expected 1.." + MAX_DEADLINE_MS + " but was "
                + deadlineMs);
        }
        if (writeBatch != null && output.json) {
            throw usage("--json shows completions; --write-batch writes the batch itself, which is binary");
        }
        final String name = new ActionNames.Kinds().wordOf(kind);
        final ActionBatchBuilder batch = new ActionBatchBuilder()
            .requestId(REQUEST_ID)
            .kind(kind)
            .dryRun(dryRun)
            .verify(verify)
            .policy(continueOnFailure ? AgentAbi.POLICY_CONTINUE_ON_FAILURE : AgentAbi.POLICY_STOP_ON_FAILURE)
            .deadlineNs(deadlineFromNow());
        targets(batch, name);
        points(batch, name);
        duration(batch, name);
        if (ActionRules.takesButton(kind)) {
            batch.button(button == null ? Button.LEFT : button);
        } else if (button != null) {
            throw usage(name + " takes no --button");
        }
        if (ActionRules.takesRepeat(kind)) {
            final int n = repeat == null ? 1 : repeat;
            if (n < 1 || n > AgentAbi.MAX_REPEAT_COUNT) {
                throw usage("Invalid value for option '--repeat': expected 1.." + AgentAbi.MAX_REPEAT_COUNT
                    + " but was " + n);
            }
            batch.repeat(n);
        } else if (repeat != null) {
            throw usage(name + " takes no --repeat (only click and invoke repeat)");
        }
        if (ActionRules.takesModifiers(kind)) {
            batch.modifiers(bits(modifiers));
        } else if (modifiers != null) {
            throw usage(name + " takes no --modifiers (only click, invoke, key and key-chord hold modifiers)");
        }
        if (ActionRules.takesKey(kind)) {
            if (key == null) {
                throw usage(name + " needs --key KEY");
            }
            batch.keyUsage(key);
        } else if (key != null) {
            throw usage(name + " takes no --key");
        }
        scroll(batch, name);
        if (kind == ActionKind.TEXT) {
            batch.text(text()).fill(fill);
        } else if (fill) {
            throw usage(name + " takes no --fill (only text fills)");
        } else if (text != null || textFile != null) {
            throw usage(name + " takes no " + (text != null ? "--text" : "--text-file") + " (only text types text)");
        }
        if (kind == ActionKind.WINDOW_CYCLE) {
            batch.backward(backward);
        } else if (backward) {
            throw usage(name + " takes no --backward (only window-cycle)");
        }
        if ((explicitWindow || allowActivation) && (preconditions.window == null || ActionRules.targets(kind) == 0)) {
            throw usage("--explicit-window and --allow-activation need --window W and a kind with --target");
        }
        if (allowActivation && !explicitWindow) {
            throw usage("--allow-activation applies with --explicit-window");
        }
        batch.explicitWindow(explicitWindow).allowActivation(allowActivation);
        return preconditions.applyTo(batch);
    }

    @Override
    public Integer call() throws IOException {
        final ActionBatchBuilder batch;
        try {
            batch = request();
        } catch (final InputFailedException e) {
            return e.report(output.err());
        }
        if (writeBatch != null) {
            return writeBatch(batch);
        }
        // The read timeout covers the batch's run: the service answers by its deadline.
        try (AgentClient client = endpoint.connect(batch.helloCapabilities(), deadlineMs)) {
            // The deadline counts from the send, not from before connecting.
            final int length = batch.deadlineNs(deadlineFromNow()).writeTo(client.requestStore(), client.requestOffset());
            exchange.roundTrip(client, length);
            return CompletionOutput.act(output, exchange, "act");
        }
    }

    private long deadlineFromNow() {
        return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(deadlineMs);
    }

    /** --duration on a kind that takes one; the default deadline grows by it (a timed action ends within it). */
    private void duration(final ActionBatchBuilder batch, final String name) {
        if (durationNs == null) {
            return;
        }
        if (!ActionRules.takesDuration(kind)) {
            throw usage(name + " takes no --duration (only pointer-move, hover, drag-drop, text-select, hold and scroll)");
        }
        batch.durationNs(durationNs);
        if (spec == null || !spec.commandLine().getParseResult().hasMatchedOption("--deadline-ms")) {
            deadlineMs = TimeUnit.NANOSECONDS.toMillis(durationNs) + 5_000;
            batch.deadlineNs(deadlineFromNow());
        }
    }

    private void targets(final ActionBatchBuilder batch, final String name) {
        final int targets = ActionRules.targets(kind);
        if (targets >= 1 && target == null) {
            throw usage(name + " needs --target ID");
        }
        if (targets == 2 && to == null) {
            throw usage(name + " needs --to ID (the second target)");
        }
        if (targets == 0 && target != null) {
            throw usage(name + " takes no --target");
        }
        if (targets < 2 && to != null) {
            throw usage(name + " takes no --to (only drag-drop and text-select have a second target)");
        }
        if ((target != null && target == 0) || (to != null && to == 0)) {
            // 0 is the ABI's "no target"; the service would answer INVALID_MESSAGE.
            throw usage((target != null && target == 0 ? "--target" : "--to") + " 0 names no target: give a target_id"
                + " from observe or query");
        }
        if (target != null) {
            batch.target(target);
        }
        if (to != null) {
            batch.secondaryTarget(to);
        }
    }

    private void points(final ActionBatchBuilder batch, final String name) {
        if (!ActionRules.takesPoints(kind)) {
            if (at != null || toAt != null) {
                throw usage(name + " takes no " + (at != null ? "--at" : "--to-at") + " (it acts on no point)");
            }
            return;
        }
        if (ActionRules.targets(kind) == 2) {
            if ((at == null) != (toAt == null)) {
                // EXPLICIT_POINTS replaces both points: one without the other would act at 0,0.
                throw usage(at == null ? "--to-at needs --at X,Y as well (explicit points replace both)"
                    : "--at needs --to-at X,Y as well for " + name + " (explicit points replace both)");
            }
        } else if (toAt != null) {
            throw usage(name + " takes no --to-at (only drag-drop and text-select have a second point)");
        }
        if (at != null) {
            batch.points(at.q8(), toAt == null ? null : toAt.q8());
        }
    }

    private void scroll(final ActionBatchBuilder batch, final String name) {
        if (kind != ActionKind.SCROLL) {
            if (dxQ8 != null || dyQ8 != null) {
                throw usage(name + " takes no " + (dxQ8 != null ? "--dx" : "--dy") + " (only scroll)");
            }
            return;
        }
        final int dx = dxQ8 == null ? 0 : dxQ8;
        final int dy = dyQ8 == null ? 0 : dyQ8;
        if (dx == 0 && dy == 0) {
            throw usage("scroll needs --dx or --dy with a distance other than 0");
        }
        batch.deltasQ8(dx, dy);
    }

    /** TEXT's payload: strict UTF-8, 1..16,384 bytes, from --text or --text-file. */
    private byte[] text() throws InputFailedException {
        if (text != null && textFile != null) {
            throw usage("text takes --text or --text-file, not both");
        }
        if (text != null) {
            final byte[] utf8 = utf8(text);
            if (utf8.length == 0 || utf8.length > AgentAbi.MAX_TEXT_BYTES) {
                throw usage("Invalid value for option '--text': expected 1.." + AgentAbi.MAX_TEXT_BYTES
                    + " UTF-8 bytes but was " + utf8.length);
            }
            return utf8;
        }
        if (textFile == null) {
            throw usage("text needs --text TEXT or --text-file PATH");
        }
        final byte[] bytes = InputFile.read(textFile, AgentAbi.MAX_TEXT_BYTES, "--text-file");
        final String shown = InputFile.STDIN.equals(textFile) ? "standard input" : textFile;
        if (bytes.length == 0) {
            throw new InputFailedException("--text-file " + shown + " is empty: text needs 1.."
                + AgentAbi.MAX_TEXT_BYTES + " bytes");
        }
        if (!Utf8.isStrict(BytesStore.wrap(bytes), 0, bytes.length)) {
            throw new InputFailedException("--text-file " + shown + " is not UTF-8 text");
        }
        return bytes;
    }

    private byte[] utf8(final String value) {
        final byte[] bytes = Utf8.encodeStrict(value);
        if (bytes == null) {
            throw usage("Invalid value for option '--text': not valid Unicode text");
        }
        return bytes;
    }

    private int writeBatch(final ActionBatchBuilder batch) throws OutputFailedException {
        final BytesStore<?, byte[]> frame = BytesStore.wrap(new byte[ActionBatchBuilder.MAX_LENGTH]);
        final int length = batch.writeTo(frame, 0);
        if (STDOUT.equals(writeBatch)) {
            output.write(frame, 0, length);
            return ExitCodes.SUCCESS;
        }
        try {
            Files.write(Path.of(writeBatch), Arrays.copyOf(frame.underlyingObject(), length));
            return ExitCodes.SUCCESS;
        } catch (final IOException | InvalidPathException e) {
            final PrintWriter err = output.err();
            err.println("saccade: cannot write the batch to " + writeBatch + ": "
                + (e instanceof NoSuchFileException ? "no such directory" : e.getMessage()));
            err.flush();
            return ExitCodes.OUTPUT;
        }
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
