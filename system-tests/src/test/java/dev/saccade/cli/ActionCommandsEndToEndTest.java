package dev.saccade.cli;

import static dev.saccade.cli.InProcessOwner.FILE_NAME;
import static dev.saccade.cli.InProcessOwner.OK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.ActionBatchBuilder;
import dev.saccade.protocol.ActionBatchFlyweight;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionValidator;
import dev.saccade.protocol.ObserveRequestFlyweight;
import dev.saccade.protocol.ResultCode;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * act and batch against a real service on a real socket (the owner in this JVM, as in
 * {@link ClientCommandsEndToEndTest}) that has no input helper, as in this setup: every batch
 * the service reads answers EXECUTOR_LOST (D5) — DRY_RUN ones too, because the physical state
 * lives in the helper (§4.4 #7) — while the checks before it (§4.4 #0–#6) answer as usual.
 */
@Timeout(30)
class ActionCommandsEndToEndTest {
    private static final String EXECUTOR_LOST_MESSAGE = "EXECUTOR_LOST (-13): the input helper is not running or"
        + " its link was lost; nothing was emitted\n";

    @TempDir
    Path dir;

    private Path socket;
    private InProcessOwner owner;
    private long generation;

    @BeforeEach
    void startOwner() throws Exception {
        socket = dir.resolve("agent.sock");
        owner = InProcessOwner.start(socket);
        generation = owner.publishDialog();
    }

    @AfterEach
    void stopOwner() throws Exception {
        owner.stop();
    }

    private CliRun saccade(final String command, final String... options) {
        return CliRun.atEndpoint(socket, command, options);
    }

    private static ActionCompletionFlyweight completion(final CliRun run) {
        assertEquals(CompletionValidator.VALID, new CompletionValidator().validate(BytesStore.wrap(run.stdout), 0,
            run.stdout.length, AgentAbi.ACTION_COMPLETION), "stdout is exactly one action completion");
        return new ActionCompletionFlyweight().wrap(BytesStore.wrap(run.stdout), 0);
    }

    private Path file(final String name, final byte[] bytes) throws Exception {
        return Files.write(dir.resolve(name), bytes);
    }

    /** A batch from the builder, as a file would hold it, patched by {@code change}. */
    private static byte[] frame(final ActionBatchBuilder builder, final Consumer<ActionBatchFlyweight> change) {
        final BytesStore<?, byte[]> store = BytesStore.wrap(new byte[ActionBatchBuilder.MAX_LENGTH]);
        final int length = builder.writeTo(store, 0);
        change.accept(new ActionBatchFlyweight().wrap(store, 0));
        return Arrays.copyOf(store.underlyingObject(), length);
    }

    private static ActionBatchBuilder clickOk(final long requestId) {
        return new ActionBatchBuilder().requestId(requestId).kind(ActionKind.CLICK).target(OK).button(Button.LEFT).repeat(1)
            .deadlineNs(System.nanoTime() + TimeUnit.SECONDS.toNanos(10));
    }

    @Test
    void aLiveClickWithoutAnInputHelperAnswersExecutorLost() {
        final CliRun run = saccade("act", "click", "--target", Long.toString(OK), "--json");

        assertEquals(ExitCodes.REQUEST_REJECTED, run.exitCode, run.toString());
        assertEquals("saccade: act rejected: " + EXECUTOR_LOST_MESSAGE, run.err);
        final Map<String, Object> completion = Json.object(run.stdout);
        assertEquals("ACTION_COMPLETION", completion.get("kind"));
        assertEquals(Long.toString(ActCommand.REQUEST_ID), completion.get("request_id"));
        assertEquals("EXECUTOR_LOST", completion.get("result"));
        assertEquals(ResultCode.EXECUTOR_LOST, ((Number) completion.get("result_code")).intValue());
        assertEquals(ResultCode.PLATFORM_BACKEND, ((Number) completion.get("platform_error")).intValue());
        assertEquals(0, ((Number) completion.get("completed_action_count")).intValue());
        assertNull(completion.get("failed_action_index"), "a batch error, not an action's (§4.5)");
        assertEquals(List.of(), completion.get("results"));
    }

    @Test
    void aDryRunAlsoAnswersExecutorLostBecauseThePhysicalStateLivesInTheHelper() {
        final CliRun run = saccade("act", "text", "--target", Long.toString(FILE_NAME), "--text", "héllo",
            "--dry-run");

        assertEquals(ExitCodes.REQUEST_REJECTED, run.exitCode, run.toString());
        assertEquals("saccade: act rejected: " + EXECUTOR_LOST_MESSAGE, run.err);
        final ActionCompletionFlyweight c = completion(run);
        assertEquals(ActionCompletionFlyweight.LENGTH, run.stdout.length, "the typed error completion of §4.5");
        assertEquals(ActionCompletionFlyweight.LENGTH, c.totalSize());
        assertEquals(ActCommand.REQUEST_ID, c.requestId());
        assertEquals(ResultCode.EXECUTOR_LOST, c.result());
        assertEquals(ResultCode.PLATFORM_BACKEND, c.platformError());
        assertEquals(AgentAbi.NO_FAILED_ACTION, c.failedActionIndex());
        assertEquals(0, c.actionResultCount());
        assertEquals(0, c.physicalState().physicalSequence(), "zero physical state");
    }

    @Test
    void everyKindAnswersExecutorLostWithoutAnInputHelper() {
        final String ok = Long.toString(OK);
        final String field = Long.toString(FILE_NAME);
        final List<String[]> commandLines = List.of(
            new String[] {"pointer-move", "--target", ok}, new String[] {"hover", "--target", ok},
            new String[] {"click", "--target", ok, "--repeat", "2"}, new String[] {"invoke", "--target", ok},
            new String[] {"hold", "--target", ok}, new String[] {"drag-drop", "--target", ok, "--to", field},
            new String[] {"scroll", "--target", ok, "--dy", "3"}, new String[] {"key", "--key", "enter"},
            new String[] {"text", "--target", field, "--text", "x"}, new String[] {"window-activate", "--target",
                Long.toString(InProcessOwner.DIALOG)},
            new String[] {"release"}, new String[] {"text-select", "--target", field, "--to", field},
            new String[] {"key-chord", "--key", "a", "--modifiers", "control"}, new String[] {"window-cycle"},
            new String[] {"abort"}, new String[] {"query-physical-state"});
        for (final String[] commandLine : commandLines) {
            final List<String> args = new ArrayList<>(Arrays.asList(commandLine));
            args.add("--json");
            final CliRun run = saccade("act", args.toArray(new String[0]));

            assertEquals(ExitCodes.REQUEST_REJECTED, run.exitCode, commandLine[0] + ": " + run);
            assertEquals("EXECUTOR_LOST", Json.object(run.stdout).get("result"), commandLine[0]);
        }
    }

    @Test
    void theMissingHelperIsReportedBeforeAStalePrecondition() {
        owner.publishDialog();

        final CliRun run = saccade("act", "click", "--target", Long.toString(OK), "--generation",
            Long.toString(generation - 1), "--window", "12345");

        assertEquals(ExitCodes.REQUEST_REJECTED, run.exitCode, run.toString());
        assertEquals(ResultCode.EXECUTOR_LOST, completion(run).result(), "§4.4 #7 comes before #8");
    }

    @Test
    void aVerifiedBatchThatFailsIsNotVerified() {
        final CliRun run = saccade("act", "click", "--target", Long.toString(OK), "--verify", "--deadline-ms", "200");

        assertEquals(ExitCodes.REQUEST_REJECTED, run.exitCode, run.toString());
        assertEquals("saccade: act rejected: " + EXECUTOR_LOST_MESSAGE, run.err);
        assertEquals(0, completion(run).header().flags());
    }

    @Test
    void actWithoutAServiceIsAConnectionFailure() {
        final CliRun run = CliRun.run("act", "abort", "--endpoint", dir.resolve("nobody.sock").toString());

        assertEquals(ExitCodes.CONNECTION_FAILED, run.exitCode, run.toString());
        assertEquals(1, run.err.lines().count(), run.err);
    }

    @Test
    void aBatchFileBuiltWithTheBuilderRoundTrips() throws Exception {
        final Path file = file("click.bin", frame(clickOk(77), b -> { }));

        final CliRun binary = saccade("batch", file.toString());

        assertEquals(ExitCodes.REQUEST_REJECTED, binary.exitCode, binary.toString());
        assertEquals("saccade: batch rejected: " + EXECUTOR_LOST_MESSAGE, binary.err);
        final ActionCompletionFlyweight c = completion(binary);
        assertEquals(77, c.requestId(), "the file's request_id, echoed");
        assertEquals(ResultCode.EXECUTOR_LOST, c.result());

        final CliRun json = saccade("batch", file.toString(), "--json");
        assertEquals(ExitCodes.REQUEST_REJECTED, json.exitCode, json.toString());
        assertEquals("77", Json.object(json.stdout).get("request_id"));
    }

    @Test
    void aBatchWrittenByActIsSentByBatch() throws Exception {
        final Path file = dir.resolve("written.bin");
        final CliRun write = saccade("act", "click", "--target", Long.toString(OK), "--dry-run", "--deadline-ms", "1",
            "--write-batch", file.toString());
        assertEquals(ExitCodes.SUCCESS, write.exitCode, write.toString());
        final long writtenDeadlineNs = new ActionBatchFlyweight().wrap(BytesStore.wrap(Files.readAllBytes(file)), 0)
            .deadlineNs();
        while (System.nanoTime() - writtenDeadlineNs <= 0) {
            Thread.onSpinWait(); // 1 ms: the file's own deadline has certainly passed afterwards
        }

        final CliRun stale = saccade("batch", file.toString(), "--json");
        assertEquals(ExitCodes.REQUEST_REJECTED, stale.exitCode, stale.toString());
        assertEquals("TIMEOUT", Json.object(stale.stdout).get("result"), "D4: the saved deadline is past");
        assertEquals("saccade: batch rejected: TIMEOUT (-11): the batch's deadline had passed when the service read"
            + " it\n", stale.err);

        final CliRun restamped = saccade("batch", file.toString(), "--deadline-ms", "5000", "--json");
        assertEquals(ExitCodes.REQUEST_REJECTED, restamped.exitCode, restamped.toString());
        assertEquals("EXECUTOR_LOST", Json.object(restamped.stdout).get("result"), "read, then no helper");
    }

    @Test
    void aBatchFromStandardInput() throws Exception {
        final InputStream stdin = System.in;
        System.setIn(new ByteArrayInputStream(frame(clickOk(5), b -> { })));
        final CliRun run;
        try {
            run = saccade("batch", "-");
        } finally {
            System.setIn(stdin);
        }

        assertEquals(ExitCodes.REQUEST_REJECTED, run.exitCode, run.toString());
        assertEquals(5, completion(run).requestId());
    }

    @Test
    void aBatchAskingForClipboardIsDeniedTyped() throws Exception {
        final Path file = file("clipboard.bin",
            frame(clickOk(9), b -> b.requestedCapabilityBits(Capability.POINTER | Capability.CLIPBOARD)));

        final CliRun run = saccade("batch", file.toString());

        assertEquals(ExitCodes.REQUEST_REJECTED, run.exitCode, run.toString());
        assertEquals("saccade: batch rejected: CAPABILITY_DENIED (-2)\n", run.err);
        final ActionCompletionFlyweight c = completion(run);
        assertEquals(ResultCode.CAPABILITY_DENIED, c.result());
        assertEquals(ActionCompletionFlyweight.LENGTH, c.totalSize());

        final Path clipboardOnly = file("clipboard-only.bin",
            frame(clickOk(9), b -> b.requestedCapabilityBits(Capability.CLIPBOARD)));
        final CliRun only = saccade("batch", clipboardOnly.toString());
        assertEquals(ExitCodes.REQUEST_REJECTED, only.exitCode, only.toString());
        assertEquals(ResultCode.CAPABILITY_DENIED, completion(only).result(),
            "Hello asked OBSERVE too, so the service answered the batch itself");
    }

    @Test
    void aMalformedBatchFileEndsTheConnectionWithExitThree() throws Exception {
        final List<Consumer<ActionBatchFlyweight>> breaks = List.of(
            b -> b.actionCount(0),
            b -> b.actionsOffset(0),
            b -> b.policy(3),
            b -> b.header().flags(0x4),
            b -> b.header().structSize(137),
            b -> b.totalSize(b.totalSize() + 1));
        int i = 0;
        for (final Consumer<ActionBatchFlyweight> change : breaks) {
            final Path file = file("malformed-" + i++ + ".bin", frame(clickOk(3), change));

            final CliRun run = saccade("batch", file.toString(), "--json");

            assertEquals(ExitCodes.PROTOCOL, run.exitCode, file + ": " + run);
            assertEquals("saccade: protocol error: the service closed the connection: the batch breaks the wire"
                + " contract (§4.4)\n", run.err);
            assertEquals(0, run.stdout.length);
        }
        assertEquals(ExitCodes.REQUEST_REJECTED, saccade("act", "abort").exitCode, "the service still serves");
    }

    @Test
    void unusableBatchFilesAreInputFailures() throws Exception {
        final Path missing = dir.resolve("missing.bin");
        final Path tooShort = file("short.bin", Arrays.copyOf(frame(clickOk(3), b -> { }), 135));
        final Path tooLong = file("long.bin", new byte[AgentAbi.MAX_MESSAGE_BYTES + 1]);
        final byte[] observe = Arrays.copyOf(frame(clickOk(3), b -> b.header().messageKind(AgentAbi.OBSERVE_REQUEST)),
            ObserveRequestFlyweight.LENGTH + 40);

        assertInput("batch", missing, "saccade: cannot read batch file " + missing + ": no such file\n");
        assertInput("batch", tooShort, "saccade: batch file " + tooShort + " has 135 bytes; an ActionBatch has at"
            + " least 136 (spec §3)\n");
        assertInput("batch", tooLong, "saccade: batch file " + tooLong + " is longer than 1048576 bytes\n");
        assertInput("batch", file("observe.bin", observe), "saccade: batch file " + dir.resolve("observe.bin")
            + " is not an ActionBatch: its message_kind is 1 (OBSERVE_REQUEST), an ActionBatch's is 5\n");
        assertInput("batch", dir, "saccade: cannot read batch file " + dir + ": it is a directory\n");
    }

    private void assertInput(final String command, final Path file, final String message) {
        final CliRun run = saccade(command, file.toString());

        assertEquals(ExitCodes.INPUT, run.exitCode, run.toString());
        assertEquals(message, run.err);
        assertEquals(0, run.stdout.length);
    }

    @Test
    void aMissingTextFileExitsSixWithoutConnecting() {
        final Path missing = dir.resolve("missing.txt");

        final CliRun run = saccade("act", "text", "--target", Long.toString(FILE_NAME), "--text-file",
            missing.toString());

        assertEquals(ExitCodes.INPUT, run.exitCode, run.toString());
        assertEquals("saccade: cannot read --text-file " + missing + ": no such file\n", run.err);
    }

    @Test
    void batchHelpDocumentsItsOptions() {
        final CliRun run = CliRun.run("batch", "--help");

        assertEquals(ExitCodes.SUCCESS, run.exitCode, run.toString());
        for (final String option : List.of("FILE", "--deadline-ms", "--json", "--endpoint", "--timeout-ms")) {
            assertTrue(run.out.contains(option), option);
        }
        assertTrue(run.out.contains("  saccade batch click.bin --deadline-ms 2000 --json"), run.out);
        assertTrue(run.out.contains("Examples:"), run.out);
    }
}
