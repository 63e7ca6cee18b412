package dev.saccade.jsonrpc;

/**
 * The JSON-RPC 2.0 envelope both line protocols write (MCP on stdio, PCP on its socket): the
 * error codes of the JSON-RPC 2.0 specification (section 5.1) and the response objects around a
 * result or an error, with the request's id echoed exactly as it was written (a number keeps its
 * literal, {@code 1e3} stays {@code 1e3}; a string is re-escaped). Which lines are requests, and
 * which rows of a dispatch table answer what, is each adapter's (mcp.md §2, pcp.md).
 */
public final class JsonRpcEnvelope {
    public static final String VERSION = "2.0";

    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;

    private JsonRpcEnvelope() {
    }

    /** Opens {@code {"jsonrpc":"2.0","id":ID,"result":}; the caller writes the value and closes the object. */
    public static JsonLineWriter startResult(final JsonLineWriter w, final JsonNode id) {
        w.startObject().name("jsonrpc").string(VERSION).name("id");
        id(w, id);
        return w.name("result");
    }

    /** A whole error response: {@code {"jsonrpc":"2.0","id":ID,"error":{"code":C,"message":M}}}. */
    public static JsonLineWriter error(final JsonLineWriter w, final JsonNode id, final int code, final String message) {
        return error(w, id, code, message, null);
    }

    /**
     * A whole error response with {@code data} (compact JSON, written as given) when it is not
     * null; the id first (MCP's bytes, mcp.md §8).
     */
    public static JsonLineWriter error(final JsonLineWriter w, final JsonNode id, final int code, final String message,
        final String data) {
        w.startObject().name("jsonrpc").string(VERSION).name("id");
        id(w, id);
        w.name("error");
        return errorObject(w, code, message, data).endObject();
    }

    /**
     * The same error response with the id last, {@code {"jsonrpc":"2.0","error":{…},"id":ID}}, as
     * the JSON-RPC 2.0 specification's examples write it (PCP's bytes, pcp.md).
     */
    public static JsonLineWriter errorIdLast(final JsonLineWriter w, final JsonNode id, final int code,
        final String message, final String data) {
        w.startObject().name("jsonrpc").string(VERSION).name("error");
        errorObject(w, code, message, data).name("id");
        return id(w, id).endObject();
    }

    private static JsonLineWriter errorObject(final JsonLineWriter w, final int code, final String message,
        final String data) {
        w.startObject().name("code").number(code).name("message").string(message);
        if (data != null) {
            w.name("data").raw(data);
        }
        return w.endObject();
    }

    /** The id as it came: a string re-escaped, a number as its literal, null (also for no id), true or false. */
    public static JsonLineWriter id(final JsonLineWriter w, final JsonNode id) {
        if (id == null) {
            return w.nullValue();
        }
        return id.isString() ? w.string(id.text) : w.raw(id.text);
    }
}
