package dev.saccade.mcp;

import dev.saccade.jsonrpc.JsonLineParser;
import dev.saccade.jsonrpc.JsonLineWriter;
import dev.saccade.jsonrpc.JsonNode;
import dev.saccade.jsonrpc.JsonRpcEnvelope;
import dev.saccade.jsonrpc.LineReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * The adapter's loop (mcp.md §1, §2): read a line, answer the rows every era shares (framing,
 * notifications), hand the request to the era the process speaks (mcp §12: the handshake era of
 * 2025-06-18 and 2025-11-25, or the stateless 2026-07-28), write at most one response line,
 * flush; until end of input. One thread; a tool call blocks the next line until its answer is
 * written, so responses keep the order of requests.
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

    static final String SERVICE_UNAVAILABLE = "Saccade service is unavailable";
    static final String INVALID_SERVICE_RESPONSE = "Invalid service response";

    static final int PARSE_ERROR = JsonRpcEnvelope.PARSE_ERROR;
    static final int INVALID_REQUEST = JsonRpcEnvelope.INVALID_REQUEST;
    static final int METHOD_NOT_FOUND = JsonRpcEnvelope.METHOD_NOT_FOUND;
    static final int INVALID_PARAMS = JsonRpcEnvelope.INVALID_PARAMS;
    static final int INTERNAL_ERROR = JsonRpcEnvelope.INTERNAL_ERROR;

    private final LineReader in;
    private final OutputStream out;
    private final PrintStream log;
    private final JsonLineParser parser = new JsonLineParser();
    private final JsonLineWriter writer = new JsonLineWriter();
    private final ServiceConnection service;
    private final HandshakeEra handshake;
    private final StatelessEra stateless;
    /** Null until the first request that opens an era (mcp §12). */
    private Era era;

    /**
     * @param version the server version reported by initialize and in every 2026-07-28 result.
     * @param connector connects to the agent endpoint and says Hello, on the first tool call.
     */
    public McpServer(final InputStream in, final OutputStream out, final PrintStream log, final String version,
        final ServiceConnection.Connector connector) {
        this.in = new LineReader(in);
        this.out = out;
        this.log = log;
        this.service = new ServiceConnection(connector);
        final ToolCall tools = new ToolCall(writer, log, service);
        this.handshake = new HandshakeEra(writer, version, tools);
        this.stateless = new StatelessEra(writer, version, tools);
    }

    /** Serves until end of input; returns the exit code. */
    public int run() {
        long lines = 0;
        try (service) {
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
        if (era != null) {
            return era.answer(id, name, params);
        }
        // No era yet (mcp §12): initialize opens the handshake era, a request in the 2026-07-28
        // envelope the stateless one; anything else is answered as before an initialize.
        final boolean answered;
        if (!"initialize".equals(name) && StatelessEra.claims(name, params)) {
            answered = stateless.answer(id, name, params);
            if (stateless.chosen()) {
                choose(stateless);
            }
        } else {
            answered = handshake.answer(id, name, params);
            if (handshake.initialized()) {
                choose(handshake);
            }
        }
        return answered;
    }

    private void choose(final Era chosen) {
        era = chosen;
        log.println("saccade mcp: event=era protocol=" + chosen.protocolVersion());
    }

    private boolean error(final JsonNode id, final int code, final String message) {
        JsonRpcEnvelope.error(writer, id, code, message);
        return true;
    }
}
