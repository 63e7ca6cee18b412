package dev.saccade.protocol;

/** Modifier keys (u32 bits); they go down in this order and up in reverse (spec §2, §5.8). */
public final class Modifier {
    public static final int SHIFT = 0x1;
    public static final int CONTROL = 0x2;
    public static final int ALT = 0x4;
    public static final int META = 0x8;
    public static final int ALL = SHIFT | CONTROL | ALT | META;

    /** Names by bit position, for rendering; null where the ABI defines no bit. */
    static final String[] NAMES = new String[32];

    static {
        NAMES[Integer.numberOfTrailingZeros(SHIFT)] = "SHIFT";
        NAMES[Integer.numberOfTrailingZeros(CONTROL)] = "CONTROL";
        NAMES[Integer.numberOfTrailingZeros(ALT)] = "ALT";
        NAMES[Integer.numberOfTrailingZeros(META)] = "META";
    }

    private Modifier() {
    }
}
