package dev.saccade.pcp;

import dev.saccade.jsonrpc.JsonLineParser;
import dev.saccade.jsonrpc.JsonLineWriter;
import dev.saccade.jsonrpc.JsonNode;
import dev.saccade.jsonrpc.JsonRpcEnvelope;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * PCP's JSON-RPC 2.0 rules for one line of input (the JSON-RPC 2.0 specification, sections 4-6),
 * on the shared line codec ({@link JsonLineParser}, {@link JsonRpcEnvelope}): parse error →
 * -32700 with a null id; anything that is not a Request object → -32600 (null id unless a valid
 * id could be read); an empty batch → one -32600; a batch → an array of the responses of its
 * requests, nothing at all when every member was a notification; a notification (no {@code id})
 * is run but never answered, not even with an error. By-position params (an array) are -32602:
 * every PCP method takes named parameters. Ids are echoed as written.
 *
 * <p>A Response object (has {@code result} or {@code error}, no {@code method}) is handed to
 * {@link Handler#response} instead: the answer of an application to an invocation we forwarded.
 * {@link #isResponse} tells one apart from the parsed line, so the connection routes it at once.
 */
public final class JsonRpc {
    public static final String VERSION = JsonRpcEnvelope.VERSION;
    /**
     * Tokens of one line at most (pcp §9, D27): the largest manifest pcp §4.1 allows fits, while a
     * line of a million {@code 0,} never becomes a tree of a million nodes.
     */
    public static final int MAX_LINE_TOKENS = 131_072;
    /** Members of one batch at most (pcp §9): the reply stays as small as the requests were. */
    public static final int MAX_BATCH = 64;

    /** The connection's side of dispatch. */
    public interface Handler {
        /**
         * Takes one token of the connection's rate limit for one message or batch member, whatever
         * it holds (pcp §9): {@code null} when granted, else the -32018 to answer.
         */
        PcpError admit();

        /** Runs a request that was admitted. */
        Object call(String method, Map<String, Object> params) throws PcpError;

        /** A Response object from the peer, answering one of our requests. */
        void response(Object id, Object result, Map<?, ?> error);
    }

    private JsonRpc() {
    }

    /** A parser for one connection's lines (not thread-safe): no token bound beyond the line cap, depth 64. */
    public static JsonLineParser parser() {
        return new JsonLineParser(MAX_LINE_TOKENS, JsonTree.MAX_DEPTH);
    }

    /** The -32600 of a line over {@link #MAX_LINE_TOKENS}, answered with a null id before anything runs. */
    public static String tooManyTokens() {
        return errorLine(null, new PcpError(PcpError.INVALID_REQUEST, "Invalid Request: more than " + MAX_LINE_TOKENS
            + " JSON tokens in one line", JsonTree.object("max_line_tokens", (long) MAX_LINE_TOKENS)));
    }

    private static boolean oversizedBatch(final JsonNode message) {
        return message.type == JsonNode.Type.ARRAY && message.elements().size() > MAX_BATCH;
    }

    private static String batchTooLarge() {
        return errorLine(null, new PcpError(PcpError.INVALID_REQUEST, "Invalid Request: a batch of more than " + MAX_BATCH
            + " messages", JsonTree.object("max_batch", (long) MAX_BATCH)));
    }

    /** The reply line for the parsed {@code message} (null: it did not parse), or {@code null} when nothing is to be sent. */
    public static String handle(final JsonNode message, final Handler handler) {
        if (message == null) {
            final PcpError limited = handler.admit();
            return errorLine(null, limited != null ? limited : PcpError.of(PcpError.PARSE_ERROR, null));
        }
        if (message.type == JsonNode.Type.ARRAY) {
            final List<JsonNode> batch = message.elements();
            if (batch.isEmpty() || oversizedBatch(message)) {
                final PcpError limited = handler.admit();
                return limited != null ? errorLine(null, limited)
                    : batch.isEmpty() ? errorLine(null, PcpError.of(PcpError.INVALID_REQUEST, null)) : batchTooLarge();
            }
            final JsonLineWriter w = new JsonLineWriter().startArray();
            boolean any = false;
            for (final JsonNode item : batch) {
                any |= one(w, item, handler);
            }
            return any ? w.endArray().toString() : null;
        }
        final JsonLineWriter w = new JsonLineWriter();
        return one(w, message, handler) ? w.toString() : null;
    }

    /** Whether {@code message} is a Response object (our peer answering one of our requests). */
    public static boolean isResponse(final JsonNode message) {
        if (message == null || !message.isObject()) {
            return false;
        }
        final JsonNode id = message.get("id");
        return message.get("method") == null && (message.get("result") != null || message.get("error") != null)
            && version(message) && validId(id) && id != null;
    }

    /** Writes the response to one message into {@code w}; false when none is due. */
    private static boolean one(final JsonLineWriter w, final JsonNode message, final Handler handler) {
        final PcpError limited = handler.admit();
        if (!message.isObject()) {
            error(w, null, limited != null ? limited : PcpError.of(PcpError.INVALID_REQUEST, null));
            return true;
        }
        final JsonNode id = message.get("id");
        if (limited != null) {
            if ((id == null && message.get("method") != null) || isResponse(message)) {
                return false; // a notification or a response is never answered, not even when refused
            }
            error(w, validId(id) ? id : null, limited);
            return true;
        }
        if (isResponse(message)) {
            final Object error = JsonTree.of(message.get("error"));
            handler.response(JsonTree.of(id), JsonTree.of(message.get("result")),
                error instanceof Map ? (Map<?, ?>) error : null);
            return false;
        }
        final JsonNode method = message.get("method");
        final JsonNode params = message.get("params");
        final boolean validId = validId(id);
        if (!version(message) || method == null || !method.isString() || !validId
            || (params != null && !params.isObject() && params.type != JsonNode.Type.ARRAY)) {
            error(w, validId ? id : null, PcpError.of(PcpError.INVALID_REQUEST, null));
            return true;
        }
        final boolean notification = id == null;
        try {
            if (params != null && params.type == JsonNode.Type.ARRAY) {
                throw new PcpError(PcpError.INVALID_PARAMS, "Invalid params: PCP methods take named parameters (an object)");
            }
            @SuppressWarnings("unchecked")
            final Map<String, Object> named = params == null ? new LinkedHashMap<>() : (Map<String, Object>) JsonTree.of(params);
            final Object result = handler.call(method.text, named);
            if (!notification) {
                JsonRpcEnvelope.startResult(w, id).raw(JsonTree.write(result)).endObject();
            }
        } catch (final PcpError e) {
            if (!notification) {
                error(w, id, e);
            }
        }
        return !notification;
    }

    private static boolean version(final JsonNode message) {
        final JsonNode v = message.get("jsonrpc");
        return v != null && v.isString() && VERSION.equals(v.text);
    }

    /** A request's id may be absent, null, a string or a number. */
    private static boolean validId(final JsonNode id) {
        return id == null || id.type == JsonNode.Type.NULL || id.isString() || id.type == JsonNode.Type.INTEGER
            || id.type == JsonNode.Type.FLOAT;
    }

    private static void error(final JsonLineWriter w, final JsonNode id, final PcpError e) {
        JsonRpcEnvelope.errorIdLast(w, id, e.code(), e.getMessage(), e.data() == null ? null : JsonTree.write(e.data()));
    }

    /**
     * The line that refuses {@code message} as a whole with {@code e} before it runs (the
     * connection's queue is full): each request of it answered with its own id, exactly as
     * written, so a client can match the refusal; nothing for notifications, as for any error
     * of theirs; an unparsed or malformed message with a null id.
     */
    public static String refusal(final JsonNode message, final PcpError e) {
        if (message == null || (message.type == JsonNode.Type.ARRAY && message.elements().isEmpty())) {
            return errorLine(null, e);
        }
        if (oversizedBatch(message)) {
            return batchTooLarge();
        }
        final JsonLineWriter w = new JsonLineWriter();
        if (message.type != JsonNode.Type.ARRAY) {
            return refuseOne(w, message, e) ? w.toString() : null;
        }
        w.startArray();
        boolean any = false;
        for (final JsonNode item : message.elements()) {
            any |= refuseOne(w, item, e);
        }
        return any ? w.endArray().toString() : null;
    }

    private static boolean refuseOne(final JsonLineWriter w, final JsonNode message, final PcpError e) {
        final JsonNode id = message.isObject() ? message.get("id") : null;
        if (message.isObject() && id == null && message.get("method") != null) {
            return false; // a notification is never answered
        }
        error(w, id != null && validId(id) ? id : null, e);
        return true;
    }

    /** A whole error response line carrying {@code e}; {@code id} null answers with a null id. */
    public static String errorLine(final JsonNode id, final PcpError e) {
        final JsonLineWriter w = new JsonLineWriter();
        error(w, id, e);
        return w.toString();
    }

    /** A Request object of ours (to an application). */
    public static String request(final long id, final String method, final Map<String, Object> params) {
        return JsonTree.write(JsonTree.object("jsonrpc", VERSION, "id", id, "method", method, "params", params));
    }

    /** A notification (no id). */
    public static String notification(final String method, final Map<String, Object> params) {
        return JsonTree.write(JsonTree.object("jsonrpc", VERSION, "method", method, "params", params));
    }

}
