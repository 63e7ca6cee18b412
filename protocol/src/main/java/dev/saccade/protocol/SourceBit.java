package dev.saccade.protocol;

/** Which scene sources produced a target (u16 bits) (spec §2). */
public final class SourceBit {
    public static final int NEURAL = 0x1;
    public static final int ACCESSIBILITY = 0x2;
    public static final int PIXEL = 0x4;
    public static final int GRID = 0x8;

    /** Names by bit position, for rendering; null where the ABI defines no bit. */
    static final String[] NAMES = new String[32];

    static {
        NAMES[Integer.numberOfTrailingZeros(NEURAL)] = "NEURAL";
        NAMES[Integer.numberOfTrailingZeros(ACCESSIBILITY)] = "ACCESSIBILITY";
        NAMES[Integer.numberOfTrailingZeros(PIXEL)] = "PIXEL";
        NAMES[Integer.numberOfTrailingZeros(GRID)] = "GRID";
    }

    private SourceBit() {
    }
}
