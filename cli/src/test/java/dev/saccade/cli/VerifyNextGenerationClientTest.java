package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.ActionBatchBuilder;
import dev.saccade.client.BatchVerifier;
import dev.saccade.protocol.ActionBatchFlyweight;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.ActionResultFlyweight;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.CompletionValidator;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.HeaderFlyweight;
import dev.saccade.protocol.HelloRequestFlyweight;
import dev.saccade.protocol.ObserveRequestFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetFlyweight;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client's half of VERIFY_NEXT_GENERATION (spec §5.12, conformance case 34's client part)
 * against a scripted service, which answers the batch <em>pending</em> and then each
 * verification observe as the test says: a newer generation patches the kept completion OK,
 * TIMEOUTs are asked again until the deadline, another error is patched in, a lost connection
 * becomes CANCELLED (D9), and the batch is never sent twice.
 */
@Timeout(30)
class VerifyNextGenerationClientTest {
    static final long VALIDATED = 42;
    private static final long NEXT = 43;

    @TempDir
    Path dir;

    /** Runs {@code args} (after the command name and endpoint) against {@code script}; returns run and frames. */
    private Result run(final ScriptedService.Script script, final String command, final String... args)
        throws Exception {
        final Path socket = dir.resolve("scripted.sock");
        final ScriptedService service = ScriptedService.start(socket, script);
        final CliRun run;
        try {
            run = CliRun.atEndpoint(socket, command, args);
        } finally {
            service.stop();
        }
        return new Result(run, service.received());
    }

    private Result act(final ScriptedService.Script script, final String... options) throws Exception {
        final String[] args = new String[options.length + 4];
        args[0] = "click";
        args[1] = "--target";
        args[2] = "5";
        args[3] = "--verify";
        System.arraycopy(options, 0, args, 4, options.length);
        return run(script, "act", args);
    }

    private record Result(CliRun run, List<byte[]> frames) {
        ActionCompletionFlyweight completion() {
            assertEquals(CompletionValidator.VALID, new CompletionValidator().validate(BytesStore.wrap(run.stdout), 0,
                run.stdout.length, AgentAbi.ACTION_COMPLETION), run.toString());
            return new ActionCompletionFlyweight().wrap(BytesStore.wrap(run.stdout), 0);
        }

        /** Request frames by kind, Hello excluded. */
        long count(final int kind) {
            return frames.stream().skip(1)
                .filter(f -> BytesStore.wrap(f).readInt(HeaderFlyweight.MESSAGE_KIND_OFFSET) == kind).count();
        }
    }

    /** The pending answer of §5.12 to a one-click batch: TIMEOUT, completed 1, no failed action, no flag. */
    static byte[] pending(final byte[] batch) {
        final long requestId = new ActionBatchFlyweight().wrap(BytesStore.wrap(batch), 0).requestId();
        final int length = ActionCompletionFlyweight.LENGTH + ActionResultFlyweight.LENGTH;
        final byte[] bytes = new byte[length];
        final BytesStore<?, byte[]> store = BytesStore.wrap(bytes);
        final ActionCompletionFlyweight c = new ActionCompletionFlyweight().wrap(store, 0);
        c.header().set(ActionCompletionFlyweight.LENGTH, AgentAbi.ACTION_COMPLETION, 0);
        c.requestId(requestId).result(ResultCode.TIMEOUT).platformError(ResultCode.PLATFORM_TIMEOUT)
            .completedActionCount(1).failedActionIndex(AgentAbi.NO_FAILED_ACTION).actionResultCount(1)
            .actionResultStride(ActionResultFlyweight.LENGTH).actionResultsOffset(ActionCompletionFlyweight.LENGTH)
            .totalSize(length).validatedGeneration(VALIDATED);
        c.physicalState().physicalSequence(1).permissionEpoch(1);
        new ActionResultFlyweight().wrap(store, ActionCompletionFlyweight.LENGTH).actionIndex(0)
            .kind(ActionKind.CLICK).result(ResultCode.OK).resolvedTargetId(5).validatedGeneration(VALIDATED);
        return bytes;
    }

    /** An observe completion without targets answering {@code observe} with {@code result}. */
    static byte[] observed(final byte[] observe, final int result, final long generation) {
        final long requestId = new ObserveRequestFlyweight().wrap(BytesStore.wrap(observe), 0).requestId();
        final byte[] bytes = new byte[CompletionFlyweight.LENGTH];
        final CompletionFlyweight c = new CompletionFlyweight().wrap(BytesStore.wrap(bytes), 0);
        c.header().set(CompletionFlyweight.LENGTH, AgentAbi.OBSERVE_COMPLETION, 0);
        c.requestId(requestId).result(result).platformError(ResultCode.platformErrorFor(result))
            .grantedCapabilityBits(Capability.POLICY).targetStride(TargetFlyweight.LENGTH)
            .targetsOffset(CompletionFlyweight.LENGTH).totalSize(CompletionFlyweight.LENGTH);
        if (result == ResultCode.OK) {
            c.generation().generation(generation).sceneEpoch(generation).frameId(430).captureTimeNs(431)
                .processId(4242).windowId(7).displayId(1).transformEpoch(432).topologyEpoch(433).permissionEpoch(434);
        }
        return bytes;
    }

