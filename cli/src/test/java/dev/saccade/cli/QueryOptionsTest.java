package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.QueryRequestBuilder;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.FilterFlag;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.QueryFilterFlyweight;
import dev.saccade.protocol.QueryRequestFlyweight;
import dev.saccade.protocol.Relation;
import dev.saccade.protocol.RequestValidator;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TextMatch;
import java.nio.charset.StandardCharsets;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code saccade query} options to QueryRequest bytes (one filter, text after it); usage errors. */
class QueryOptionsTest {
    private static final int AT = 16;
    private final BytesStore<?, byte[]> store = BytesStore.wrap(new byte[64 * 1024]);
    private final QueryRequestFlyweight request = new QueryRequestFlyweight();
    private final QueryFilterFlyweight filter = new QueryFilterFlyweight();
    private int length;

    private QueryRequestFlyweight query(final String... options) {
        final String[] args = new String[options.length + 1];
        args[0] = "query";
        System.arraycopy(options, 0, args, 1, options.length);
        length = CliRun.parsed(QueryCommand.class, args).request().writeTo(store, AT);
        assertEquals(RequestValidator.ACCEPT,
            new RequestValidator().validate(store, AT, length, Capability.POLICY, AgentAbi.MAX_MESSAGE_BYTES, 0),
            "the service's own validator accepts the request");
        final QueryRequestFlyweight r = request.wrap(store, AT);
        assertEquals(length, r.totalSize(), "total_size = frame length");
        return r;
    }

    private QueryFilterFlyweight theFilter(final QueryRequestFlyweight r) {
        assertEquals(1, r.filterCount());
        assertEquals(QueryFilterFlyweight.LENGTH, r.filterStride());
        assertEquals(QueryRequestFlyweight.LENGTH, r.filtersOffset(), "filter right after the fixed request");
        return filter.wrap(store, AT + r.filtersOffset());
    }

    @Test
    void withoutConditionsTheRequestHasNoFilter() {
        final QueryRequestFlyweight r = query();

        assertEquals(QueryRequestFlyweight.LENGTH, length);
        assertEquals(QueryRequestFlyweight.LENGTH, r.header().structSize());
        assertEquals(AgentAbi.QUERY_REQUEST, r.header().messageKind());
        assertEquals(AgentAbi.API_VERSION, r.header().apiVersion());
        assertEquals(QueryCommand.REQUEST_ID, r.requestId());
        assertEquals(Capability.OBSERVE, r.requestedCapabilityBits());
        assertEquals(0, r.generation());
        assertEquals(100, r.maximumResults());
        assertEquals(0, r.filterCount());
        assertEquals(QueryFilterFlyweight.LENGTH, r.filterStride(), "the service wants 72 even without filters");
        assertEquals(ScopeKind.DESKTOP, r.scope().kind());
        assertEquals(FreshnessPolicy.LATEST_VALID, r.freshness().policy());
    }

    @Test
    void everyConditionGoesIntoOneFilterWithTheTextRightAfterIt() {
        final QueryRequestFlyweight r = query("--role", "button", "--text", "OK", "--match", "exact", "--id", "77",
            "--require", "click,invoke", "--forbid", "text", "--sources", "accessibility,grid",
            "--within", "1,2,3,4.5", "--min-confidence", "0.5", "--relation", "child", "--related", "99",
            "--generation", "123", "--max-results", "7", "--scope", "active-window");

        final QueryFilterFlyweight f = theFilter(r);
        assertEquals(0xFF, f.flags(), "all eight tests set");
        assertEquals(FilterFlag.STABLE_ID | FilterFlag.ROLE | FilterFlag.TEXT | FilterFlag.CAPABILITY
            | FilterFlag.SOURCE | FilterFlag.GEOMETRY | FilterFlag.CONFIDENCE | FilterFlag.RELATION, f.flags());
        assertEquals(77, f.targetId());
        assertEquals(Role.BUTTON, f.role());
        assertEquals(TextMatch.EXACT, f.textMatch());
        assertEquals(QueryRequestFlyweight.LENGTH + QueryFilterFlyweight.LENGTH, f.textOffset());
        assertEquals(2, f.textSize());
        assertEquals(TargetCapability.CLICK | TargetCapability.INVOKE, f.requiredCapabilityBits());
        assertEquals(TargetCapability.TEXT, f.forbiddenCapabilityBits());
        assertEquals(SourceBit.ACCESSIBILITY | SourceBit.GRID, f.sourceBits());
        assertEquals(256, f.geometryXQ8());
        assertEquals(512, f.geometryYQ8());
        assertEquals(768, f.geometryWidthQ8());
        assertEquals(1152, f.geometryHeightQ8());
        assertEquals(32_768, f.minimumConfidenceQ16());
        assertEquals(Relation.CHILD, f.relation());
        assertEquals(99, f.relationTargetId());
        assertEquals(123, r.generation());
        assertEquals(7, r.maximumResults());
        assertEquals(ScopeKind.ACTIVE_WINDOW, r.scope().kind());
        assertEquals(184 + 2, length);
        assertEquals("OK", text(f));
    }

