package dev.saccade.protocol;

/** Physical state flags (u32 bits) (spec §5.11). */
public final class PhysicalFlag {
    public static final int SUSPENDED = 0x1;
    public static final int USER_OVERRIDE = 0x2;

    /** Names by bit position, for rendering; null where the ABI defines no bit. */
    static final String[] NAMES = new String[32];

    static {
        NAMES[Integer.numberOfTrailingZeros(SUSPENDED)] = "SUSPENDED";
        NAMES[Integer.numberOfTrailingZeros(USER_OVERRIDE)] = "USER_OVERRIDE";
    }

    private PhysicalFlag() {
    }
}
