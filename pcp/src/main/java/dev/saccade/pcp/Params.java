package dev.saccade.pcp;

import java.util.Map;

/**
 * The rules for reading a request's {@code params} (pcp §3, "Methods"): every method reads its
 * members through these, so a missing or mistyped member answers the same −32602 with
 * {@code data.parameter} and {@code data.reason} wherever it is read. Stateless.
 */
final class Params {
    private Params() {
    }

    static String requiredString(final Map<String, Object> params, final String name) throws PcpError {
        final Object value = params.get(name);
        if (!(value instanceof String) || ((String) value).isEmpty()) {
            throw invalidParams(name, "is required and must be a non-empty string");
        }
        return (String) value;
    }

    static String optionalString(final Map<String, Object> params, final String name) throws PcpError {
        final Object value = params.get(name);
        if (value == null) {
            return null;
        }
        if (!(value instanceof String)) {
            throw invalidParams(name, "must be a string");
        }
        return (String) value;
    }

    static PcpError invalidParams(final String name, final String reason) {
        return new PcpError(PcpError.INVALID_PARAMS, "Invalid params: " + name + " " + reason,
            JsonTree.object("parameter", name, "reason", reason));
    }
}