    /** The service's wait for AFTER_GENERATION: the observe's timeout_ns, then TIMEOUT. */
    private static byte[] timedOut(final byte[] observe) {
        LockSupport.parkNanos(new ObserveRequestFlyweight().wrap(BytesStore.wrap(observe), 0).freshness().timeoutNs());
        return observed(observe, ResultCode.TIMEOUT, 0);
    }

    @Test
    void aNewerGenerationPatchesThePendingCompletionOk() throws Exception {
        final long beforeNs = System.nanoTime();
        final Result r = act((i, request) -> i == 0 ? pending(request)
            : i == 1 ? observed(request, ResultCode.OK, NEXT) : timedOut(request), "--deadline-ms", "4000");

        assertEquals(ExitCodes.SUCCESS, r.run().exitCode, r.run().toString());
        assertEquals("", r.run().err);
        final ActionCompletionFlyweight c = r.completion();
        assertEquals(ResultCode.OK, c.result());
        assertEquals(0, c.platformError());
        assertEquals(AgentAbi.FLAG_NEXT_GENERATION_AVAILABLE, c.header().flags());
        assertEquals(NEXT, c.nextGeneration().generation());
        assertEquals(430, c.nextGeneration().frameId(), "the observed generation, whole");
        assertEquals(434, c.nextGeneration().permissionEpoch());
        assertEquals(1, c.completedActionCount());
        assertEquals(AgentAbi.NO_FAILED_ACTION, c.failedActionIndex());
        assertEquals(VALIDATED, c.validatedGeneration());
        assertEquals(1, c.actionResultCount(), "the kept rows");
        assertEquals(1, c.physicalState().physicalSequence(), "the kept physical state");

        assertEquals(Capability.POINTER | Capability.OBSERVE,
            new HelloRequestFlyweight().wrap(BytesStore.wrap(r.frames().get(0)), 0).requestedCapabilityBits(),
            "Hello asked for OBSERVE to verify");
        assertEquals(1, r.count(AgentAbi.ACTION_BATCH), "sent once");
        assertEquals(2, r.count(AgentAbi.OBSERVE_REQUEST), "the verifying read and the settling read");
        final byte[] batch = r.frames().get(1);
        assertEquals(AgentAbi.FLAG_VERIFY_NEXT_GENERATION,
            new ActionBatchFlyweight().wrap(BytesStore.wrap(batch), 0).header().flags());
        final long deadlineNs = new ActionBatchFlyweight().wrap(BytesStore.wrap(batch), 0).deadlineNs();

        final ObserveRequestFlyweight o = new ObserveRequestFlyweight().wrap(BytesStore.wrap(r.frames().get(2)), 0);
        assertEquals(ObserveRequestFlyweight.LENGTH, r.frames().get(2).length);
        assertEquals(ActCommand.REQUEST_ID, o.requestId(), "the batch's request_id");
        assertEquals(ScopeKind.DESKTOP, o.scope().kind());
        assertEquals(SourceMode.FUSED, o.scope().sourceMode());
        assertEquals(FreshnessPolicy.AFTER_GENERATION, o.freshness().policy());
        assertEquals(0, o.freshness().flags());
        assertEquals(VALIDATED, o.freshness().afterGeneration());
        assertEquals(1, o.maximumTargets());
        assertEquals(TargetFlyweight.LENGTH, o.targetStride());
        assertEquals(AgentAbi.MAX_MESSAGE_BYTES, o.totalCapacity());
        assertEquals(Capability.OBSERVE, o.requestedCapabilityBits());
        assertTrue(o.freshness().timeoutNs() > 0 && o.freshness().timeoutNs() <= deadlineNs - beforeNs,
            "timeout = deadline - now: " + o.freshness().timeoutNs());
    }

