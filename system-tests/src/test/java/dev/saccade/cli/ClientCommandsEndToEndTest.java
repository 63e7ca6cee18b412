package dev.saccade.cli;

import static dev.saccade.cli.InProcessOwner.CANCEL;
import static dev.saccade.cli.InProcessOwner.DIALOG;
import static dev.saccade.cli.InProcessOwner.FILE_NAME;
import static dev.saccade.cli.InProcessOwner.GRID_CELL;
import static dev.saccade.cli.InProcessOwner.OK;
import static dev.saccade.cli.InProcessOwner.OK_LINK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.owner.source.SyntheticScene;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.CompletionValidator;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.testsupport.Await;
import java.nio.file.Files;
import java.nio.file.LinkOption;
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
import org.newsclub.net.unix.AFUNIXServerSocket;
import org.newsclub.net.unix.AFUNIXSocketAddress;

/**
 * observe, query and wait against a real service on a real socket: the owner runs in this JVM
 * (listener, acceptor, owner thread, scene store), the commands run through
 * {@link Main#commandLine(java.io.OutputStream)} exactly as the launcher runs them.
 */
@Timeout(30)
class ClientCommandsEndToEndTest {
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

    /** Runs a command with --json that must succeed; returns the completion. */
    private Map<String, Object> json(final String command, final String... options) {
        final String[] withJson = new String[options.length + 1];
        System.arraycopy(options, 0, withJson, 0, options.length);
        withJson[options.length] = "--json";
        final CliRun run = saccade(command, withJson);
        assertEquals(ExitCodes.SUCCESS, run.exitCode, run.toString());
        assertEquals("", run.err);
        return Json.object(run.stdout);
    }

    private static List<String> ids(final long... ids) {
        final List<String> list = new ArrayList<>();
        for (final long id : ids) {
            list.add(Long.toString(id));
        }
        return list;
    }

    @Test
    void observeJsonListsEveryTargetOfTheScene() {
        final Map<String, Object> completion = json("observe");

        assertEquals("OBSERVE_COMPLETION", completion.get("kind"));
        assertEquals("OK", completion.get("result"));
        assertEquals(Long.toString(generation), Json.field(completion, "generation").get("generation"));
        assertEquals(InProcessOwner.DIALOG_TARGETS, ((Number) completion.get("target_count")).intValue());
        assertEquals(ids(DIALOG, OK, CANCEL, FILE_NAME, OK_LINK, GRID_CELL), Json.targetIds(completion));
        @SuppressWarnings("unchecked")
        final Map<String, Object> ok = ((List<Map<String, Object>>) completion.get("targets")).get(1);
        assertEquals("OK", ok.get("text"));
        assertEquals("BUTTON", ok.get("role"));
    }

    @Test
    void observeJsonOfASyntheticSceneListsItsTargets() {
        final long synthetic = SyntheticScene.publish(owner.store, 25, 12, 10);

        final Map<String, Object> completion = json("observe", "--scope", "active-window");

        assertEquals(Long.toString(synthetic), Json.field(completion, "generation").get("generation"));
        assertEquals(10, Json.targetIds(completion).size(), "the ten targets of active window 1");
    }

    @Test
    void observeBinaryOutputIsTheCompletionFrame() {
        final CliRun run = saccade("observe");

        assertEquals(ExitCodes.SUCCESS, run.exitCode, run.toString());
        final BytesStore<?, byte[]> frame = BytesStore.wrap(run.stdout);
        assertEquals(CompletionValidator.VALID,
            new CompletionValidator().validate(frame, 0, run.stdout.length, AgentAbi.OBSERVE_COMPLETION));
        final CompletionFlyweight c = new CompletionFlyweight().wrap(frame, 0);
        assertEquals(run.stdout.length, c.totalSize(), "exactly total_size bytes, no length prefix");
        assertEquals(ResultCode.OK, c.result());
        assertEquals(generation, c.generation().generation());
        assertEquals(InProcessOwner.DIALOG_TARGETS, c.targetCount());
        final TargetFlyweight ok = new TargetFlyweight().wrap(frame, c.targetsOffset() + c.targetStride());
        assertEquals(OK, ok.targetId());
        assertEquals("OK", new String(run.stdout, (int) ok.textOffset(), (int) ok.textSize()));
    }

    @Test
    void observeScopesKeepTheirTargets() {
        assertEquals(ids(DIALOG, OK, CANCEL, FILE_NAME), Json.targetIds(json("observe", "--scope", "active-window")));
        assertEquals(ids(GRID_CELL), Json.targetIds(json("observe", "--scope", "rect", "--rect", "0,0,99.5,99.5")));
        assertEquals(ids(DIALOG, OK, CANCEL, FILE_NAME, OK_LINK, GRID_CELL),
            Json.targetIds(json("observe", "--scope", "display", "--scope-id", "1")));
        assertEquals(ids(OK, OK_LINK), Json.targetIds(json("observe", "--source", "pixel")));
        assertEquals(ids(DIALOG, OK), Json.targetIds(json("observe", "--max-targets", "2")));
    }

