package dev.saccade.cli;

import static dev.saccade.cli.InProcessOwner.DIALOG;
import static dev.saccade.cli.InProcessOwner.FILE_NAME;
import static dev.saccade.cli.InProcessOwner.OK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.owner.RecordingExecutor;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.CompletionValidator;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testsupport.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * act against a real service whose planner hands its plans to a {@link RecordingExecutor} in
 * place of the input helper: the batch goes through the real validator and planner (rules A–H of
 * §5.8, preconditions, verification), so the recorded commands show the input each command line
 * produces, and the completions are the service's own.
 */
@Timeout(30)
class ActWithInputEndToEndTest {
    // Safe points (centres) of the scene's targets, in Q8.
    private static final String OK_CENTRE = "move " + ActingOwner.q8(330) + "," + ActingOwner.q8(365);
    private static final String FIELD_CENTRE = "move " + ActingOwner.q8(270) + "," + ActingOwner.q8(162);

    @TempDir
    Path dir;

    private Path socket;
    private ActingOwner owner;
    private long generation;

    @BeforeEach
    void startOwner() throws Exception {
        socket = dir.resolve("agent.sock");
        owner = ActingOwner.start(socket);
        generation = owner.publish();
    }

    @AfterEach
    void stopOwner() throws Exception {
        owner.stop();
    }

    private CliRun act(final String... options) {
        final List<String> args = new ArrayList<>(List.of("act", "--endpoint", socket.toString()));
        args.addAll(List.of(options));
        return CliRun.run(args.toArray(new String[0]));
    }

