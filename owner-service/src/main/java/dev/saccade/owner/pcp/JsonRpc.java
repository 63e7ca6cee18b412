package dev.saccade.owner.pcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * JSON-RPC 2.0 message rules for one line of input (the JSON-RPC 2.0 specification, sections 4-6):
 * parse error → -32700 with a null id; anything that is not a Request object → -32600 (null id
 * unless a valid id could be read); an empty batch → one -32600; a batch → an array of the
 * responses of its requests, nothing at all when every member was a notification; a
 * notification (no {@code id}) is run but never answered, not even with an error. By-position
 * params (an array) are -32602: every PCP method takes named parameters.
 *
 * <p>A Response object (has {@code result} or {@code error}, no {@code method}) is handed to
 * {@link Handler#response} instead: the answer of an application to an invocation we forwarded.
 */
public final class JsonRpc {
    public static final String VERSION = "2.0";

    /** The connection's side of dispatch. */
    public interface Handler {
        /** Runs a request; the rate limit is the connection's, checked per request. */
        Object call(String method, Map<String, Object> params) throws PcpError;

        /** A Response object from the peer, answering one of our requests. */
        void response(Object id, Object result, Map<?, ?> error);
    }

    private JsonRpc() {
    }

    /** The reply line for {@code line}, or {@code null} when nothing is to be sent. */
    public static String handle(final String line, final Handler handler) {
        final Object message;
        try {
            message = JsonTree.parse(line);
        } catch (final JsonProcessingException e) {
            return JsonTree.write(error(JsonTree.NULL, PcpError.of(PcpError.PARSE_ERROR, null)));
        }
        if (message instanceof List) {
            final List<?> batch = (List<?>) message;
            if (batch.isEmpty()) {
                return JsonTree.write(error(JsonTree.NULL, PcpError.of(PcpError.INVALID_REQUEST, null)));
            }
            final List<Object> responses = new ArrayList<>();
            for (final Object item : batch) {
                final Map<String, Object> response = one(item, handler);
                if (response != null) {
                    responses.add(response);
                }
            }
            return responses.isEmpty() ? null : JsonTree.write(responses);
        }
        final Map<String, Object> response = one(message, handler);
        return response == null ? null : JsonTree.write(response);
    }

    private static Map<String, Object> one(final Object message, final Handler handler) {
        if (!(message instanceof Map)) {
            return error(JsonTree.NULL, PcpError.of(PcpError.INVALID_REQUEST, null));
        }
        final Map<?, ?> m = (Map<?, ?>) message;
        final Object id = m.get("id");
        final boolean validId = id == null || id == JsonTree.NULL || id instanceof String || id instanceof Number;
        if (!m.containsKey("method") && (m.containsKey("result") || m.containsKey("error"))
            && VERSION.equals(m.get("jsonrpc")) && validId && id != null) {
            final Object error = m.get("error");
            handler.response(id, m.get("result"), error instanceof Map ? (Map<?, ?>) error : null);
            return null;
        }
        final Object method = m.get("method");
        final Object params = m.get("params");
        if (!VERSION.equals(m.get("jsonrpc")) || !(method instanceof String) || !validId
            || (params != null && !(params instanceof Map) && !(params instanceof List))) {
            return error(validId && id != null ? id : JsonTree.NULL, PcpError.of(PcpError.INVALID_REQUEST, null));
        }
        final boolean notification = id == null;
        try {
            if (params instanceof List) {
                throw new PcpError(PcpError.INVALID_PARAMS, "Invalid params: PCP methods take named parameters (an object)");
            }
            @SuppressWarnings("unchecked")
            final Map<String, Object> named = params == null ? new java.util.LinkedHashMap<>() : (Map<String, Object>) params;
            final Object result = handler.call((String) method, named);
            return notification ? null : JsonTree.object("jsonrpc", VERSION, "id", id, "result", result);
        } catch (final PcpError e) {
            return notification ? null : error(id, e);
        }
    }

    /** A Response object carrying {@code e}. */
    public static Map<String, Object> error(final Object id, final PcpError e) {
        return JsonTree.object("jsonrpc", VERSION, "error", PcpCoreService.errorObject(e), "id", id);
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
