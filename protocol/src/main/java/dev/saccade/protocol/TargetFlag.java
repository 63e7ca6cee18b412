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
    }

    private TargetFlag() {
    }
}
