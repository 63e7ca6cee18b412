package dev.saccade.mcp;

import dev.saccade.jsonrpc.JsonLineWriter;
import dev.saccade.jsonrpc.JsonNode;
import dev.saccade.jsonrpc.JsonRpcEnvelope;

/**
 * MCP 2025-06-18 and 2025-11-25 (mcp.md §2 rows 6 to 13, §3): {@code initialize} negotiates the
 * version and marks the process initialized, after which {@code ping}, {@code tools/list} and
 * {@code tools/call} are served. Results carry no member of their own beyond the tool's result.
 * Its bytes are those upstream Saccade's MCP hosts were written against: they do not change.
 */
final class HandshakeEra implements Era {
    /** The protocol versions of this era; the first is the answer to any other (M1). */
    static final String[] PROTOCOL_VERSIONS = {"2025-06-18", "2025-11-25"};
    static final int NOT_INITIALIZED = -32002;

    private final JsonLineWriter writer;
    private final String version;
    private final ToolCall tools;
    private String toolList;
    private String negotiated = PROTOCOL_VERSIONS[0];
    private boolean initialized;

    HandshakeEra(final JsonLineWriter writer, final String version, final ToolCall tools) {
        this.writer = writer;
        this.version = version;
        this.tools = tools;
    }

    @Override
    public boolean answer(final JsonNode id, final String method, final JsonNode params) {
        if ("initialize".equals(method)) {
            initialized = true;
            final JsonNode requested = params == null ? null : params.get("protocolVersion");
            negotiated = PROTOCOL_VERSIONS[0];
            for (final String v : PROTOCOL_VERSIONS) {
                if (requested != null && requested.isString() && v.equals(requested.text)) {
                    negotiated = v;
                }
            }
            JsonRpcEnvelope.startResult(writer, id);
            writer.startObject()
                .name("protocolVersion").string(negotiated)
                .name("capabilities").startObject().name("tools").startObject().endObject().endObject()
                .name("serverInfo").startObject().name("name").string("saccade").name("version").string(version)
                .endObject()
                .endObject();
            return end();
        }
        if (!initialized) {
            return error(id, NOT_INITIALIZED, "Server is not initialized");
        }
        if ("ping".equals(method)) {
            JsonRpcEnvelope.startResult(writer, id);
            writer.startObject().endObject();
            return end();
        }
        if ("tools/list".equals(method)) {
            if (toolList == null) {
                toolList = ToolCatalog.render(false);
            }
            JsonRpcEnvelope.startResult(writer, id);
            writer.raw(toolList);
            return end();
        }
        if (!"tools/call".equals(method)) {
            return error(id, McpServer.METHOD_NOT_FOUND, "Method not found");
        }
        return !tools.call(id, params) || end();
    }

    /** Whether an {@code initialize} was answered: the era is chosen (mcp §12). */
    boolean initialized() {
        return initialized;
    }

    @Override
    public String protocolVersion() {
        return negotiated;
    }

    private boolean end() {
        writer.endObject();
        return true;
    }

    private boolean error(final JsonNode id, final int code, final String message) {
        JsonRpcEnvelope.error(writer, id, code, message);
        return true;
    }
}
