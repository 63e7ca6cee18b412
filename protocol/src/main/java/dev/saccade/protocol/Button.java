package dev.saccade.protocol;

/** Pointer buttons (u32 bits) (spec §2). */
public final class Button {
    public static final int LEFT = 0x1;
    public static final int RIGHT = 0x2;
    public static final int MIDDLE = 0x4;

    /** Names by bit position, for rendering; null where the ABI defines no bit. */
    static final String[] NAMES = new String[32];

    static {
        NAMES[Integer.numberOfTrailingZeros(LEFT)] = "LEFT";
        NAMES[Integer.numberOfTrailingZeros(RIGHT)] = "RIGHT";
        NAMES[Integer.numberOfTrailingZeros(MIDDLE)] = "MIDDLE";
    }

    private Button() {
    }
}