    @Test
    void queryByTextAndRoleReturnsExactlyTheMatches() {
        assertEquals(ids(OK), Json.targetIds(json("query", "--text", "OK", "--match", "exact")));
        assertEquals(ids(OK, OK_LINK), Json.targetIds(json("query", "--text", "OK")));
        assertEquals(ids(OK, OK_LINK), Json.targetIds(json("query", "--text", "OK", "--match", "prefix")));
        assertEquals(ids(OK, CANCEL), Json.targetIds(json("query", "--role", "button")));
        assertEquals(ids(OK), Json.targetIds(json("query", "--role", "button", "--text", "OK", "--match", "exact")));
        assertEquals(ids(), Json.targetIds(json("query", "--role", "button", "--text", "ok")), "case-sensitive");
    }

    @Test
    void queryFiltersOnEveryOtherCondition() {
        assertEquals(ids(CANCEL), Json.targetIds(json("query", "--id", Long.toString(CANCEL))));
        assertEquals(ids(OK, CANCEL, FILE_NAME),
            Json.targetIds(json("query", "--relation", "child", "--related", Long.toString(DIALOG))));
        assertEquals(ids(DIALOG), Json.targetIds(json("query", "--relation", "parent", "--related", Long.toString(OK))));
        assertEquals(ids(FILE_NAME), Json.targetIds(json("query", "--require", "text")));
        assertEquals(ids(OK, CANCEL, OK_LINK), Json.targetIds(json("query", "--require", "click", "--forbid", "text")));
        assertEquals(ids(GRID_CELL), Json.targetIds(json("query", "--sources", "grid")));
        assertEquals(ids(OK, OK_LINK), Json.targetIds(json("query", "--sources", "pixel,neural")));
        assertEquals(ids(GRID_CELL), Json.targetIds(json("query", "--within", "0,0,100,100")));
        assertEquals(ids(DIALOG, OK, CANCEL, FILE_NAME, GRID_CELL),
            Json.targetIds(json("query", "--min-confidence", "0.5")));
        assertEquals(ids(OK, CANCEL), Json.targetIds(json("query", "--scope", "active-window", "--role", "button")));
        assertEquals(ids(OK), Json.targetIds(json("query", "--role", "button", "--max-results", "1")));
    }

    @Test
    void queryPinnedToTheCurrentGenerationAnswers() {
        final Map<String, Object> completion = json("query", "--generation", Long.toString(generation), "--role", "link");

        assertEquals("QUERY_COMPLETION", completion.get("kind"));
        assertEquals(ids(OK_LINK), Json.targetIds(completion));
    }

    @Test
    void queryPinnedToAStaleGenerationIsRejectedAndStillPrinted() {
        final long stale = generation;
        owner.publishDialog();
        awaitGenerationAbove(stale);

        final CliRun json = saccade("query", "--generation", Long.toString(stale), "--json");

        assertEquals(ExitCodes.REQUEST_REJECTED, json.exitCode, json.toString());
        assertEquals("saccade: query rejected: STALE_GENERATION (-3)\n", json.err);
        final Map<String, Object> completion = Json.object(json.stdout);
        assertEquals("STALE_GENERATION", completion.get("result"));
        assertEquals(-3, ((Number) completion.get("result_code")).intValue());

        final CliRun binary = saccade("query", "--generation", Long.toString(stale));
        assertEquals(ExitCodes.REQUEST_REJECTED, binary.exitCode, binary.toString());
        final CompletionFlyweight c = new CompletionFlyweight().wrap(BytesStore.wrap(binary.stdout), 0);
        assertEquals(ResultCode.STALE_GENERATION, c.result());
        assertEquals(CompletionFlyweight.LENGTH, binary.stdout.length);
    }

    @Test
    void observeAfterTheCurrentGenerationWithoutWaitTimesOutAtOnce() {
        final CliRun run = saccade("observe", "--after-generation", Long.toString(generation), "--json");

        assertEquals(ExitCodes.REQUEST_REJECTED, run.exitCode, run.toString());
        assertEquals("TIMEOUT", Json.object(run.stdout).get("result"));
        assertTrue(run.err.startsWith("saccade: observe rejected: TIMEOUT (-11): no generation newer than "
            + generation + " within 0 ms"), run.err);
    }

    @Test
    void observeAfterAnOlderGenerationAnswersAtOnce() {
        final Map<String, Object> completion =
            json("observe", "--after-generation", Long.toString(generation - 1), "--wait-ms", "10000");

        assertEquals(Long.toString(generation), Json.field(completion, "generation").get("generation"));
    }

    @Test
    void waitReturnsTheGenerationPublishedAfterTheGivenOne() throws Exception {
        final CompletableFuture<CliRun> wait = CompletableFuture.supplyAsync(() ->
            saccade("wait", "--after-generation", Long.toString(generation), "--wait-ms", "20000", "--json"));

        final long next = owner.publishDialog(); // before or after the read parks: either way it answers

        final CliRun run = wait.get(25, TimeUnit.SECONDS);
        assertEquals(ExitCodes.SUCCESS, run.exitCode, run.toString());
        assertEquals(generation + 1, next);
        assertEquals(Long.toString(next), Json.field(Json.object(run.stdout), "generation").get("generation"));
    }

