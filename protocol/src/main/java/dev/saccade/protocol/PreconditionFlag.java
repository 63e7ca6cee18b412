package dev.saccade.protocol;

/** Which preconditions of a batch are checked (u32 bits); other bits are ignored (spec §5.7). */
public final class PreconditionFlag {
    public static final int GENERATION = 0x01;
    public static final int PROCESS = 0x02;
    public static final int WINDOW = 0x04;
    public static final int DISPLAY = 0x08;
    public static final int TRANSFORM = 0x10;
    public static final int PERMISSION = 0x20;
    public static final int PHYSICAL_STATE = 0x40;

    /** Names by bit position, for rendering; null where the ABI defines no bit. */
    static final String[] NAMES = new String[32];

    static {
        NAMES[Integer.numberOfTrailingZeros(GENERATION)] = "GENERATION";
        NAMES[Integer.numberOfTrailingZeros(PROCESS)] = "PROCESS";
        NAMES[Integer.numberOfTrailingZeros(WINDOW)] = "WINDOW";
        NAMES[Integer.numberOfTrailingZeros(DISPLAY)] = "DISPLAY";
        NAMES[Integer.numberOfTrailingZeros(TRANSFORM)] = "TRANSFORM";
        NAMES[Integer.numberOfTrailingZeros(PERMISSION)] = "PERMISSION";
        NAMES[Integer.numberOfTrailingZeros(PHYSICAL_STATE)] = "PHYSICAL_STATE";
    }

    private PreconditionFlag() {
    }
}
