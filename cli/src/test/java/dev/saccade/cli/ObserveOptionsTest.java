package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.ObserveRequestFlyweight;
import dev.saccade.protocol.RequestValidator;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceMode;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code saccade observe} options to ObserveRequest bytes, read back through the flyweight; usage errors. */
class ObserveOptionsTest {
    private static final int AT = 8;
    private final BytesStore<?, byte[]> store = BytesStore.wrap(new byte[4096]);
    private final ObserveRequestFlyweight request = new ObserveRequestFlyweight();

    private ObserveRequestFlyweight observe(final String... options) {
        final String[] args = new String[options.length + 1];
        args[0] = "observe";
        System.arraycopy(options, 0, args, 1, options.length);
        final int length = CliRun.parsed(ObserveCommand.class, args).request().writeTo(store, AT);
        assertEquals(ObserveRequestFlyweight.LENGTH, length);
        assertEquals(RequestValidator.ACCEPT,
            new RequestValidator().validate(store, AT, length, Capability.POLICY, AgentAbi.MAX_MESSAGE_BYTES, 0),
            "the service's own validator accepts the request");
        return request.wrap(store, AT);
    }

    @Test
    void defaultsReadTheLatestWholeDesktopWithRoomForTheLargestScene() {
        final ObserveRequestFlyweight r = observe();

        assertEquals(ObserveRequestFlyweight.LENGTH, r.header().structSize());
        assertEquals(AgentAbi.API_VERSION, r.header().apiVersion());
        assertEquals(AgentAbi.OBSERVE_REQUEST, r.header().messageKind());
        assertEquals(0, r.header().flags());
        assertEquals(ObserveCommand.REQUEST_ID, r.requestId());
        assertEquals(Capability.OBSERVE, r.requestedCapabilityBits());
        assertEquals(ScopeKind.DESKTOP, r.scope().kind());
        assertEquals(SourceMode.FUSED, r.scope().sourceMode());
        assertEquals(0, r.scope().stableId());
        assertEquals(0, r.scope().rectWidthQ8());
        assertEquals(FreshnessPolicy.LATEST_VALID, r.freshness().policy());
        assertEquals(0, r.freshness().flags());
        assertEquals(0, r.freshness().afterGeneration());
        assertEquals(0, r.freshness().timeoutNs());
        assertEquals(10_000, r.maximumTargets());
        assertEquals(88, r.targetStride());
        assertEquals(1 << 20, r.totalCapacity());
    }

    @Test
    void rectScopeIsConvertedToQ8IncludingDecimals() {
        final ObserveRequestFlyweight r = observe("--scope", "rect", "--rect", "10.5,-20,300,200.25", "--source", "grid");

        assertEquals(ScopeKind.RECT, r.scope().kind());
        assertEquals(SourceMode.GRID, r.scope().sourceMode());
        assertEquals(2688, r.scope().rectXQ8());
        assertEquals(-5120, r.scope().rectYQ8());
        assertEquals(76_800, r.scope().rectWidthQ8());
        assertEquals(51_264, r.scope().rectHeightQ8());
        assertEquals(0, r.scope().stableId());
    }

    @Test
    void scopeIdIsAnUnsignedDecimal() {
        final ObserveRequestFlyweight r =
            observe("--scope", "active-window", "--scope-id", "18446744073709551615", "--source", "pixel");

        assertEquals(ScopeKind.ACTIVE_WINDOW, r.scope().kind());
        assertEquals(SourceMode.PIXEL, r.scope().sourceMode());
        assertEquals(-1L, r.scope().stableId(), "u64 max");
    }

    @Test
    void displayScopeCarriesTheDisplayId() {
        final ObserveRequestFlyweight r = observe("--scope", "display", "--scope-id", "3", "--source", "semantic");

        assertEquals(ScopeKind.DISPLAY, r.scope().kind());
        assertEquals(SourceMode.SEMANTIC, r.scope().sourceMode());
        assertEquals(3, r.scope().stableId());
    }

    @Test
    void afterGenerationWaitsForWaitMsInNanoseconds() {
        final ObserveRequestFlyweight r = observe("--after-generation", "42", "--wait-ms", "1500");

        assertEquals(FreshnessPolicy.AFTER_GENERATION, r.freshness().policy());
        assertEquals(42, r.freshness().afterGeneration());
        assertEquals(1_500_000_000L, r.freshness().timeoutNs());
    }

