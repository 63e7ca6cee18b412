package dev.saccade.protocol;

/** Action kinds (u32) (spec §2, §5.8). */
public final class ActionKind {
    public static final int POINTER_MOVE = 1;
    public static final int POINTER_HOVER = 2;
    public static final int CLICK = 3;
    public static final int HOLD = 4;
    public static final int DRAG_DROP = 5;
    public static final int SCROLL = 6;
    public static final int KEY = 7;
    public static final int TEXT = 8;
    public static final int WINDOW_ACTIVATE = 9;
    public static final int RELEASE = 10;
    public static final int TEXT_SELECT = 11;
    public static final int INVOKE = 12;
    public static final int KEY_CHORD = 13;
    public static final int WINDOW_CYCLE = 14;
    public static final int ABORT = 15;
    public static final int QUERY_PHYSICAL_STATE = 16;
    /**
     * Sets an accessible target's value through the application's accessibility interface: the
     * payload's text (EditableText), or with {@link ActionFlag#VALUE_NUMBER} its decimal number
     * (Value). Only for a connection that asked for {@link HelloFlag#SEMANTIC_ACTIONS}; numbered
     * apart from upstream's dense 1, 2, 3 … (D25).
     */
    public static final int SET_VALUE = 0x10001;
    /**
     * Selects an accessible target in its container (Selection), or with a payload (a decimal
     * index) the target's child at that index. Only with {@link HelloFlag#SEMANTIC_ACTIONS} (D25).
     */
    public static final int SELECT = 0x10002;

    private ActionKind() {
    }

    /** Whether {@code kind} is one of the semantic kinds only a {@link HelloFlag#SEMANTIC_ACTIONS} connection may send. */
    public static boolean semantic(final int kind) {
        return kind == SET_VALUE || kind == SELECT;
    }

    /** The value's name, or "UNKNOWN". */
    public static String name(final int value) {
        switch (value) {
            case POINTER_MOVE: return "POINTER_MOVE";
            case POINTER_HOVER: return "POINTER_HOVER";
            case CLICK: return "CLICK";
            case HOLD: return "HOLD";
            case DRAG_DROP: return "DRAG_DROP";
            case SCROLL: return "SCROLL";
            case KEY: return "KEY";
            case TEXT: return "TEXT";
            case WINDOW_ACTIVATE: return "WINDOW_ACTIVATE";
            case RELEASE: return "RELEASE";
            case TEXT_SELECT: return "TEXT_SELECT";
            case INVOKE: return "INVOKE";
            case KEY_CHORD: return "KEY_CHORD";
            case WINDOW_CYCLE: return "WINDOW_CYCLE";
            case ABORT: return "ABORT";
            case QUERY_PHYSICAL_STATE: return "QUERY_PHYSICAL_STATE";
            case SET_VALUE: return "SET_VALUE";
            case SELECT: return "SELECT";
            default: return "UNKNOWN";
        }
    }
}
