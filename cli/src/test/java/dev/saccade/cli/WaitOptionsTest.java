package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.ObserveRequestBuilder;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.ObserveRequestFlyweight;
import dev.saccade.protocol.RequestValidator;
import dev.saccade.protocol.ScopeKind;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;

/** {@code saccade wait}: the probe and the wait request it sends; usage errors. */
class WaitOptionsTest {
    private final BytesStore<?, byte[]> store = BytesStore.wrap(new byte[1024]);
    private final ObserveRequestFlyweight request = new ObserveRequestFlyweight();

    private ObserveRequestFlyweight written(final ObserveRequestBuilder builder) {
        final int length = builder.writeTo(store, 0);
        assertEquals(RequestValidator.ACCEPT,
            new RequestValidator().validate(store, 0, length, Capability.POLICY, AgentAbi.MAX_MESSAGE_BYTES, 0));
        return request.wrap(store, 0);
    }

    @Test
    void probeReadsTheLatestSceneWithRoomForOneTarget() {
        final ObserveRequestFlyweight r = written(WaitCommand.probe());

        assertEquals(WaitCommand.PROBE_REQUEST_ID, r.requestId());
        assertEquals(FreshnessPolicy.LATEST_VALID, r.freshness().policy());
        assertEquals(ScopeKind.DESKTOP, r.scope().kind());
        assertEquals(1, r.maximumTargets());
        assertEquals(168 + 88, r.totalCapacity());
    }

    @Test
    void waitDefaultsToThirtySecondsAfterTheGivenGeneration() {
        final WaitCommand wait = CliRun.parsed(WaitCommand.class, "wait", "--scope", "active-window");

        final ObserveRequestFlyweight r = written(wait.request(77));

        assertEquals(WaitCommand.WAIT_REQUEST_ID, r.requestId());
        assertEquals(FreshnessPolicy.AFTER_GENERATION, r.freshness().policy());
        assertEquals(77, r.freshness().afterGeneration());
        assertEquals(30_000_000_000L, r.freshness().timeoutNs());
        assertEquals(ScopeKind.ACTIVE_WINDOW, r.scope().kind());
        assertEquals(10_000, r.maximumTargets());
    }

    @Test
    void waitMsIsTheServiceTimeout() {
        final WaitCommand wait = CliRun.parsed(WaitCommand.class, "wait", "--wait-ms", "0", "--max-targets", "3");

        final ObserveRequestFlyweight r = written(wait.request(1));

        assertEquals(0, r.freshness().timeoutNs());
        assertEquals(3, r.maximumTargets());
    }

    @Test
    void negativeWaitIsAUsageError() {
        final CliRun run = CliRun.run("wait", "--endpoint", "/nonexistent/agent.sock", "--wait-ms", "-5");

        assertEquals(ExitCodes.USAGE, run.exitCode, run.toString());
        assertTrue(run.err.contains("Invalid value for option '--wait-ms': expected 0..2147483647 but was -5"),
            run.toString());
    }

    @Test
    void helpShowsExamples() {
        final CliRun run = CliRun.run("wait", "--help");

        assertEquals(ExitCodes.SUCCESS, run.exitCode);
        assertTrue(run.out.contains("--after-generation=G"), run.out);
        assertTrue(run.out.contains("(default: 30000)"), run.out);
        assertTrue(run.out.contains("Examples:"), run.out);
        assertTrue(run.out.contains("saccade wait --json"), run.out);
    }
}