    @Test
    void afterGenerationWithoutWaitAsksForAnAnswerAtOnce() {
        final ObserveRequestFlyweight r = observe("--after-generation", "42");

        assertEquals(FreshnessPolicy.AFTER_GENERATION, r.freshness().policy());
        assertEquals(0, r.freshness().timeoutNs());
    }

    @Test
    void limitsAreWrittenAsGiven() {
        final ObserveRequestFlyweight r = observe("--max-targets", "5", "--capacity", "4096", "--stride", "96");

        assertEquals(5, r.maximumTargets());
        assertEquals(96, r.targetStride());
        assertEquals(4096, r.totalCapacity());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "--rect 1,2                                  | Invalid value for option '--rect': expected X,Y,W,H",
        "--scope rect --rect 0,0,0,10                | width and height must be positive",
        "--scope rect --rect 0,0,a,10                | W is not a number",
        "--scope nope                                | expected one of desktop, active-window, display, rect, window but was 'nope'",
        "--source nope                               | expected one of fused, pixel, semantic, grid",
        "--scope rect                                | --scope rect needs --rect X,Y,W,H",
        "--rect 0,0,10,10                            | --rect applies only to --scope rect, not desktop",
        "--scope display                             | --scope display needs --scope-id",
        "--scope-id 5                                | --scope-id applies only to --scope active-window, window or display",
        "--scope window                              | --scope window needs --scope-id WINDOW_ID",
        "--scope-id -1 --scope active-window         | expected a decimal number 0..18446744073709551615 but was '-1'",
        "--wait-ms 100                               | --wait-ms needs --after-generation",
        "--after-generation 1 --wait-ms -1           | Invalid value for option '--wait-ms'",
        "--max-targets 0                             | Invalid value for option '--max-targets': expected 1..10000 but was 0",
        "--max-targets 10001                         | expected 1..10000 but was 10001",
        "--capacity 100                              | Invalid value for option '--capacity': expected 168..1048576",
        "--stride 80                                 | Invalid value for option '--stride': expected 88..",
        "--timeout-ms 0                              | Invalid value for option '--timeout-ms': must be at least 1",
        "--no-such-option                            | Unknown option: '--no-such-option'"})
    void badValuesAreUsageErrorsBeforeAnyConnection(final String options, final String message) {
        final String[] args = ("observe --endpoint /nonexistent/agent.sock " + options).split(" ");

        final CliRun run = CliRun.run(args);

        assertEquals(ExitCodes.USAGE, run.exitCode, run.toString());
        assertTrue(run.err.contains(message), run.toString());
        assertTrue(run.err.contains("Usage: saccade observe"), run.toString());
        assertEquals(0, run.stdout.length);
    }

    @Test
    void helpDocumentsOptionsExitCodesAndExamples() {
        final CliRun run = CliRun.run("observe", "--help");

        assertEquals(ExitCodes.SUCCESS, run.exitCode, run.toString());
        for (final String expected : new String[] {
            "--scope=KIND", "desktop, active-window, display, rect", "--scope-id=ID", "--rect=X,Y,W,H",
            "--source=MODE", "--max-targets=N", "--capacity=BYTES", "--after-generation=G", "--wait-ms=MS",
            "answers TIMEOUT at once", "--json", "--endpoint=PATH", "--timeout-ms=MS",
            "Exit codes:", " 4 request rejected", "Examples:",
            "saccade observe --scope active-window --json",
            "saccade query --role button --text OK --match exact --json"}) {
            // Help wraps lines: compare with runs of blanks and line ends as one space.
            assertTrue(run.out.replaceAll("\\s+", " ").contains(expected), expected + " in\n" + run.out);
        }
        assertTrue(!run.out.contains("--stride"), "--stride is hidden");
    }

    @Test
    void rootHelpListsTheClientCommands() {
        final CliRun run = CliRun.run("--help");

        assertTrue(run.out.matches("(?s).*\\n  observe\\s+Print the targets of the current scene.*"), run.out);
        assertTrue(run.out.matches("(?s).*\\n  query\\s+Print the targets that match.*"), run.out);
        assertTrue(run.out.matches("(?s).*\\n  wait\\s+Wait for the next scene generation.*"), run.out);
    }
}
