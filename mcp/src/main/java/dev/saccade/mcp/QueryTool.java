package dev.saccade.mcp;

import dev.saccade.client.AbiNames;
import dev.saccade.client.QueryRequestBuilder;
import dev.saccade.client.ReadFreshness;
import dev.saccade.client.ReadScope;
import dev.saccade.jsonrpc.JsonLineWriter;
import dev.saccade.protocol.AgentAbi;

/**
 * {@code saccade_query} (mcp.md §6): the arguments become a QueryRequest with exactly one
 * filter through {@link QueryRequestBuilder}, the builder of {@code saccade query}.
 */
final class QueryTool implements Tool {
    static final String NAME = "saccade_query";
    static final long REQUEST_ID = 3;
    static final String[] TEXT_MATCHES = AbiNames.TEXT_MATCHES.words().toArray(new String[0]);
    static final long MAX_U16 = 65_535;

    private final ReadCall call;
    private QueryRequestBuilder request;
    private long waitNs;
    private int textBytes;

    QueryTool(final ReadCall call) {
        this.call = call;
    }

    @Override
    public String prepare(final ToolArguments a) {
        // A fresh builder per call: its filter conditions accumulate and cannot be unset.
        final QueryRequestBuilder q = new QueryRequestBuilder().requestId(REQUEST_ID).alwaysOneFilter(true)
            .maximumResults(ObserveTool.DEFAULT_MAXIMUM);
        final ReadScope scope = ScopeArguments.parse(a);
        if (scope == null) {
            return "Invalid query scope";
        }
        q.scope(scope);
        int status = a.u64("generation");
        if (status == ToolArguments.INVALID) {
            return "Invalid query integer";
        }
        final boolean pinned = status == ToolArguments.PRESENT;
        if (pinned) {
            q.generation(a.value());
        }
        status = a.u64("targetId");
        if (status == ToolArguments.INVALID) {
            return "Invalid query integer";
        }
        if (status == ToolArguments.PRESENT) {
            q.stableId(a.value());
        }
        status = a.u64("afterGeneration");
        if (status == ToolArguments.INVALID || (status == ToolArguments.PRESENT && pinned)) {
            return "Invalid afterGeneration";
        }
        final ReadFreshness freshness = ObserveTool.freshness(status, a.value());
        q.freshness(freshness);
        status = a.u32("role", MAX_U16);
        if (status == ToolArguments.INVALID) {
            return "Invalid query integer";
        }
        if (status == ToolArguments.PRESENT) {
            q.role((int) a.value());
        }
        status = a.u32("capability");
        if (status == ToolArguments.INVALID) {
            return "Invalid query integer";
        }
        if (status == ToolArguments.PRESENT) {
            q.capabilities((int) a.value(), 0);
        }
        status = a.u32("source", MAX_U16);
        if (status == ToolArguments.INVALID) {
            return "Invalid query integer";
        }
        if (status == ToolArguments.PRESENT) {
            q.sources((int) a.value());
        }
        status = a.u32("minimumConfidenceQ16");
        if (status == ToolArguments.INVALID) {
            return "Invalid query integer";
        }
        if (status == ToolArguments.PRESENT) {
            q.minimumConfidenceQ16(a.value());
        }
        status = a.u64("maximumResults");
        if (status == ToolArguments.INVALID || (status == ToolArguments.PRESENT
            && (a.value() == 0 || Long.compareUnsigned(a.value(), ObserveTool.MAXIMUM) > 0))) {
            return "maximumResults is out of range";
        }
        if (status == ToolArguments.PRESENT) {
            q.maximumResults(a.value());
        }
        status = a.text("text");
        if (status == ToolArguments.INVALID) {
            return "Invalid text";
        }
        if (status == ToolArguments.PRESENT) {
            final byte[] text = a.text();
            final int matchStatus = a.enumeration("textMatch", TEXT_MATCHES);
            if (matchStatus == ToolArguments.INVALID) {
                return "Invalid textMatch";
            }
            q.text(text, matchStatus == ToolArguments.PRESENT ? (int) a.value() + 1 : 1);
        }
        textBytes = SceneText.maximumBytes(a);
        if (textBytes < 0) {
            return SceneText.INVALID_ARGUMENT;
        }
        request = q;
        waitNs = freshness.timeoutNs();
        return null;
    }

    @Override
    public void call(final ServiceConnection service, final JsonLineWriter out) {
        call.run(service, out, request::writeTo, REQUEST_ID, AgentAbi.QUERY_COMPLETION, waitNs, textBytes,
            "Query transport failed", "Query rejected: ");
    }
}
