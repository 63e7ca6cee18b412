package dev.saccade.protocol;

/** Freshness policies (u32) of a read; the freshness flags no service of this version honours (spec §5.4). */
public final class FreshnessPolicy {
    public static final int LATEST_VALID = 1;
    public static final int AFTER_GENERATION = 2;
    public static final int FORCE_REFRESH = 3;

    // Freshness flags: defined, but this version answers ACTION_UNSUPPORTED to both.
    public static final int REQUIRE_DAMAGE_CHECK = 0x1;
    public static final int REQUIRE_NEURAL_REFRESH = 0x2;
    public static final int ALL_FLAGS = REQUIRE_DAMAGE_CHECK | REQUIRE_NEURAL_REFRESH;

    private FreshnessPolicy() {
    }

    /** The value's name, or "UNKNOWN". */
    public static String name(final int value) {
        switch (value) {
            case LATEST_VALID: return "LATEST_VALID";
            case AFTER_GENERATION: return "AFTER_GENERATION";
            case FORCE_REFRESH: return "FORCE_REFRESH";
            default: return "UNKNOWN";
        }
    }
}
