package dev.saccade.mcp;

import dev.saccade.jsonrpc.JsonRpcEnvelope;
import dev.saccade.jsonrpc.LineReader;
import dev.saccade.jsonrpc.JsonLineWriter;
import dev.saccade.jsonrpc.JsonLineParser;
import dev.saccade.jsonrpc.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * The adapter's loop (mcp.md §1, §2): read a line, dispatch it by the first matching row of the
 * table, write at most one response line, flush; until end of input. One thread; a tool call
 * blocks the next line until its answer is written, so responses keep the order of requests.
 *
 * <p>Exit codes (mcp §1): {@link #EXIT_EOF} at end of input with every complete line answered,
 * {@link #EXIT_INPUT} for a line over the cap or a failed read of standard input,
 * {@link #EXIT_OUTPUT} when writing or flushing standard output fails. {@link #EXIT_CONNECTION}
 * is reserved: a failed connection is a tool result, not an exit.
 */
public final class McpServer {
    public static final int EXIT_EOF = 0;
    public static final int EXIT_CONNECTION = 1;
    public static final int EXIT_INPUT = 2;
    public static final int EXIT_OUTPUT = 3;

    /** The protocol versions this adapter speaks; the first is the answer to any other. */
    static final String[] PROTOCOL_VERSIONS = {"2025-06-18", "2025-11-25"};
    static final String SERVICE_UNAVAILABLE = "Saccade service is unavailable";
    static final String INVALID_SERVICE_RESPONSE = "Invalid service response";

    static final int PARSE_ERROR = JsonRpcEnvelope.PARSE_ERROR;
    static final int INVALID_REQUEST = JsonRpcEnvelope.INVALID_REQUEST;
    static final int METHOD_NOT_FOUND = JsonRpcEnvelope.METHOD_NOT_FOUND;
    static final int INVALID_PARAMS = JsonRpcEnvelope.INVALID_PARAMS;
    static final int NOT_INITIALIZED = -32002;
    static final int INTERNAL_ERROR = JsonRpcEnvelope.INTERNAL_ERROR;

    private final LineReader in;
    private final OutputStream out;
    private final PrintStream log;
    private final String version;
    private final JsonLineParser parser = new JsonLineParser();
    private final JsonLineWriter writer = new JsonLineWriter();
    private final ToolArguments arguments = new ToolArguments();
    private final ServiceConnection service;
    private final ObserveTool observe;
    private final QueryTool query;
    private final ActTool act;
    private String toolList;
    private boolean initialized;

    /**
     * @param version the server version reported by initialize.
     * @param connector connects to the agent endpoint and says Hello, on the first tool call.
     */
    public McpServer(final InputStream in, final OutputStream out, final PrintStream log, final String version,
        final ServiceConnection.Connector connector) {
        this.in = new LineReader(in);
        this.out = out;
        this.log = log;
        this.version = version;
        this.service = new ServiceConnection(connector);
        final ToolResults results = new ToolResults();
        final ReadCall read = new ReadCall(results);
        this.observe = new ObserveTool(read);
        this.query = new QueryTool(read);
        this.act = new ActTool(results);
    }

    /** Serves until end of input; returns the exit code. */
    public int run() {
        long lines = 0;
        try (ServiceConnection ignored = service) {
            while (true) {
                final int length;
                try {
                    length = in.next();
                } catch (final IOException e) {
                    log.println("saccade mcp: event=stop reason=input_failed lines=" + lines + " error=\"" + e.getMessage() + "\"");
                    return EXIT_INPUT;
                }
                if (length == LineReader.EOF) {
                    log.println("saccade mcp: event=stop reason=eof lines=" + lines + " connects=" + service.connects());
                    return EXIT_EOF;
                }
                lines++;
                if (handle(in.line(), length)) {
                    try {
                        writer.writeLine(out);
                    } catch (final IOException e) {
                        log.println("saccade mcp: event=stop reason=output_failed lines=" + lines + " error=\""
                            + e.getMessage() + "\"");
                        return EXIT_OUTPUT;
                    }
                }
            }
        }
    }

    /** Dispatches one line (mcp §2); returns whether a response is in the writer. */
    boolean handle(final byte[] line, final int length) {
        writer.reset();
        final JsonNode message = parser.parse(line, length);
        if (message == null) {
            return error(null, PARSE_ERROR, "Parse error");
        }
        final JsonNode id = message.get("id");
        if (!message.isObject() || (id != null && (id.isObject() || id.type == JsonNode.Type.ARRAY))) {
            return error(null, INVALID_REQUEST, "Invalid Request");
        }
        final JsonNode method = message.get("method");
        if (method == null || !method.isString()) {
            return error(id, INVALID_REQUEST, "Invalid Request");
        }
        final String name = method.text;
        if ("notifications/initialized".equals(name) || "notifications/cancelled".equals(name) || id == null) {
            return false;
        }
        final JsonNode params = message.get("params");
        if ("initialize".equals(name)) {
            initialized = true;
            final JsonNode requested = params == null ? null : params.get("protocolVersion");
            String negotiated = PROTOCOL_VERSIONS[0];
            for (final String v : PROTOCOL_VERSIONS) {
                if (requested != null && requested.isString() && v.equals(requested.text)) {
                    negotiated = v;
                }
            }
            start(id);
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
        if ("ping".equals(name)) {
            start(id);
            writer.startObject().endObject();
            return end();
        }
        if ("tools/list".equals(name)) {
            if (toolList == null) {
                toolList = ToolCatalog.render();
            }
            start(id);
            writer.raw(toolList);
            return end();
        }
        if (!"tools/call".equals(name)) {
            return error(id, METHOD_NOT_FOUND, "Method not found");
        }
        final JsonNode toolName = params == null ? null : params.get("name");
        final JsonNode toolArguments = params == null ? null : params.get("arguments");
        if (toolName == null || !toolName.isString() || toolArguments == null || !toolArguments.isObject()) {
            return error(id, INVALID_PARAMS, "Invalid tool arguments");
        }
        final Tool tool = tool(toolName.text);
        if (tool == null) {
            return error(id, INVALID_PARAMS, "Unknown tool");
        }
        final String invalid = tool.prepare(arguments.wrap(toolArguments));
        if (invalid != null) {
            return error(id, INVALID_PARAMS, invalid);
        }
        start(id);
        try {
            tool.call(service, writer);
        } catch (final RuntimeException e) {
            // A bug must not end the session: answer this id and keep serving; the cause goes to stderr.
            service.drop();
            log.println("saccade mcp: event=tool_failed tool=" + toolName.text + " error=\"" + e + "\"");
            writer.reset();
            return error(id, INTERNAL_ERROR, "Internal error");
        } finally {
            service.released(); // idle from now: given back to the service if no call follows (mcp §9)
        }
        return end();
    }

    private Tool tool(final String name) {
        switch (name) {
            case ObserveTool.NAME:
                return observe;
            case QueryTool.NAME:
                return query;
            case ActTool.NAME:
                return act;
            default:
                return null;
        }
    }

    /** Opens {@code {"jsonrpc":"2.0","id":ID,"result":}. */
    private void start(final JsonNode id) {
        JsonRpcEnvelope.startResult(writer, id);
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