    @Test
    void onlyTheGivenConditionsAreSetAndTextMatchesSubstringsByDefault() {
        final QueryFilterFlyweight f = theFilter(query("--text", "Größe"));

        assertEquals(FilterFlag.TEXT, f.flags());
        assertEquals(TextMatch.SUBSTRING, f.textMatch());
        assertEquals(7, f.textSize(), "UTF-8 bytes, not chars");
        assertEquals("Größe", text(f));
        assertEquals(184 + 7, length);
        assertEquals(0, f.role());
        assertEquals(0, f.relation());
    }

    @Test
    void repeatedAndAbiSpelledNamesAreAccepted() {
        final QueryFilterFlyweight f = theFilter(query("--role", "TEXT_FIELD", "--require", "click", "--require",
            "Window-Activate"));

        assertEquals(FilterFlag.ROLE | FilterFlag.CAPABILITY, f.flags());
        assertEquals(Role.TEXT_FIELD, f.role());
        assertEquals(TargetCapability.CLICK | TargetCapability.WINDOW_ACTIVATE, f.requiredCapabilityBits());
        assertEquals(0, f.forbiddenCapabilityBits());
        assertEquals(QueryRequestFlyweight.LENGTH + QueryFilterFlyweight.LENGTH, length, "no text: filter ends it");
    }

    @Test
    void forbidAloneRequiresNothing() {
        final QueryFilterFlyweight f = theFilter(query("--forbid", "keyboard,text-select"));

        assertEquals(FilterFlag.CAPABILITY, f.flags());
        assertEquals(0, f.requiredCapabilityBits());
        assertEquals(TargetCapability.KEYBOARD | TargetCapability.TEXT_SELECT, f.forbiddenCapabilityBits());
    }

    @Test
    void confidenceOneIsQ16OneAndZeroStillSetsTheTest() {
        assertEquals(65_536, theFilter(query("--min-confidence", "1")).minimumConfidenceQ16());
        final QueryFilterFlyweight zero = theFilter(query("--min-confidence", "0"));
        assertEquals(FilterFlag.CONFIDENCE, zero.flags());
        assertEquals(0, zero.minimumConfidenceQ16());
    }

    @Test
    void longestTextFitsAndIsPlacedAfterTheFilter() {
        final String longest = "x".repeat(AgentAbi.MAX_TEXT_BYTES);
        final QueryFilterFlyweight f = theFilter(query("--text", longest, "--match", "prefix"));

        assertEquals(AgentAbi.MAX_TEXT_BYTES, f.textSize());
        assertEquals(TextMatch.PREFIX, f.textMatch());
        assertEquals(184 + AgentAbi.MAX_TEXT_BYTES, length);
    }

