package dev.saccade.mcp;

import dev.saccade.jsonrpc.JsonLineWriter;
import dev.saccade.jsonrpc.JsonNode;
import dev.saccade.jsonrpc.JsonRpcEnvelope;

/**
 * MCP 2026-07-28 (mcp.md §13, §14): no handshake and no session. Every request carries its
 * protocol version and the client's capabilities in {@code params._meta} and is checked on its
 * own; {@code server/discover} tells the versions, capabilities and identity; every result ends
 * with {@code "resultType":"complete"} and the server's identity in its {@code _meta}. The tools
 * are the same {@link ToolCall} the handshake era calls.
 */
final class StatelessEra implements Era {
    static final String PROTOCOL_VERSION = "2026-07-28";
    static final String PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
    static final String CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
    static final String SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";
    /** The revision's UnsupportedProtocolVersion error code. */
    static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;
    /**
     * How long a client may keep discover's and tools/list's answers (ttlMs): they cannot change
     * while this process lives, and a client that starts another version gets another serverInfo.
     */
    static final long CACHE_TTL_MS = 3_600_000;
    static final String INVALID_META = "Invalid _meta: " + PROTOCOL_VERSION_KEY + " (a string) and "
        + CLIENT_CAPABILITIES_KEY + " (an object) are required on every request";
    static final String INITIALIZE_REFUSED = "Method not found: this process speaks " + PROTOCOL_VERSION
        + "; initialize (2025-06-18, 2025-11-25) needs a new process";

    private final JsonLineWriter writer;
    private final String version;
    private final ToolCall tools;
    private final JsonLineWriter data = new JsonLineWriter();
    private String toolList;
    private boolean chosen;

    StatelessEra(final JsonLineWriter writer, final String version, final ToolCall tools) {
        this.writer = writer;
        this.version = version;
        this.tools = tools;
    }

    /**
     * Whether a request is this era's to answer while no era is chosen (mcp §12): server/discover,
     * or any request whose {@code params._meta} names a protocol version.
     */
    static boolean claims(final String method, final JsonNode params) {
        if ("server/discover".equals(method)) {
            return true;
        }
        final JsonNode meta = params == null ? null : params.get("_meta");
        return meta != null && meta.get(PROTOCOL_VERSION_KEY) != null;
    }

    @Override
    public boolean answer(final JsonNode id, final String method, final JsonNode params) {
        if ("initialize".equals(method)) {
            return error(id, McpServer.METHOD_NOT_FOUND, INITIALIZE_REFUSED, null);
        }
        final JsonNode meta = params == null ? null : params.get("_meta");
        final JsonNode requested = meta == null ? null : meta.get(PROTOCOL_VERSION_KEY);
        final JsonNode capabilities = meta == null ? null : meta.get(CLIENT_CAPABILITIES_KEY);
        if (requested == null || !requested.isString() || capabilities == null || !capabilities.isObject()) {
            return error(id, McpServer.INVALID_PARAMS, INVALID_META, null);
        }
        if (!PROTOCOL_VERSION.equals(requested.text)) {
            data.reset().startObject().name("supported");
            supportedVersions(data);
            data.name("requested").string(requested.text).endObject();
            return error(id, UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version", data.toString());
        }
        if ("server/discover".equals(method)) {
            // The stdio probe of a client that speaks both eras: answered without choosing one.
            JsonRpcEnvelope.startResult(writer, id);
            writer.startObject().name("supportedVersions");
            supportedVersions(writer);
            writer.name("capabilities").startObject().name("tools").startObject().endObject().endObject()
                .name("ttlMs").number(CACHE_TTL_MS).name("cacheScope").string("public")
                .endObject();
            return complete();
        }
        chosen = true;
        if ("tools/list".equals(method)) {
            if (toolList == null) {
                toolList = ToolCatalog.render(true);
            }
            JsonRpcEnvelope.startResult(writer, id);
            writer.raw(toolList);
            return complete();
        }
        if (!"tools/call".equals(method)) {
            return error(id, McpServer.METHOD_NOT_FOUND, "Method not found", null);
        }
        return !tools.call(id, params) || complete();
    }

    /** Whether a request other than server/discover passed the envelope: the era is chosen (mcp §12). */
    boolean chosen() {
        return chosen;
    }

    @Override
    public String protocolVersion() {
        return PROTOCOL_VERSION;
    }

    /**
     * This era's version first; while no era is chosen the process can still be initialized, so
     * the handshake era's versions follow.
     */
    private void supportedVersions(final JsonLineWriter w) {
        w.startArray().string(PROTOCOL_VERSION);
        if (!chosen) {
            for (int i = HandshakeEra.PROTOCOL_VERSIONS.length - 1; i >= 0; i--) {
                w.string(HandshakeEra.PROTOCOL_VERSIONS[i]);
            }
        }
        w.endArray();
    }

    /** Adds resultType and the result's _meta to the result object just written, and closes the response. */
    private boolean complete() {
        writer.reopenObject()
            .name("resultType").string("complete")
            .name("_meta").startObject()
            .name(SERVER_INFO_KEY).startObject().name("name").string("saccade").name("version").string(version)
            .endObject()
            .endObject()
            .endObject();
        writer.endObject();
        return true;
    }

    private boolean error(final JsonNode id, final int code, final String message, final String errorData) {
        JsonRpcEnvelope.error(writer, id, code, message, errorData);
        return true;
    }
}