    /** Runs act with --json; it must succeed. Returns the completion. */
    private Map<String, Object> ok(final String... options) {
        final List<String> args = new ArrayList<>(List.of(options));
        args.add("--json");
        final CliRun run = act(args.toArray(new String[0]));
        assertEquals(ExitCodes.SUCCESS, run.exitCode, run.toString());
        assertEquals("", run.err);
        final Map<String, Object> completion = Json.object(run.stdout);
        assertEquals("OK", completion.get("result"));
        assertEquals(1, ((Number) completion.get("completed_action_count")).intValue());
        assertNull(completion.get("failed_action_index"));
        return completion;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> row(final Map<String, Object> completion) {
        final List<Object> rows = (List<Object>) completion.get("results");
        assertEquals(1, rows.size());
        return (Map<String, Object>) rows.get(0);
    }

    @Test
    void aClickMovesToTheSafePointAndClicksOnce() {
        final Map<String, Object> completion = ok("click", "--target", Long.toString(OK));

        final Map<String, Object> row = row(completion);
        assertEquals("CLICK", row.get("kind"));
        assertEquals("OK", row.get("result"));
        assertEquals(Long.toString(OK), row.get("resolved_target_id"));
        assertEquals(Long.toString(generation), row.get("validated_generation"));
        assertEquals(Long.toString(generation), completion.get("validated_generation"));
        assertEquals(List.of(OK_CENTRE, "down 1", "up 1", "end 0"), owner.executor.commands());
    }

    @Test
    void aDoubleRightClickWithShiftHeld() {
        ok("click", "--target", Long.toString(OK), "--repeat", "2", "--button", "right", "--modifiers", "shift");

        assertEquals(List.of(OK_CENTRE, "modifiers down 1", "down 2", "up 2", "down 2", "up 2", "modifiers up 1",
            "end 0"), owner.executor.commands());
    }

    @Test
    void textIsAFocusClickAtThePointThenTheText() {
        ok("text", "--target", Long.toString(FILE_NAME), "--text", "héllo 👋", "--at", "130,160.5");

        assertEquals(List.of("move " + ActingOwner.q8(130) + "," + (ActingOwner.q8(160) + 128), "down 1", "up 1",
            "text héllo 👋", "end 0"), owner.executor.commands());
    }

    @Test
    void aKeyWithModifiers() {
        ok("key", "--key", "a", "--modifiers", "control,shift");
        ok("key-chord", "--key", "0x2C");

        assertEquals(List.of("modifiers down 3", "key down 0x4", "key up 0x4", "modifiers up 3", "end 0",
            "key down 0x2c", "key up 0x2c", "end 0"), owner.executor.commands());
    }

    @Test
    void dragDropScrollMovesAndWindows() {
        ok("drag-drop", "--target", Long.toString(OK), "--to", Long.toString(FILE_NAME), "--at", "310,360",
            "--to-at", "200,160");
        ok("scroll", "--target", Long.toString(OK), "--dx", "1.5", "--dy", "-3");
        ok("hover", "--target", Long.toString(FILE_NAME));
        ok("window-activate", "--target", Long.toString(DIALOG));
        ok("window-cycle", "--backward");

        assertEquals(List.of(
            "move " + ActingOwner.q8(310) + "," + ActingOwner.q8(360), "down 1",
            "move " + ActingOwner.q8(310 - 12) + "," + ActingOwner.q8(360 - 12), // the first step of the drag
            "move " + ActingOwner.q8(200) + "," + ActingOwner.q8(160), "up 1", "end 0",
            OK_CENTRE, "scroll 384,-768", "end 0",
            FIELD_CENTRE, "end 0",
            "activate " + InProcessOwner.ACTIVE_WINDOW, "end 0",
            "cycle backward", "end 0"), owner.executor.commands());
    }

    @Test
    void aDryRunChecksEverythingAndEmitsNothing() {
        ok("click", "--target", Long.toString(OK), "--dry-run");
        ok("text", "--target", Long.toString(FILE_NAME), "--text", "x", "--dry-run");
        ok("abort", "--dry-run");

        assertEquals(List.of(), owner.executor.commands());
    }

    @Test
    void aFailedActionIsPrintedAndNamedOnStandardError() {
        final CliRun missing = act("click", "--target", "99", "--json");

        assertEquals(ExitCodes.REQUEST_REJECTED, missing.exitCode, missing.toString());
        assertEquals("saccade: act rejected: TARGET_NOT_FOUND (-4); action 0 (CLICK) failed: TARGET_NOT_FOUND (-4)\n",
            missing.err);
        final Map<String, Object> completion = Json.object(missing.stdout);
        assertEquals("TARGET_NOT_FOUND", completion.get("result"));
        assertEquals(0, ((Number) completion.get("failed_action_index")).intValue());
        assertEquals("TARGET_NOT_FOUND", row(completion).get("result"));

        final CliRun outside = act("click", "--target", Long.toString(OK), "--at", "299.5,360");
        assertEquals(ExitCodes.REQUEST_REJECTED, outside.exitCode, outside.toString());
        assertEquals(ResultCode.TARGET_NOT_FOUND, new ActionCompletionFlyweight().wrap(BytesStore.wrap(outside.stdout),
            0).result(), "an explicit point outside the target");

        final CliRun unsupported = act("key", "--key", "0x32");
        assertEquals(ExitCodes.REQUEST_REJECTED, unsupported.exitCode, unsupported.toString());
        assertEquals("saccade: act rejected: ACTION_UNSUPPORTED (-6); action 0 (KEY) failed: ACTION_UNSUPPORTED"
            + " (-6)\n", unsupported.err);

        assertEquals(List.of(), owner.executor.commands(), "no input for a failed check");
    }

    @Test
    void stalePreconditionsAreRejectedBeforeAnyInput() {
        final CliRun stale = act("click", "--target", Long.toString(OK), "--generation", Long.toString(generation - 1));

        assertEquals(ExitCodes.REQUEST_REJECTED, stale.exitCode, stale.toString());
        assertEquals("saccade: act rejected: STALE_GENERATION (-3): a precondition does not hold in the current scene"
            + " (observe again)\n", stale.err);

        ok("click", "--target", Long.toString(OK), "--generation", Long.toString(generation), "--process", "4242",
            "--window", Long.toString(InProcessOwner.ACTIVE_WINDOW), "--display", "1", "--transform", "1",
            "--permission", "1", "--physical-sequence", "1", "--expect-buttons", "none");
        final CliRun sequence = act("click", "--target", Long.toString(OK), "--physical-sequence", "2");
        assertEquals(ExitCodes.REQUEST_REJECTED, sequence.exitCode, sequence.toString());
        assertEquals(1, owner.executor.plans.size(), "only the click whose preconditions held");
    }

    @Test
    void holdIsReleasedWhenTheCommandsConnectionCloses() {
        ok("hold", "--target", Long.toString(OK));
        assertEquals(List.of(OK_CENTRE, "down 1", "end 0"), owner.executor.commands());

        // The owner notices the closed connection on its own tick: poll until it released the hold.
        final Map<String, Object> state = Await.value(() -> Json.field(ok("query-physical-state"), "physical_state"),
            s -> ((List<?>) s.get("buttons")).isEmpty(), Duration.ofSeconds(5), Duration.ofMillis(5),
            s -> "the hold released; state: " + s);
        assertEquals("0", state.get("active_lease_id"));
        assertEquals("1", state.get("physical_sequence"));

        final CliRun release = act("release");
        assertEquals(ExitCodes.REQUEST_REJECTED, release.exitCode, release.toString());
        assertEquals("saccade: act rejected: INVALID_MESSAGE (-1); action 0 (RELEASE) failed: INVALID_MESSAGE (-1)\n",
            release.err, "nothing held to release");
    }

    @Test
    void verifyReportsTheNextGenerationAndRunsTheInputOnce() throws Exception {
        final AtomicBoolean running = new AtomicBoolean(true);
        final CompletableFuture<CliRun> verified = CompletableFuture.supplyAsync(() -> {
            try {
                return act("click", "--target", Long.toString(OK), "--verify", "--deadline-ms", "20000", "--json");
            } finally {
                running.set(false);
            }
        });
        // Whether the service sees the next scene itself or the command finds it by observing
        // (§5.12), the result is the same: one new scene once the input ran, which then stays
        // quiet, so the command settles on it instead of chasing new scenes to its deadline.
        boolean published = false;
        while (running.get()) {
            if (!published && owner.executor.plans.size() > 0) {
                owner.publish();
                published = true;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }

        final CliRun run = verified.get(25, TimeUnit.SECONDS);
        assertEquals(ExitCodes.SUCCESS, run.exitCode, run.toString());
        final Map<String, Object> completion = Json.object(run.stdout);
        assertEquals("OK", completion.get("result"));
        assertEquals(List.of("NEXT_GENERATION_AVAILABLE"), completion.get("flags"));
        final long next = Long.parseLong((String) Json.field(completion, "next_generation").get("generation"));
        assertTrue(next > generation, "newer than the validated " + generation + ": " + next);
        assertEquals(Long.toString(next), Json.field(completion, "next_generation").get("scene_epoch"));
        assertEquals(1, owner.executor.plans.size(), "the input ran exactly once");
    }

    @Test
    void verifyWithoutANewerSceneEndsInTimeoutAtTheDeadline() {
        final long startNs = System.nanoTime();

        final CliRun run = act("click", "--target", Long.toString(OK), "--verify", "--deadline-ms", "300");

        assertEquals(ExitCodes.REQUEST_REJECTED, run.exitCode, run.toString());
        assertTrue(System.nanoTime() - startNs >= TimeUnit.MILLISECONDS.toNanos(300), "observed until the deadline");
        assertEquals("saccade: act rejected: TIMEOUT (-11): the actions ran, but no generation newer than "
            + generation + " appeared before the deadline\n", run.err);
        assertEquals(CompletionValidator.VALID, new CompletionValidator().validate(BytesStore.wrap(run.stdout), 0,
            run.stdout.length, AgentAbi.ACTION_COMPLETION));
        final ActionCompletionFlyweight c = new ActionCompletionFlyweight().wrap(BytesStore.wrap(run.stdout), 0);
        assertEquals(ResultCode.TIMEOUT, c.result());
        assertEquals(1, c.completedActionCount(), "the pending answer: every action completed");
        assertEquals(AgentAbi.NO_FAILED_ACTION, c.failedActionIndex());
        assertEquals(0, c.header().flags());
        assertEquals(1, owner.executor.plans.size(), "never resent");
    }

    @Test
    void aVerifiedDryRunIsPendingToo() {
        final CliRun run = act("click", "--target", Long.toString(OK), "--verify", "--dry-run", "--deadline-ms", "100",
            "--json");

        assertEquals(ExitCodes.REQUEST_REJECTED, run.exitCode, run.toString());
        assertEquals("TIMEOUT", Json.object(run.stdout).get("result"));
        assertEquals(List.of(), owner.executor.commands());
    }

    @Test
    void queryPhysicalStateNeedsOnlyObserveAndReadsTheState() {
        ok("pointer-move", "--target", Long.toString(OK));

        final Map<String, Object> state = Json.field(ok("query-physical-state"), "physical_state");

        assertEquals(Map.of("x", 330, "y", 365), state.get("pointer"));
        assertEquals(List.of(), state.get("buttons"));
        assertEquals("1", state.get("physical_sequence"));
    }
}