    @Test
    void waitOptionsSetAfterGeneration() {
        final QueryRequestFlyweight r = query("--after-generation", "9", "--wait-ms", "250");

        assertEquals(FreshnessPolicy.AFTER_GENERATION, r.freshness().policy());
        assertEquals(9, r.freshness().afterGeneration());
        assertEquals(250_000_000L, r.freshness().timeoutNs());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "--role nope                   | Invalid value for option '--role': expected one of button, link, text, text-field, checkbox, radio, menu-item, slider, image, window, list-item, tree-item, tab, menu, menu-bar, combo-box, toggle, spin-button, table-cell, label, dialog, progress-bar, scroll-bar, tool-bar, list, scroll-pane, tab-list, heading, landmark, unknown but was 'nope'",
        "--match exact                 | --match needs --text",
        "--text OK --match fuzzy       | expected one of exact, prefix, substring",
        "--relation child              | --relation needs --related ID",
        "--related 5                   | --related needs --relation RELATION",
        "--relation nearest --related 5 | expected one of self, parent, child, ancestor, descendant, sibling, contains, contained-by",
        "--require click,flying        | expected one of pointer-move, click, scroll, drag-source, drop-target, text, invoke, window-activate, text-select, keyboard but was 'flying'",
        "--require click --forbid click | both in --require and in --forbid: click",
        "--sources radar               | expected one of neural, accessibility, pixel, grid",
        "--min-confidence 1.5          | Invalid value for option '--min-confidence': expected a number from 0 to 1",
        "--min-confidence x            | expected a number from 0 to 1",
        "--within 1,2,3                | Invalid value for option '--within': expected X,Y,W,H",
        "--id abc                      | Invalid value for option '--id': expected a decimal number",
        "--generation -3               | Invalid value for option '--generation'",
        "--max-results 0               | Invalid value for option '--max-results': expected 1..10000 but was 0",
        "--max-results 10001           | expected 1..10000 but was 10001"})
    void badValuesAreUsageErrorsBeforeAnyConnection(final String options, final String message) {
        final String[] args = ("query --endpoint /nonexistent/agent.sock " + options).split(" ");

        final CliRun run = CliRun.run(args);

        assertEquals(ExitCodes.USAGE, run.exitCode, run.toString());
        assertTrue(run.err.contains(message), run.toString());
        assertEquals(0, run.stdout.length);
    }

    @Test
    void emptyAndOversizedTextAreUsageErrors() {
        final CliRun empty = CliRun.run("query", "--endpoint", "/nonexistent/agent.sock", "--text", "");
        assertEquals(ExitCodes.USAGE, empty.exitCode, empty.toString());
        assertTrue(empty.err.contains("Invalid value for option '--text': expected 1..16384 UTF-8 bytes but was 0"),
            empty.toString());

        final CliRun big = CliRun.run("query", "--endpoint", "/nonexistent/agent.sock", "--text",
            "ü".repeat(AgentAbi.MAX_TEXT_BYTES / 2 + 1));
        assertEquals(ExitCodes.USAGE, big.exitCode, big.toString());
        assertTrue(big.err.contains("but was 16386"), big.toString());
    }

    @Test
    void helpListsEveryFilterWithItsValues() {
        final CliRun run = CliRun.run("query", "--help");

        assertEquals(ExitCodes.SUCCESS, run.exitCode);
        for (final String expected : new String[] {
            "--role=ROLE", "text-field", "--text=TEXT", "--match=MODE", "exact, prefix, substring", "--id=ID",
            "--require=CAP", "--forbid=CAP", "window-activate", "--sources=SOURCE", "accessibility",
            "--within=X,Y,W,H", "--min-confidence=0..1", "--relation=RELATION", "contained-by", "--related=ID",
            "--generation=G", "STALE_GENERATION", "--max-results=N", "--after-generation=G", "--wait-ms=MS",
            "Examples:", "saccade query --role button --text OK --match exact --json"}) {
            // Help wraps lines: compare with runs of blanks and line ends as one space.
            assertTrue(run.out.replaceAll("\\s+", " ").contains(expected), expected + " in\n" + run.out);
        }
    }

    private String text(final QueryFilterFlyweight f) {
        final byte[] bytes = new byte[(int) f.textSize()];
        store.read(AT + f.textOffset(), bytes, 0, bytes.length);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Test
    void builderWritesNoFilterBytesWhenNoConditionIsSet() {
        final QueryRequestBuilder builder = new QueryRequestBuilder().requestId(5);
        assertEquals(0, builder.filterFlags());
        final byte[] before = new byte[256];
        java.util.Arrays.fill(before, (byte) 0x5A);
        store.write(0, before);

        assertEquals(QueryRequestFlyweight.LENGTH, builder.writeTo(store, 0));

        final byte[] after = new byte[256 - QueryRequestFlyweight.LENGTH];
        store.read(QueryRequestFlyweight.LENGTH, after, 0, after.length);
        final byte[] untouched = new byte[after.length];
        java.util.Arrays.fill(untouched, (byte) 0x5A);
        assertArrayEquals(untouched, after, "nothing written past total_size");
    }
}
