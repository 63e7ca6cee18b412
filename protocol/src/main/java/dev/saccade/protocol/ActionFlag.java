package dev.saccade.protocol;

/** Per-action flags (u32 bits) (spec §2). */
public final class ActionFlag {
    public static final int EXPLICIT_POINTS = 0x1;
    public static final int CYCLE_BACKWARD = 0x2;
    /** API 0x00010002: a coordinate action may activate its background window first (§5.14). */
    public static final int ALLOW_ACTIVATION = 0x4;
    /** API 0x00010002: resolve against the window the preconditions name, never the foreground (§5.14). */
    public static final int EXPLICIT_WINDOW = 0x8;
    /** The two flags of API 0x00010002; any kind with a target may carry them. */
    public static final int WINDOW_FLAGS = ALLOW_ACTIVATION | EXPLICIT_WINDOW;
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
        NAMES[Integer.numberOfTrailingZeros(ALLOW_ACTIVATION)] = "ALLOW_ACTIVATION";
        NAMES[Integer.numberOfTrailingZeros(EXPLICIT_WINDOW)] = "EXPLICIT_WINDOW";
        NAMES[Integer.numberOfTrailingZeros(VALUE_NUMBER)] = "VALUE_NUMBER";
        NAMES[Integer.numberOfTrailingZeros(FILL)] = "FILL";
    }

    private ActionFlag() {
    }
}