    @Test
    void waitWithoutAGenerationReturnsOneNewerThanTheCurrent() throws Exception {
        final AtomicBoolean waiting = new AtomicBoolean(true);
        final CompletableFuture<CliRun> wait = CompletableFuture.supplyAsync(() -> {
            try {
                return saccade("wait", "--wait-ms", "20000", "--json");
            } finally {
                waiting.set(false);
            }
        });
        // The command learns the current generation first, so keep publishing until it has
        // seen a newer one: the test cannot know when its probe ran.
        while (waiting.get()) {
            SyntheticScene.publish(owner.store, 3, 8, 3);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }

        final CliRun run = wait.get(25, TimeUnit.SECONDS);
        assertEquals(ExitCodes.SUCCESS, run.exitCode, run.toString());
        final Map<String, Object> completion = Json.object(run.stdout);
        assertTrue(Long.parseLong((String) Json.field(completion, "generation").get("generation")) > generation,
            run.toString());
        assertEquals(3, Json.targetIds(completion).size(), "the synthetic scene");
    }

    @Test
    void waitWithoutANewerGenerationPrintsTimeoutAndExitsFour() {
        final long startNs = System.nanoTime();

        final CliRun run = saccade("wait", "--wait-ms", "300", "--json");

        assertEquals(ExitCodes.REQUEST_REJECTED, run.exitCode, run.toString());
        assertTrue(System.nanoTime() - startNs >= TimeUnit.MILLISECONDS.toNanos(300), "the service waited");
        final Map<String, Object> completion = Json.object(run.stdout);
        assertEquals("TIMEOUT", completion.get("result"));
        assertEquals("saccade: wait rejected: TIMEOUT (-11): no generation newer than " + generation
            + " within 300 ms\n", run.err);

        final CliRun binary = saccade("wait", "--wait-ms", "0");
        assertEquals(ExitCodes.REQUEST_REJECTED, binary.exitCode, binary.toString());
        assertEquals(ResultCode.TIMEOUT, new CompletionFlyweight().wrap(BytesStore.wrap(binary.stdout), 0).result());
    }

    @Test
    void activeWindowScopeNamingAnotherWindowIsRejected() {
        final CliRun run = saccade("observe", "--scope", "active-window", "--scope-id", "9");

        assertEquals(ExitCodes.REQUEST_REJECTED, run.exitCode, run.toString());
        assertEquals("saccade: observe rejected: TARGET_NOT_FOUND (-4)\n", run.err);
        assertEquals(CompletionValidator.VALID, new CompletionValidator().validate(
            BytesStore.wrap(run.stdout), 0, run.stdout.length, AgentAbi.OBSERVE_COMPLETION));
    }

    @Test
    void noServiceAtThePathIsAConnectionFailure() throws Exception {
        final Path nowhere = dir.resolve("nobody-listens.sock");

        final CliRun run = CliRun.run("observe", "--endpoint", nowhere.toString(), "--json");

        assertEquals(ExitCodes.CONNECTION_FAILED, run.exitCode, run.toString());
        assertEquals(0, run.stdout.length);
        assertTrue(run.err.startsWith("saccade: Saccade is not running at " + nowhere), run.err);
        assertTrue(run.err.contains("saccade up"), run.err);
        assertTrue(run.err.contains("saccade owner run"), run.err);
        assertEquals(1, run.err.lines().count(), "one line, no stack trace: " + run.err);
    }

    @Test
    void aStaleSocketFileIsAConnectionFailure() throws Exception {
        owner.stop();
        owner = InProcessOwner.start(dir.resolve("other.sock"));
        Files.deleteIfExists(socket);
        try (AFUNIXServerSocket leftover = AFUNIXServerSocket.newInstance()) {
            leftover.setDeleteOnClose(false);
            leftover.bind(AFUNIXSocketAddress.of(socket));
        } // closed: the file stays, nothing listens
        assertTrue(Files.exists(socket, LinkOption.NOFOLLOW_LINKS));

        final CliRun run = saccade("query", "--role", "button");

        assertEquals(ExitCodes.CONNECTION_FAILED, run.exitCode, run.toString());
        assertTrue(run.err.startsWith("saccade: Saccade is not running at " + socket + " (connection refused"),
            run.err);
        assertEquals(1, run.err.lines().count(), run.err);
    }

    private void awaitGenerationAbove(final long previous) {
        Await.value(() -> Long.parseLong((String) Json.field(Json.object(
                saccade("observe", "--max-targets", "1", "--json").stdout), "generation").get("generation")),
            current -> current > previous, Duration.ofSeconds(5), Duration.ofMillis(5),
            current -> "the owner to adopt the new scene: a generation above " + previous + "; last " + current);
    }
}
