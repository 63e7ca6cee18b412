package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.ActionBatchBuilder;
import dev.saccade.protocol.ActionBatchFlyweight;
import dev.saccade.protocol.ActionFlag;
import dev.saccade.protocol.ActionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.PreconditionFlag;
import dev.saccade.protocol.PreconditionsFlyweight;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.RequestValidator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code saccade act} options to ActionBatch bytes, read back through the protocol flyweights and
 * accepted by the service's own {@link RequestValidator} (available 0x17, R 1 MiB, now the
 * monotonic clock); each kind's required pieces; usage errors and unusable --text-file input.
 */
class ActOptionsTest {
    private static final int AT = 16;
    /** Nothing listens here: a usage check that let a command through would exit 2, not 1. */
    private static final String NO_ENDPOINT = "/nonexistent/saccade-test/agent.sock";

    @TempDir
    Path dir;

    private final BytesStore<?, byte[]> store = BytesStore.wrap(new byte[64 * 1024]);
    private final ActionBatchFlyweight batch = new ActionBatchFlyweight();
    private final ActionFlyweight action = new ActionFlyweight();
    private int length;

    private static String[] act(final String... options) {
        final String[] args = new String[options.length + 1];
        args[0] = "act";
        System.arraycopy(options, 0, args, 1, options.length);
        return args;
    }

    /** The batch the options describe, as the service would receive it. */
    private ActionBatchFlyweight batch(final String... options) throws Exception {
        final ActionBatchBuilder builder = CliRun.parsed(ActCommand.class, act(options)).request();
        length = builder.writeTo(store, AT);
        assertEquals(RequestValidator.ACCEPT, new RequestValidator().validate(store, AT, length, Capability.POLICY,
            AgentAbi.MAX_MESSAGE_BYTES, System.nanoTime()), "the service's own validator accepts the batch");
        final ActionBatchFlyweight b = batch.wrap(store, AT);
        assertEquals(length, b.totalSize(), "total_size = frame length");
        assertEquals(1, b.actionCount());
        assertEquals(ActionFlyweight.LENGTH, b.actionStride());
        assertEquals(ActionBatchFlyweight.LENGTH, b.actionsOffset(), "the action right after the fixed batch");
        assertEquals(ActionBatchFlyweight.LENGTH + ActionFlyweight.LENGTH, b.payloadOffset());
        return b;
    }

    private ActionFlyweight theAction(final ActionBatchFlyweight b) {
        return action.wrap(store, AT + b.actionsOffset());
    }

    private static int q8(final double units) {
        return (int) Math.round(units * RectQ8.ONE);
    }

