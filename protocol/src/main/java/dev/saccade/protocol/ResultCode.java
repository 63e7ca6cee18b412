package dev.saccade.protocol;

/**
 * Typed results (i32) of completions and rows, the platform_error each carries, and the mapping
 * of internal platform codes to results (spec §2 "Results" and "Platform codes").
 */
public final class ResultCode {
    public static final int OK = 0;
    public static final int INVALID_MESSAGE = -1;
    public static final int CAPABILITY_DENIED = -2;
    public static final int STALE_GENERATION = -3;
    public static final int TARGET_NOT_FOUND = -4;
    /** Reserved by the ABI; never produced. */
    public static final int TARGET_INACCESSIBLE = -5;
    public static final int ACTION_UNSUPPORTED = -6;
    public static final int PERMISSION_DENIED = -7;
    public static final int SECURE_SURFACE = -8;
    public static final int FOCUS_CHANGED = -9;
    /** Reserved by the ABI; never produced. */
    public static final int INVALID_TRANSFORM = -10;
    public static final int TIMEOUT = -11;
    public static final int CANCELLED = -12;
    public static final int EXECUTOR_LOST = -13;
    public static final int BACKEND = -14;
    public static final int CAPACITY = -15;
    /** API 0x00010002: a coordinate action on a window that is not active, without ALLOW_ACTIVATION. */
    public static final int ACTIVATION_REQUIRED = -16;
    /**
     * API 0x00010002: the window was asked to come to the front, but no scene showed it there
     * (it closed, changed owner, or the deadline came first); no input was sent.
     */
    public static final int OUTCOME_UNCONFIRMED = -17;

    // Platform codes (platform_error values and internal failure codes).
    public static final int PLATFORM_OK = 0;
    public static final int PLATFORM_INVALID_ARGUMENT = -1;
    public static final int PLATFORM_VERSION = -2;
    public static final int PLATFORM_CAPACITY = -3;
    public static final int PLATFORM_STALE_HANDLE = -4;
    public static final int PLATFORM_UNSUPPORTED = -5;
    public static final int PLATFORM_BACKEND = -6;
    public static final int PLATFORM_STATE = -7;
    public static final int PLATFORM_NOT_FOUND = -8;
    public static final int PLATFORM_TIMEOUT = -9;
    public static final int PLATFORM_CANCELLED = -10;
    public static final int PLATFORM_BUSY = -11;
    public static final int PLATFORM_ALREADY_EXISTS = -12;
    public static final int PLATFORM_PERMISSION = -13;

    private static final String[] NAMES = {
        "OK", "INVALID_MESSAGE", "CAPABILITY_DENIED", "STALE_GENERATION", "TARGET_NOT_FOUND",
        "TARGET_INACCESSIBLE", "ACTION_UNSUPPORTED", "PERMISSION_DENIED", "SECURE_SURFACE",
        "FOCUS_CHANGED", "INVALID_TRANSFORM", "TIMEOUT", "CANCELLED", "EXECUTOR_LOST", "BACKEND",
        "CAPACITY", "ACTIVATION_REQUIRED", "OUTCOME_UNCONFIRMED"};

    private ResultCode() {
    }

    /** The result's name, or "UNKNOWN" for a value outside the ABI. */
    public static String name(final int result) {
        return result <= 0 && result >= OUTCOME_UNCONFIRMED ? NAMES[-result] : "UNKNOWN";
    }

    /**
     * The platform_error that accompanies a result (D12: every completion and row carries it).
     * Reserved results carry none.
     */
    public static int platformErrorFor(final int result) {
        switch (result) {
            case OK: return PLATFORM_OK;
            case INVALID_MESSAGE: return PLATFORM_INVALID_ARGUMENT;
            case CAPABILITY_DENIED: return PLATFORM_PERMISSION;
            case STALE_GENERATION: return PLATFORM_STALE_HANDLE;
            case TARGET_NOT_FOUND: return PLATFORM_NOT_FOUND;
            case ACTION_UNSUPPORTED: return PLATFORM_UNSUPPORTED;
            case PERMISSION_DENIED: return PLATFORM_PERMISSION;
            case SECURE_SURFACE: return PLATFORM_PERMISSION;
            case FOCUS_CHANGED: return PLATFORM_STALE_HANDLE;
            case TIMEOUT: return PLATFORM_TIMEOUT;
            case CANCELLED: return PLATFORM_CANCELLED;
            case EXECUTOR_LOST: return PLATFORM_BACKEND;
            case BACKEND: return PLATFORM_BACKEND;
            case CAPACITY: return PLATFORM_CAPACITY;
            case ACTIVATION_REQUIRED: return PLATFORM_STATE;
            case OUTCOME_UNCONFIRMED: return PLATFORM_STATE;
            default: return PLATFORM_OK;
        }
    }

    /** The result an internal platform failure code maps to. */
    public static int fromPlatform(final int platformCode) {
        switch (platformCode) {
            case PLATFORM_OK: return OK;
            case PLATFORM_INVALID_ARGUMENT:
            case PLATFORM_STATE: return INVALID_MESSAGE;
            case PLATFORM_CAPACITY: return CAPACITY;
            case PLATFORM_STALE_HANDLE: return STALE_GENERATION;
            case PLATFORM_UNSUPPORTED: return ACTION_UNSUPPORTED;
            case PLATFORM_NOT_FOUND: return TARGET_NOT_FOUND;
            case PLATFORM_TIMEOUT: return TIMEOUT;
            case PLATFORM_CANCELLED: return CANCELLED; // a timed operation ended early (agent-abi §5.15)
            case PLATFORM_PERMISSION: return PERMISSION_DENIED;
            default: return BACKEND;
        }
    }
}
