package dev.saccade.protocol;

/** Which tests of a query filter are set (u32 bits); inside a filter every set test must hold (spec §5.6). */
public final class FilterFlag {
    public static final int STABLE_ID = 0x01;
    public static final int ROLE = 0x02;
    public static final int TEXT = 0x04;
    public static final int CAPABILITY = 0x08;
    public static final int SOURCE = 0x10;
    public static final int GEOMETRY = 0x20;
    public static final int CONFIDENCE = 0x40;
    public static final int RELATION = 0x80;

    /** Names by bit position, for rendering; null where the ABI defines no bit. */
    static final String[] NAMES = new String[32];

    static {
        NAMES[Integer.numberOfTrailingZeros(STABLE_ID)] = "STABLE_ID";
        NAMES[Integer.numberOfTrailingZeros(ROLE)] = "ROLE";
        NAMES[Integer.numberOfTrailingZeros(TEXT)] = "TEXT";
        NAMES[Integer.numberOfTrailingZeros(CAPABILITY)] = "CAPABILITY";
        NAMES[Integer.numberOfTrailingZeros(SOURCE)] = "SOURCE";
        NAMES[Integer.numberOfTrailingZeros(GEOMETRY)] = "GEOMETRY";
        NAMES[Integer.numberOfTrailingZeros(CONFIDENCE)] = "CONFIDENCE";
        NAMES[Integer.numberOfTrailingZeros(RELATION)] = "RELATION";
    }

    private FilterFlag() {
    }
}