    @Test
    void timeoutsAreAskedAgainUntilANewerGeneration() throws Exception {
        final Result r = act((i, request) -> {
            switch (i) {
                case 0: return pending(request);
                case 1: case 2: return observed(request, ResultCode.TIMEOUT, 0); // the service's wait ended early
                case 3: return observed(request, ResultCode.OK, NEXT);
                default: return timedOut(request);
            }
        });

        assertEquals(ExitCodes.SUCCESS, r.run().exitCode, r.run().toString());
        assertEquals(NEXT, r.completion().nextGeneration().generation());
        assertEquals(1, r.count(AgentAbi.ACTION_BATCH));
        assertEquals(4, r.count(AgentAbi.OBSERVE_REQUEST), "three to find the next generation, one quiet settle window");
    }

    @Test
    void theNextGenerationIsTheSceneOnceItStayedQuietForTheSettleWindow() throws Exception {
        // The application reacts in three generations (43, 44, 45) and then stays quiet.
        final Result r = act((i, request) -> i == 0 ? pending(request)
            : i <= 3 ? observed(request, ResultCode.OK, NEXT + i - 1) : timedOut(request), "--deadline-ms", "4000");

        assertEquals(ExitCodes.SUCCESS, r.run().exitCode, r.run().toString());
        assertEquals(NEXT + 2, r.completion().nextGeneration().generation(), "the settled generation, not the first");
        assertEquals(ResultCode.OK, r.completion().result());
        assertEquals(1, r.count(AgentAbi.ACTION_BATCH), "sent once");
        assertEquals(4, r.count(AgentAbi.OBSERVE_REQUEST), "one to verify, three to settle");
        final long[] after = new long[3];
        for (int k = 0; k < 3; k++) {
            final ObserveRequestFlyweight o = new ObserveRequestFlyweight().wrap(BytesStore.wrap(r.frames().get(3 + k)), 0);
            after[k] = o.freshness().afterGeneration();
            assertTrue(o.freshness().timeoutNs() <= TimeUnit.MILLISECONDS.toNanos(BatchVerifier.SETTLE_DEFAULT_MS),
                "a settling read waits at most the settle window: " + o.freshness().timeoutNs());
        }
        assertArrayEquals(new long[] {NEXT, NEXT + 1, NEXT + 2}, after,
            "each settling read asks for a generation after the newest seen");
    }

    @Test
    void aSceneThatNeverSettlesGivesTheNewestGenerationAtTheDeadline() throws Exception {
        final long startNs = System.nanoTime();
        final long[] generation = {NEXT};
        final Result r = act((i, request) -> i == 0 ? pending(request)
            : observed(request, ResultCode.OK, generation[0]++), "--deadline-ms", "500");

        assertEquals(ExitCodes.SUCCESS, r.run().exitCode, r.run().toString());
        assertEquals(generation[0] - 1, r.completion().nextGeneration().generation(), "the newest seen");
        assertTrue(System.nanoTime() - startNs >= TimeUnit.MILLISECONDS.toNanos(500), "bounded by the deadline, reached");
    }

    @Test
    void noNewerGenerationByTheDeadlineStaysTimeout() throws Exception {
        final long startNs = System.nanoTime();
        final Result r = act((i, request) -> i == 0 ? pending(request) : timedOut(request), "--deadline-ms", "300");

        assertEquals(ExitCodes.REQUEST_REJECTED, r.run().exitCode, r.run().toString());
        assertTrue(System.nanoTime() - startNs >= TimeUnit.MILLISECONDS.toNanos(300));
        assertEquals("saccade: act rejected: TIMEOUT (-11): the actions ran, but no generation newer than 42 appeared"
            + " before the deadline\n", r.run().err);
        final ActionCompletionFlyweight c = r.completion();
        assertEquals(ResultCode.TIMEOUT, c.result());
        assertEquals(0, c.header().flags());
        assertEquals(1, c.completedActionCount());
        assertEquals(1, r.count(AgentAbi.ACTION_BATCH), "never resent");
    }

    @Test
    void anotherErrorIsPatchedIntoTheCompletion() throws Exception {
        final Result r = act((i, request) -> i == 0 ? pending(request) : observed(request, ResultCode.BACKEND, 0),
            "--json");

        assertEquals(ExitCodes.REQUEST_REJECTED, r.run().exitCode, r.run().toString());
        assertEquals("saccade: act rejected: BACKEND (-14): the actions ran, but the observe that verifies the next"
            + " generation answered BACKEND (-14)\n", r.run().err);
        final var json = Json.object(r.run().stdout);
        assertEquals("BACKEND", json.get("result"));
        assertEquals(ResultCode.PLATFORM_BACKEND, ((Number) json.get("platform_error")).intValue());
        assertEquals(1, ((Number) json.get("completed_action_count")).intValue());
    }