    @Test
    void clickWritesOneActionWithTheDefaults() throws Exception {
        final long beforeNs = System.nanoTime();
        final ActionBatchFlyweight b = batch("click", "--target", "72057594044219399");
        final long afterNs = System.nanoTime();

        assertEquals(ActionBatchFlyweight.LENGTH, b.header().structSize());
        assertEquals(AgentAbi.API_VERSION, b.header().apiVersion());
        assertEquals(AgentAbi.ACTION_BATCH, b.header().messageKind());
        assertEquals(0, b.header().flags(), "neither DRY_RUN nor VERIFY");
        assertEquals(ActCommand.REQUEST_ID, b.requestId());
        assertEquals(Capability.POINTER, b.requestedCapabilityBits(), "exactly the kind's capability");
        assertEquals(AgentAbi.POLICY_STOP_ON_FAILURE, b.policy());
        final long fiveSecondsNs = TimeUnit.SECONDS.toNanos(5);
        assertTrue(b.deadlineNs() >= beforeNs + fiveSecondsNs && b.deadlineNs() <= afterNs + fiveSecondsNs,
            "deadline = now + 5000 ms on the monotonic clock");
        assertEquals(0, b.preconditions().flags(), "no preconditions");
        assertEquals(0, b.payloadSize());
        assertEquals(ActionBatchFlyweight.LENGTH + ActionFlyweight.LENGTH, length);

        final ActionFlyweight a = theAction(b);
        assertEquals(ActionKind.CLICK, a.kind());
        assertEquals(0, a.flags(), "the target's safe point");
        assertEquals(72057594044219399L, a.targetId());
        assertEquals(0, a.secondaryTargetId());
        assertEquals(Button.LEFT, a.buttonBits(), "left by default");
        assertEquals(1, a.repeatCount());
        assertEquals(0, a.modifiers());
        assertEquals(0, a.keyUsage());
        assertEquals(0, a.durationNs(), "D1");
        assertEquals(0, a.payloadSize());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "pointer-move         | 1  | 0x02 | --target 5",
        "hover                | 2  | 0x02 | --target 5",
        "POINTER_HOVER        | 2  | 0x02 | --target 5",
        "click                | 3  | 0x02 | --target 5",
        "hold                 | 4  | 0x02 | --target 5",
        "drag-drop            | 5  | 0x02 | --target 5 --to 6",
        "scroll               | 6  | 0x02 | --target 5 --dy 1",
        "key                  | 7  | 0x04 | --key a",
        "text                 | 8  | 0x06 | --target 5 --text x",
        "window-activate      | 9  | 0x10 | --target 5",
        "release              | 10 | 0x02 | ''",
        "text-select          | 11 | 0x02 | --target 5 --to 6",
        "invoke               | 12 | 0x02 | --target 5",
        "key-chord            | 13 | 0x04 | --key a",
        "KEY_CHORD            | 13 | 0x04 | --key a",
        "window-cycle         | 14 | 0x10 | ''",
        "abort                | 15 | 0x02 | ''",
        "query-physical-state | 16 | 0x01 | ''",
        "QUERY_PHYSICAL_STATE | 16 | 0x01 | ''"})
    void everyKindAsksForExactlyItsCapability(final String word, final int kind, final String capability,
        final String options) throws Exception {
        final List<String> args = new ArrayList<>(List.of(word));
        if (!options.isEmpty()) {
            args.addAll(Arrays.asList(options.split(" ")));
        }
        final ActionBatchFlyweight b = batch(args.toArray(new String[0]));

        assertEquals(kind, theAction(b).kind());
        assertEquals(Integer.decode(capability), b.requestedCapabilityBits());
        final ActCommand command = CliRun.parsed(ActCommand.class, act(args.toArray(new String[0])));
        assertEquals(Integer.decode(capability), command.request().helloCapabilities(), "Hello asks the same");
    }

    @Test
    void kindsWithoutTargetsWriteNoTargetIds() throws Exception {
        for (final String kind : List.of("key", "key-chord", "release", "window-cycle", "abort",
            "query-physical-state")) {
            final ActionFlyweight a = theAction(kind.startsWith("key") ? batch(kind, "--key", "a") : batch(kind));
            assertEquals(0, a.targetId(), kind);
            assertEquals(0, a.secondaryTargetId(), kind);
            assertEquals(0, a.flags(), kind);
        }
    }

    @Test
    void buttonsOnlyWhereTheKindTakesOne() throws Exception {
        assertEquals(Button.RIGHT, theAction(batch("click", "--target", "5", "--button", "right")).buttonBits());
        assertEquals(Button.MIDDLE, theAction(batch("release", "--button", "MIDDLE")).buttonBits());
        assertEquals(Button.LEFT, theAction(batch("text", "--target", "5", "--text", "x")).buttonBits(),
            "the focus click");
        assertEquals(0, theAction(batch("pointer-move", "--target", "5")).buttonBits());
        assertEquals(0, theAction(batch("scroll", "--target", "5", "--dx", "1")).buttonBits());
        assertEquals(0, theAction(batch("key", "--key", "a")).buttonBits());
    }

    @Test
    void explicitPointsAreQ8AndSetTheFlag() throws Exception {
        final ActionFlyweight click = theAction(batch("click", "--target", "5", "--at", "330,365.5"));
        assertEquals(ActionFlag.EXPLICIT_POINTS, click.flags());
        assertEquals(q8(330), click.pointXQ8());
        assertEquals(q8(365.5), click.pointYQ8());

        final ActionFlyweight drag = theAction(batch("drag-drop", "--target", "5", "--to", "6", "--at", "-10,20",
            "--to-at", "400.25,0.5"));
        assertEquals(ActionFlag.EXPLICIT_POINTS, drag.flags());
        assertEquals(5, drag.targetId());
        assertEquals(6, drag.secondaryTargetId());
        assertEquals(q8(-10), drag.pointXQ8());
        assertEquals(q8(20), drag.pointYQ8());
        assertEquals(q8(400.25), drag.secondaryPointXQ8());
        assertEquals(q8(0.5), drag.secondaryPointYQ8());
    }

    @Test
    void repeatAndModifiersOfAClick() throws Exception {
        final ActionFlyweight a = theAction(batch("click", "--target", "5", "--repeat", "2", "--modifiers",
            "shift,ctrl", "--modifiers", "meta"));

        assertEquals(2, a.repeatCount());
        assertEquals(Modifier.SHIFT | Modifier.CONTROL | Modifier.META, a.modifiers());
        assertEquals(Modifier.ALL, theAction(batch("invoke", "--target", "5", "--modifiers",
            "shift,control,alt,super")).modifiers());
    }

    @ParameterizedTest(name = "--key {0} = {1}")
    @CsvSource({
        "a, 0x04", "Z, 0x1D", "1, 0x1E", "9, 0x26", "0, 0x27", "enter, 0x28", "escape, 0x29", "esc, 0x29",
        "backspace, 0x2A", "tab, 0x2B", "space, 0x2C", "minus, 0x2D", "backslash, 0x31", "semicolon, 0x33",
        "slash, 0x38", "caps-lock, 0x39", "f1, 0x3A", "F12, 0x45", "print-screen, 0x46", "insert, 0x49",
        "home, 0x4A", "page-up, 0x4B", "delete, 0x4C", "end, 0x4D", "page_down, 0x4E", "right, 0x4F",
        "left, 0x50", "down, 0x51", "up, 0x52", "left-control, 0xE0", "LEFT_SHIFT, 0xE1", "right-meta, 0xE7",
        "0x2c, 0x2C", "0X04, 0x04", "44, 0x2C", "0x32, 0x32", "0xFFFF, 0xFFFF"})
    void keysByNameOrUsage(final String key, final String usage) throws Exception {
        final ActionFlyweight a = theAction(batch("key", "--key", key, "--modifiers", "control"));

        assertEquals(Integer.decode(usage), (int) a.keyUsage());
        assertEquals(Modifier.CONTROL, a.modifiers());
        assertEquals(0, a.targetId());
    }

    @Test
    void scrollDistancesAreQ8() throws Exception {
        final ActionFlyweight a = theAction(batch("scroll", "--target", "5", "--dx", "1.5", "--dy", "-3"));

        assertEquals(q8(1.5), a.deltaXQ8());
        assertEquals(q8(-3), a.deltaYQ8());
        assertEquals(0, a.flags());
        assertEquals(q8(0), theAction(batch("scroll", "--target", "5", "--dy", "2")).deltaXQ8());
    }

    @Test
    void textIsThePayloadRightAfterTheAction() throws Exception {
        final byte[] utf8 = "héllo 👋".getBytes(StandardCharsets.UTF_8);
        final ActionBatchFlyweight b = batch("text", "--target", "1004", "--text", "héllo 👋", "--at", "130,160");

        assertEquals(Capability.KEYBOARD | Capability.POINTER, b.requestedCapabilityBits());
        assertEquals(utf8.length, b.payloadSize());
        assertEquals(ActionBatchFlyweight.LENGTH + ActionFlyweight.LENGTH + utf8.length, length);
        final ActionFlyweight a = theAction(b);
        assertEquals(0, a.payloadOffset(), "relative to the batch's payload");
        assertEquals(utf8.length, a.payloadSize());
        assertEquals(ActionFlag.EXPLICIT_POINTS, a.flags());
        final byte[] payload = new byte[utf8.length];
        store.read(AT + b.payloadOffset(), payload, 0, payload.length);
        assertArrayEquals(utf8, payload);
    }

    @Test
    void textFileIsThePayload() throws Exception {
        final byte[] utf8 = "line one\nzweite Zeile ✓\n".getBytes(StandardCharsets.UTF_8);
        final Path file = Files.write(dir.resolve("text.txt"), utf8);

        final ActionBatchFlyweight b = batch("text", "--target", "5", "--text-file", file.toString());

        assertEquals(utf8.length, b.payloadSize());
        final byte[] payload = new byte[utf8.length];
        store.read(AT + b.payloadOffset(), payload, 0, payload.length);
        assertArrayEquals(utf8, payload);
    }

    @Test
    void textOfTheLargestSizeFits() throws Exception {
        final byte[] utf8 = new byte[AgentAbi.MAX_TEXT_BYTES];
        Arrays.fill(utf8, (byte) 'x');
        final Path file = Files.write(dir.resolve("max.txt"), utf8);

        assertEquals(AgentAbi.MAX_TEXT_BYTES, batch("text", "--target", "5", "--text-file", file.toString())
            .payloadSize());
        assertEquals(AgentAbi.MAX_TEXT_BYTES, batch("text", "--target", "5", "--text", new String(utf8,
            StandardCharsets.US_ASCII)).payloadSize());
    }

    @Test
    void windowCycleBackwardSetsItsFlag() throws Exception {
        assertEquals(ActionFlag.CYCLE_BACKWARD, theAction(batch("window-cycle", "--backward")).flags());
        assertEquals(0, theAction(batch("window-cycle")).flags());
    }

    @Test
    void everyPreconditionSetsItsFlagAndValue() throws Exception {
        final PreconditionsFlyweight p = batch("click", "--target", "5", "--generation", "18446744073709551615",
            "--process", "4242", "--window", "7", "--display", "1", "--transform", "11", "--permission", "12",
            "--physical-sequence", "13", "--expect-buttons", "left,right", "--expect-modifiers", "shift")
            .preconditions();

        assertEquals(0x7F, p.flags(), "all seven");
        assertEquals(-1L, p.generation(), "u64 max");
        assertEquals(4242, p.processId());
        assertEquals(7, p.windowId());
        assertEquals(1, p.displayId());
        assertEquals(11, p.transformEpoch());
        assertEquals(12, p.permissionEpoch());
        assertEquals(13, p.physicalSequence());
        assertEquals(Button.LEFT | Button.RIGHT, p.expectedButtons());
        assertEquals(Modifier.SHIFT, p.expectedModifiers());
    }

    @Test
    void eachPreconditionAloneSetsOnlyItsFlag() throws Exception {
        assertEquals(PreconditionFlag.GENERATION, batch("abort", "--generation", "3").preconditions().flags());
        assertEquals(PreconditionFlag.WINDOW, batch("abort", "--window", "3").preconditions().flags());
        final PreconditionsFlyweight physical = batch("abort", "--physical-sequence", "1").preconditions();
        assertEquals(PreconditionFlag.PHYSICAL_STATE, physical.flags());
        assertEquals(0, physical.expectedButtons(), "none held unless said");
        assertEquals(0, batch("abort", "--physical-sequence", "1", "--expect-buttons", "none")
            .preconditions().expectedButtons());
    }

    @Test
    void dryRunVerifyAndPolicy() throws Exception {
        assertEquals(AgentAbi.FLAG_DRY_RUN, batch("click", "--target", "5", "--dry-run").header().flags());
        final ActionBatchFlyweight verified = batch("click", "--target", "5", "--verify", "--dry-run");
        assertEquals(AgentAbi.FLAG_DRY_RUN | AgentAbi.FLAG_VERIFY_NEXT_GENERATION, verified.header().flags());
        assertEquals(Capability.POINTER, verified.requestedCapabilityBits(), "OBSERVE is not the batch's");
        assertEquals(Capability.POINTER | Capability.OBSERVE,
            CliRun.parsed(ActCommand.class, act("click", "--target", "5", "--verify")).request().helloCapabilities(),
            "but Hello asks for it (§4.4 #4)");
        assertEquals(AgentAbi.POLICY_CONTINUE_ON_FAILURE,
            batch("click", "--target", "5", "--continue-on-failure").policy());
    }

    @Test
    void aDurationMakesATimedBatchAndGrowsTheDefaultDeadline() throws Exception {
        final long beforeNs = System.nanoTime();
        final ActionBatchFlyweight drag = batch("drag-drop", "--target", "5", "--to", "6", "--duration", "2s");
        assertEquals(TimeUnit.SECONDS.toNanos(2), theAction(drag).durationNs());
        assertTrue(drag.deadlineNs() - beforeNs >= TimeUnit.MILLISECONDS.toNanos(7_000), "2 s and the 5 s default");
        assertEquals(500_000_000L, theAction(batch("hold", "--target", "5", "--duration", "500ms")).durationNs());
        assertEquals(1_500_000_000L, theAction(batch("scroll", "--target", "5", "--dy", "3", "--duration", "1.5s"))
            .durationNs());
        final ActionBatchFlyweight explicit = batch("pointer-move", "--target", "5", "--duration", "1s", "--deadline-ms", "3000");
        assertTrue(explicit.deadlineNs() - System.nanoTime() <= TimeUnit.MILLISECONDS.toNanos(3_000), "--deadline-ms wins");
        final ActionBatchFlyweight plain = batch("drag-drop", "--target", "5", "--to", "6");
        assertEquals(0, theAction(plain).durationNs());
    }

    @Test
    void deadlineCountsFromNow() throws Exception {
        final long beforeNs = System.nanoTime();
        final long deadlineNs = batch("abort", "--deadline-ms", "250").deadlineNs();

        assertTrue(deadlineNs - beforeNs >= TimeUnit.MILLISECONDS.toNanos(250), "at least 250 ms ahead");
        assertTrue(deadlineNs - System.nanoTime() <= TimeUnit.MILLISECONDS.toNanos(250), "at most 250 ms ahead");
    }

    @ParameterizedTest(name = "[{index}] act {0}")
    @CsvSource(delimiter = '|', value = {
        "''                                      | Missing required parameter: 'KIND'",
        "fly                                     | Invalid value for positional parameter at index 0 (KIND)",
        "click                                   | click needs --target ID",
        "text-select --target 5                  | text-select needs --to ID",
        "key --key a --target 5                  | key takes no --target",
        "click --target 5 --to 6                 | click takes no --to",
        "click --target 0                        | --target 0 names no target",
        "drag-drop --target 5 --to 0             | --to 0 names no target",
        "key                                     | key needs --key KEY",
        "key --key 0x0                           | a HID keyboard usage 0x1..0xFFFF",
        "key --key 00                            | a HID keyboard usage 0x1..0xFFFF",
        "key --key 0x10000                       | a HID keyboard usage 0x1..0xFFFF",
        "key --key nope                          | but was 'nope'",
        "click --target 5 --key a                | click takes no --key",
        "click --target 5 --repeat 17            | '--repeat': expected 1..16 but was 17",
        "click --target 5 --repeat 0             | '--repeat': expected 1..16 but was 0",
        "hold --target 5 --repeat 2              | hold takes no --repeat",
        "scroll --target 5                       | scroll needs --dx or --dy",
        "scroll --target 5 --dx 0 --dy 0.001     | scroll needs --dx or --dy",
        "click --target 5 --dy 1                 | click takes no --dy",
        "text --target 5                         | text needs --text TEXT or --text-file PATH",
        "text --target 5 --text EMPTY            | '--text': expected 1..16384 UTF-8 bytes but was 0",
        "text --target 5 --text a --text-file f  | text takes --text or --text-file, not both",
        "click --target 5 --text a               | click takes no --text",
        "window-activate --target 5 --at 1,2     | window-activate takes no --at",
        "drag-drop --target 5 --to 6 --at 1,2    | --at needs --to-at X,Y as well",
        "drag-drop --target 5 --to 6 --to-at 1,2 | --to-at needs --at X,Y as well",
        "click --target 5 --to-at 1,2            | click takes no --to-at",
        "click --target 5 --at 1                 | expected X,Y",
        "click --target 5 --at 1,y               | expected a number in desktop units",
        "click --target 5 --button both          | expected one of left, right, middle but was 'both'",
        "key --key a --button left               | key takes no --button",
        "window-activate --target 5 --modifiers shift | window-activate takes no --modifiers",
        "click --target 5 --modifiers hyper      | but was 'hyper'",
        "click --target 5 --backward             | click takes no --backward",
        "click --target 5 --expect-buttons left  | --expect-buttons needs --physical-sequence S",
        "click --target 5 --expect-modifiers shift | --expect-modifiers needs --physical-sequence S",
        "click --target 5 --generation -1        | expected a decimal number",
        "click --target -5                       | expected a decimal number",
        "abort --deadline-ms 0                   | '--deadline-ms': expected 1..2147483647 but was 0",
        "abort --timeout-ms 0                    | '--timeout-ms': must be at least 1",
        "abort --write-batch - --json            | --write-batch writes the batch itself",
        "click --target 5 --explicit-window      | --explicit-window and --allow-activation need --window W",
        "key --key a --window 9 --explicit-window | --explicit-window and --allow-activation need --window W",
        "click --target 5 --window 9 --allow-activation | --allow-activation applies with --explicit-window",
        "click --target 5 --duration 1s          | click takes no --duration",
        "hold --target 5 --duration 61s          | expected a duration with its unit, up to 60s",
        "hold --target 5 --duration 2            | expected a duration with its unit, up to 60s",
        "hold --target 5 --duration 0ms          | expected a duration with its unit, up to 60s",
        "hold --target 5 --duration -1s          | expected a duration with its unit, up to 60s"})
    void badCommandLinesAreUsageErrors(final String options, final String message) {
        final List<String> args = new ArrayList<>(List.of("act", "--endpoint", NO_ENDPOINT));
        if (!options.isEmpty()) {
            args.addAll(Arrays.asList(options.split(" ")));
        }
        // EMPTY stands for an empty argument, as the shell passes ''.
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("EMPTY")) {
                args.set(i, "");
            }
        }

        final CliRun run = CliRun.run(args.toArray(new String[0]));

        assertEquals(ExitCodes.USAGE, run.exitCode, run.toString());
        assertTrue(run.err.contains(message), run.err);
        assertEquals(0, run.stdout.length);
    }

    @Test
    void explicitWindowAndAllowActivationSetTheirFlagsAndNameTheWindow() throws Exception {
        final ActionBatchFlyweight b = batch("click", "--target", "5", "--window", "9", "--explicit-window",
            "--allow-activation");
        assertEquals(ActionFlag.EXPLICIT_WINDOW | ActionFlag.ALLOW_ACTIVATION, theAction(b).flags());
        assertEquals(PreconditionFlag.WINDOW, b.preconditions().flags());
        assertEquals(9, b.preconditions().windowId());
        assertEquals(0, theAction(batch("click", "--target", "5", "--window", "9")).flags(), "--window alone: a precondition");
    }

    @Test
    void aMissingTextFileIsAnInputFailure() {
        final Path missing = dir.resolve("missing.txt");

        final CliRun run = CliRun.run("act", "text", "--endpoint", NO_ENDPOINT, "--target", "5", "--text-file",
            missing.toString());

        assertEquals(ExitCodes.INPUT, run.exitCode, run.toString());
        assertEquals("saccade: cannot read --text-file " + missing + ": no such file\n", run.err);
        assertEquals(0, run.stdout.length);
    }

    @Test
    void unusableTextFilesAreInputFailures() throws Exception {
        final Path empty = Files.write(dir.resolve("empty.txt"), new byte[0]);
        final Path latin1 = Files.write(dir.resolve("latin1.txt"), new byte[] {'h', (byte) 0xE9, 'l'});
        final Path surrogate = Files.write(dir.resolve("surrogate.txt"), new byte[] {(byte) 0xED, (byte) 0xA0,
            (byte) 0x80});
        final Path tooLong = Files.write(dir.resolve("long.txt"), new byte[AgentAbi.MAX_TEXT_BYTES + 1]);

        assertInputFailure(empty, "saccade: --text-file " + empty + " is empty: text needs 1..16384 bytes\n");
        assertInputFailure(latin1, "saccade: --text-file " + latin1 + " is not UTF-8 text\n");
        assertInputFailure(surrogate, "saccade: --text-file " + surrogate + " is not UTF-8 text\n");
        assertInputFailure(tooLong, "saccade: --text-file " + tooLong + " is longer than 16384 bytes\n");
        assertInputFailure(dir, "saccade: cannot read --text-file " + dir + ": it is a directory\n");
    }

    private static void assertInputFailure(final Path file, final String message) {
        final CliRun run = CliRun.run("act", "text", "--endpoint", NO_ENDPOINT, "--target", "5", "--text-file",
            file.toString());

        assertEquals(ExitCodes.INPUT, run.exitCode, run.toString());
        assertEquals(message, run.err);
    }

    @Test
    void writeBatchWritesTheFrameInsteadOfSendingIt() throws Exception {
        final Path file = dir.resolve("click.bin");

        final CliRun run = CliRun.run("act", "click", "--endpoint", NO_ENDPOINT, "--target", "5", "--dry-run",
            "--write-batch", file.toString());

        assertEquals(ExitCodes.SUCCESS, run.exitCode, run.toString());
        final byte[] frame = Files.readAllBytes(file);
        final BytesStore<?, byte[]> bytes = BytesStore.wrap(frame);
        assertEquals(RequestValidator.ACCEPT, new RequestValidator().validate(bytes, 0, frame.length,
            Capability.POLICY, AgentAbi.MAX_MESSAGE_BYTES, System.nanoTime()));
        final ActionBatchFlyweight b = new ActionBatchFlyweight().wrap(bytes, 0);
        assertEquals(AgentAbi.FLAG_DRY_RUN, b.header().flags());
        assertEquals(5, new ActionFlyweight().wrap(bytes, b.actionsOffset()).targetId());

        final CliRun toStdout = CliRun.run("act", "key", "--endpoint", NO_ENDPOINT, "--key", "enter",
            "--write-batch", "-");
        assertEquals(ExitCodes.SUCCESS, toStdout.exitCode, toStdout.toString());
        assertEquals(ActionBatchFlyweight.LENGTH + ActionFlyweight.LENGTH, toStdout.stdout.length);
        assertEquals(0x28, new ActionFlyweight().wrap(BytesStore.wrap(toStdout.stdout), ActionBatchFlyweight.LENGTH)
            .keyUsage());

        final CliRun nowhere = CliRun.run("act", "abort", "--write-batch", dir.resolve("no/such/dir/b.bin").toString());
        assertEquals(ExitCodes.OUTPUT, nowhere.exitCode, nowhere.toString());
        assertTrue(nowhere.err.startsWith("saccade: cannot write the batch to "), nowhere.err);
    }

    @Test
    void helpDocumentsEveryOptionAndTheExamples() {
        final CliRun run = CliRun.run("act", "--help");

        assertEquals(ExitCodes.SUCCESS, run.exitCode, run.toString());
        for (final String option : List.of("--target", "--to=", "--at", "--to-at", "--button", "--repeat",
            "--modifiers", "--key", "--dx", "--dy", "--text=", "--text-file", "--backward", "--generation",
            "--process", "--window", "--display", "--transform", "--permission", "--expect-buttons",
            "--expect-modifiers", "--physical-sequence", "--dry-run", "--verify", "--continue-on-failure",
            "--deadline-ms", "--json", "--endpoint", "--timeout-ms", "--write-batch", "--duration")) {
            assertTrue(run.out.contains("  " + option) || run.out.contains(" " + option), option);
        }
        assertTrue(run.out.contains("saccade act click --target 72057594044219399 --json"), run.out);
        assertTrue(run.out.contains("saccade act text --target ID --text \"héllo\" --dry-run"), run.out);
        assertTrue(run.out.contains("saccade act key --key a --modifiers control"), run.out);
        assertTrue(run.out.contains("query-physical-state"), run.out);
        assertTrue(run.out.contains("  6   input failure"), run.out);
    }
}
