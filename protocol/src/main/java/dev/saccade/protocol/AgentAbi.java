package dev.saccade.protocol;

/**
 * Version, limits, message kinds and header flags of the agent ABI (spec §2).
 */
public final class AgentAbi {
    /** The base API version: major 1, minor 1. Every client of it is served exactly as before. */
    public static final int API_VERSION = 0x00010001;
    /**
     * Major 1, minor 2: the same layouts, plus the exact-window scope, background dispositions,
     * activation and the outcome result (§1.4). Served only to a connection whose Hello names it.
     */
    public static final int API_VERSION_1_2 = 0x00010002;
    /** The longest duration_ns minor 2 names (60 s): move or lease time of a timed action. */
    public static final long MAX_ACTION_DURATION_NS = 60_000_000_000L;

    public static final int MAX_MESSAGE_BYTES = 1_048_576;
    public static final int MIN_FRAME_BYTES = 16;
    public static final int MAX_TARGETS = 10_000;
    public static final int MAX_FILTERS = 32;
    public static final int MAX_ACTIONS = 64;
    public static final int MAX_PAYLOAD_BYTES = 65_536;
    public static final int MAX_TEXT_BYTES = 16_384;
    /** Defined by the ABI, unused by any message of this version. */
    public static final int MAX_SELECTION_ITEMS = 256;
    public static final int MAX_REPEAT_COUNT = 16;
    /** failed_action_index when no action failed (u32 0xFFFFFFFF, read unsigned). */
    public static final long NO_FAILED_ACTION = 0xFFFF_FFFFL;
    /** Bytes of the little-endian length that precedes every message on the stream. */
    public static final int FRAME_LENGTH_BYTES = 4;

    // Message kinds (u32).
    public static final int OBSERVE_REQUEST = 1;
    public static final int OBSERVE_COMPLETION = 2;
    public static final int QUERY_REQUEST = 3;
    public static final int QUERY_COMPLETION = 4;
    public static final int ACTION_BATCH = 5;
    public static final int ACTION_COMPLETION = 6;
    public static final int HELLO_REQUEST = 7;
    public static final int HELLO_COMPLETION = 8;

    // Header flags of completions.
    public static final int FLAG_TRUNCATED = 0x1;
    public static final int FLAG_NEXT_GENERATION_AVAILABLE = 0x2;
    public static final int FLAG_SOURCE_INCOMPLETE = 0x4;
    // Header flags of ACTION_BATCH.
    public static final int FLAG_DRY_RUN = 0x1;
    public static final int FLAG_VERIFY_NEXT_GENERATION = 0x2;

    // Batch policy.
    public static final int POLICY_STOP_ON_FAILURE = 1;
    public static final int POLICY_CONTINUE_ON_FAILURE = 2;

    private AgentAbi() {
    }

    /** Whether this service speaks {@code apiVersion} (a Hello's, and then each message's, §1.4). */
    public static boolean spoken(final int apiVersion) {
        return apiVersion == API_VERSION || apiVersion == API_VERSION_1_2;
    }

    /** Name of a message kind for logs and JSON; "UNKNOWN" for anything else. */
    public static String kindName(final int kind) {
        switch (kind) {
            case OBSERVE_REQUEST: return "OBSERVE_REQUEST";
            case OBSERVE_COMPLETION: return "OBSERVE_COMPLETION";
            case QUERY_REQUEST: return "QUERY_REQUEST";
            case QUERY_COMPLETION: return "QUERY_COMPLETION";
            case ACTION_BATCH: return "ACTION_BATCH";
            case ACTION_COMPLETION: return "ACTION_COMPLETION";
            case HELLO_REQUEST: return "HELLO_REQUEST";
            case HELLO_COMPLETION: return "HELLO_COMPLETION";
            default: return "UNKNOWN";
        }
    }

    /** Names of the header flags a completion of this kind may carry. */
    public static final String[] COMPLETION_FLAG_NAMES = {
        "TRUNCATED", "NEXT_GENERATION_AVAILABLE", "SOURCE_INCOMPLETE"};

    public static final String[] BATCH_FLAG_NAMES = {"DRY_RUN", "VERIFY_NEXT_GENERATION"};

    public static String policyName(final int policy) {
        switch (policy) {
            case POLICY_STOP_ON_FAILURE: return "STOP_ON_FAILURE";
            case POLICY_CONTINUE_ON_FAILURE: return "CONTINUE_ON_FAILURE";
            default: return "UNKNOWN";
        }
    }
}
