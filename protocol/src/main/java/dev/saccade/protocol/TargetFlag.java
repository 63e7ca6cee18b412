package dev.saccade.protocol;

/** Target flags (u32 bits) (spec §2). */
public final class TargetFlag {
    public static final int ACTIONABLE = 0x01;
    public static final int DISABLED = 0x02;
    public static final int OCCLUDED = 0x04;
    public static final int SECURE = 0x08;
    public static final int APPROXIMATE = 0x10;
    public static final int TEXT_REDACTED = 0x20;
    public static final int TEXT_TRUNCATED = 0x40;
    /**
     * The dispositions of a WINDOW read (API 0x00010002, §5.3): exactly one is set on every
     * target of such a completion. The action reaches the window without raising it.
     */
    public static final int BACKGROUND_ACTIONABLE = 0x80;
    /** Disposition: only input at coordinates reaches it, so its window must be active first. */
    public static final int ACTIVATION_REQUIRED = 0x100;
    /** Disposition: no action of this service reaches it (not actionable, or secure). */
    public static final int BACKGROUND_UNSUPPORTED = 0x200;
    /** The three dispositions. */
    public static final int DISPOSITIONS = BACKGROUND_ACTIONABLE | ACTIVATION_REQUIRED | BACKGROUND_UNSUPPORTED;

    /** Names by bit position, for rendering; null where the ABI defines no bit. */
    static final String[] NAMES = new String[32];

    static {
        NAMES[Integer.numberOfTrailingZeros(ACTIONABLE)] = "ACTIONABLE";
        NAMES[Integer.numberOfTrailingZeros(DISABLED)] = "DISABLED";
        NAMES[Integer.numberOfTrailingZeros(OCCLUDED)] = "OCCLUDED";
        NAMES[Integer.numberOfTrailingZeros(SECURE)] = "SECURE";
        NAMES[Integer.numberOfTrailingZeros(APPROXIMATE)] = "APPROXIMATE";
        NAMES[Integer.numberOfTrailingZeros(TEXT_REDACTED)] = "TEXT_REDACTED";
        NAMES[Integer.numberOfTrailingZeros(TEXT_TRUNCATED)] = "TEXT_TRUNCATED";
        NAMES[Integer.numberOfTrailingZeros(BACKGROUND_ACTIONABLE)] = "BACKGROUND_ACTIONABLE";
        NAMES[Integer.numberOfTrailingZeros(ACTIVATION_REQUIRED)] = "ACTIVATION_REQUIRED";
        NAMES[Integer.numberOfTrailingZeros(BACKGROUND_UNSUPPORTED)] = "BACKGROUND_UNSUPPORTED";
    }

    private TargetFlag() {
    }
}
