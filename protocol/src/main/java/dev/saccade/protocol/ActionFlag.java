package dev.saccade.protocol;

/** Per-action flags (u32 bits) (spec §2). */
public final class ActionFlag {
    public static final int EXPLICIT_POINTS = 0x1;
    public static final int CYCLE_BACKWARD = 0x2;
    /** SET_VALUE: the payload is a decimal number for the Value interface, not text (D25). */
    public static final int VALUE_NUMBER = 0x10000;
    /**
     * TEXT: the text replaces the accessible target's whole text through the application's
     * EditableText instead of key events, and is read back (D48).
     */
    public static final int FILL = 0x20000;

    /** Names by bit position, for rendering; null where the ABI defines no bit. */
    static final String[] NAMES = new String[32];

    static {
        NAMES[Integer.numberOfTrailingZeros(EXPLICIT_POINTS)] = "EXPLICIT_POINTS";
        NAMES[Integer.numberOfTrailingZeros(CYCLE_BACKWARD)] = "CYCLE_BACKWARD";
        NAMES[Integer.numberOfTrailingZeros(VALUE_NUMBER)] = "VALUE_NUMBER";
        NAMES[Integer.numberOfTrailingZeros(FILL)] = "FILL";
    }

    private ActionFlag() {
    }
}