    @Test
    void aConnectionLostWhileVerifyingIsCancelled() throws Exception {
        final Result r = act((i, request) -> i == 0 ? pending(request) : null);

        assertEquals(ExitCodes.REQUEST_REJECTED, r.run().exitCode, r.run().toString());
        assertTrue(r.run().err.startsWith("saccade: act rejected: CANCELLED (-12): the actions ran and are not sent"
            + " again, but the connection was lost while verifying the next generation: the service at "), r.run().err);
        assertEquals(1, r.run().err.lines().count());
        final ActionCompletionFlyweight c = r.completion();
        assertEquals(ResultCode.CANCELLED, c.result());
        assertEquals(ResultCode.PLATFORM_CANCELLED, c.platformError());
        assertEquals(1, c.completedActionCount(), "the caller learns the actions ran");
        assertEquals(1, r.count(AgentAbi.ACTION_BATCH));
    }

    @Test
    void answersThatAreNotPendingAreNotVerified() throws Exception {
        final Result available = act((i, request) -> {
            if (i != 0) {
                return timedOut(request);
            }
            final byte[] reply = pending(request);
            final ActionCompletionFlyweight c = new ActionCompletionFlyweight().wrap(BytesStore.wrap(reply), 0);
            c.result(ResultCode.OK).platformError(0).header().flags(AgentAbi.FLAG_NEXT_GENERATION_AVAILABLE);
            c.nextGeneration().generation(NEXT);
            return reply;
        });
        assertEquals(ExitCodes.SUCCESS, available.run().exitCode, available.run().toString());
        assertEquals(1, available.count(AgentAbi.OBSERVE_REQUEST), "the service found it; one read lets it settle");
        assertEquals(NEXT, new ObserveRequestFlyweight().wrap(BytesStore.wrap(available.frames().get(2)), 0)
            .freshness().afterGeneration(), "settling after the service's next generation");
        assertEquals(NEXT, available.completion().nextGeneration().generation());

        final Result failed = act((i, request) -> {
            final byte[] reply = pending(request);
            new ActionCompletionFlyweight().wrap(BytesStore.wrap(reply), 0).completedActionCount(0).failedActionIndex(0);
            new ActionResultFlyweight().wrap(BytesStore.wrap(reply), ActionCompletionFlyweight.LENGTH)
                .result(ResultCode.TIMEOUT).platformError(ResultCode.PLATFORM_TIMEOUT);
            return reply;
        });
        assertEquals(ExitCodes.REQUEST_REJECTED, failed.run().exitCode, failed.run().toString());
        assertEquals("saccade: act rejected: TIMEOUT (-11); action 0 (CLICK) failed: TIMEOUT (-11)\n", failed.run().err);
        assertEquals(0, failed.count(AgentAbi.OBSERVE_REQUEST), "a deadline reached while acting is final");
    }

    @Test
    void aVerifiedBatchFileIsVerifiedToo() throws Exception {
        final ActionBatchBuilder builder = new ActionBatchBuilder().requestId(99).kind(ActionKind.CLICK).target(5)
            .button(Button.LEFT).repeat(1).verify(true).deadlineNs(System.nanoTime() + TimeUnit.SECONDS.toNanos(20));
        final BytesStore<?, byte[]> store = BytesStore.wrap(new byte[ActionBatchBuilder.MAX_LENGTH]);
        final Path file = Files.write(dir.resolve("verify.bin"),
            Arrays.copyOf(store.underlyingObject(), builder.writeTo(store, 0)));

        final Result r = run((i, request) -> i == 0 ? pending(request)
            : i == 1 ? observed(request, ResultCode.OK, NEXT) : timedOut(request), "batch", file.toString(), "--json");

        assertEquals(ExitCodes.SUCCESS, r.run().exitCode, r.run().toString());
        final var json = Json.object(r.run().stdout);
        assertEquals("99", json.get("request_id"));
        assertEquals(Long.toString(NEXT), Json.field(json, "next_generation").get("generation"));
        assertEquals(Capability.POINTER | Capability.OBSERVE,
            new HelloRequestFlyweight().wrap(BytesStore.wrap(r.frames().get(0)), 0).requestedCapabilityBits());
        assertEquals(99, new ObserveRequestFlyweight().wrap(BytesStore.wrap(r.frames().get(2)), 0).requestId());
    }

    @Test
    void aReplyToAnotherBatchIsAProtocolError() throws Exception {
        final Result r = act((i, request) -> {
            final byte[] reply = pending(request);
            new ActionCompletionFlyweight().wrap(BytesStore.wrap(reply), 0).requestId(12345);
            return reply;
        });

        assertEquals(ExitCodes.PROTOCOL, r.run().exitCode, r.run().toString());
        assertTrue(r.run().err.contains("answered request_id 12345 to batch " + ActCommand.REQUEST_ID), r.run().err);
        assertEquals(0, r.run().stdout.length);
    }
}
