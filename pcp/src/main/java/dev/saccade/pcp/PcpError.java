package dev.saccade.pcp;

import dev.saccade.jsonrpc.JsonRpcEnvelope;
import java.util.Map;

/**
 * A typed PCP failure: the JSON-RPC error object's {@code code}, {@code message} and optional
 * {@code data} (seed "CapabilityError"). Thrown by {@link PcpCore} calls and turned into an
 * error response at the message boundary; the in-process caller catches it and reads the same
 * code the socket client would see. No stack trace: it is an answer, not a bug.
 */
public final class PcpError extends Exception {
    private static final long serialVersionUID = 1L;

    // Standard JSON-RPC 2.0 errors (seed "Standard JSON-RPC Errors").
    public static final int PARSE_ERROR = JsonRpcEnvelope.PARSE_ERROR;
    public static final int INVALID_REQUEST = JsonRpcEnvelope.INVALID_REQUEST;
    public static final int METHOD_NOT_FOUND = JsonRpcEnvelope.METHOD_NOT_FOUND;
    public static final int INVALID_PARAMS = JsonRpcEnvelope.INVALID_PARAMS;
    public static final int INTERNAL_ERROR = JsonRpcEnvelope.INTERNAL_ERROR;
    // PCP protocol errors (seed "PCP Protocol Errors").
    public static final int APP_NOT_FOUND = -32000;
    public static final int SURFACE_NOT_FOUND = -32001;
    public static final int ELEMENT_NOT_FOUND = -32002;
    public static final int ACTION_NOT_SUPPORTED = -32003;
    public static final int PERMISSION_DENIED = -32004;
    public static final int CONFIRMATION_REQUIRED = -32005;
    public static final int CONFIRMATION_DENIED = -32006;
    public static final int CONFIRMATION_EXPIRED = -32007;
    public static final int TARGET_AMBIGUOUS = -32008;
    public static final int EXECUTION_TIMEOUT = -32009;
    public static final int APP_UNRESPONSIVE = -32010;
    public static final int NO_ATSPI2_SUPPORT = -32011;
    public static final int INPUT_SIMULATION_FAILED = -32012;
    public static final int CAPABILITY_NOT_FOUND = -32015;
    public static final int MANIFEST_INVALID = -32016;
    public static final int MANIFEST_SIGNATURE_INVALID = -32017;
    public static final int RATE_LIMITED = -32018;
    public static final int CAPTURE_FAILED = -32019;
    public static final int TEXT_TOO_LARGE = -32020;
    public static final int WINE_BRIDGE_ERROR = -32025;

    private final int code;
    private final Map<String, Object> data;

    public PcpError(final int code, final String message) {
        this(code, message, null);
    }

    public PcpError(final int code, final String message, final Map<String, Object> data) {
        super(message, null, false, false);
        this.code = code;
        this.data = data;
    }

    public int code() {
        return code;
    }

    /** The error's {@code data} member, or {@code null} for none. */
    public Map<String, Object> data() {
        return data;
    }

    /** This error as the JSON-RPC error object: {@code code}, {@code message} and {@code data} when present. */
    Map<String, Object> errorObject() {
        final Map<String, Object> error = JsonTree.object("code", (long) code, "message", getMessage());
        if (data != null) {
            error.put("data", data);
        }
        return error;
    }

    /** The seed's short message for a code, used when a caller gives none more specific. */
    public static String standardMessage(final int code) {
        switch (code) {
            case PARSE_ERROR: return "Parse error";
            case INVALID_REQUEST: return "Invalid Request";
            case METHOD_NOT_FOUND: return "Method not found";
            case INVALID_PARAMS: return "Invalid params";
            case INTERNAL_ERROR: return "Internal error";
            case APP_NOT_FOUND: return "Application not found";
            case SURFACE_NOT_FOUND: return "Surface not found";
            case ELEMENT_NOT_FOUND: return "Element not found";
            case ACTION_NOT_SUPPORTED: return "Action not supported";
            case PERMISSION_DENIED: return "Permission denied";
            case CONFIRMATION_REQUIRED: return "Confirmation required";
            case CONFIRMATION_DENIED: return "Confirmation denied";
            case CONFIRMATION_EXPIRED: return "Confirmation expired";
            case TARGET_AMBIGUOUS: return "Target ambiguous";
            case EXECUTION_TIMEOUT: return "Execution timeout";
            case APP_UNRESPONSIVE: return "Application unresponsive";
            case NO_ATSPI2_SUPPORT: return "No AT-SPI2 support";
            case INPUT_SIMULATION_FAILED: return "Input simulation failed";
            case CAPABILITY_NOT_FOUND: return "Capability not found";
            case MANIFEST_INVALID: return "Manifest invalid";
            case MANIFEST_SIGNATURE_INVALID: return "Manifest signature invalid";
            case RATE_LIMITED: return "Rate limited";
            case CAPTURE_FAILED: return "Capture failed";
            case TEXT_TOO_LARGE: return "Text too large";
            case WINE_BRIDGE_ERROR: return "Wine bridge error";
            default: return "Error";
        }
    }

    /** An error with the code's standard message. */
    public static PcpError of(final int code, final Map<String, Object> data) {
        return new PcpError(code, standardMessage(code), data);
    }
}
