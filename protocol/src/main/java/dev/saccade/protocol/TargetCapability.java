package dev.saccade.protocol;

/** What a target can do (u32 bits); KEYBOARD is informational, no action requires it (spec §2). */
public final class TargetCapability {
    public static final int POINTER_MOVE = 0x001;
    public static final int CLICK = 0x002;
    public static final int SCROLL = 0x004;
    public static final int DRAG_SOURCE = 0x008;
    public static final int DROP_TARGET = 0x010;
    public static final int TEXT = 0x020;
    public static final int INVOKE = 0x040;
    public static final int WINDOW_ACTIVATE = 0x080;
    public static final int TEXT_SELECT = 0x100;
    public static final int KEYBOARD = 0x200;

    /** Names by bit position, for rendering; null where the ABI defines no bit. */
    static final String[] NAMES = new String[32];

    static {
        NAMES[Integer.numberOfTrailingZeros(POINTER_MOVE)] = "POINTER_MOVE";
        NAMES[Integer.numberOfTrailingZeros(CLICK)] = "CLICK";
        NAMES[Integer.numberOfTrailingZeros(SCROLL)] = "SCROLL";
        NAMES[Integer.numberOfTrailingZeros(DRAG_SOURCE)] = "DRAG_SOURCE";
        NAMES[Integer.numberOfTrailingZeros(DROP_TARGET)] = "DROP_TARGET";
        NAMES[Integer.numberOfTrailingZeros(TEXT)] = "TEXT";
        NAMES[Integer.numberOfTrailingZeros(INVOKE)] = "INVOKE";
        NAMES[Integer.numberOfTrailingZeros(WINDOW_ACTIVATE)] = "WINDOW_ACTIVATE";
        NAMES[Integer.numberOfTrailingZeros(TEXT_SELECT)] = "TEXT_SELECT";
        NAMES[Integer.numberOfTrailingZeros(KEYBOARD)] = "KEYBOARD";
    }

    private TargetCapability() {
    }
}
