package dev.saccade.protocol;

/** Target roles (u16) (spec §2). */
public final class Role {
    public static final int UNKNOWN = 0;
    public static final int BUTTON = 1;
    public static final int LINK = 2;
    public static final int TEXT = 3;
    public static final int TEXT_FIELD = 4;
    public static final int CHECKBOX = 5;
    public static final int RADIO = 6;
    public static final int MENU_ITEM = 7;
    public static final int SLIDER = 8;
    public static final int IMAGE = 9;
    public static final int WINDOW = 10;

    private Role() {
    }

    /** The value's name, or "UNKNOWN". */
    public static String name(final int value) {
        switch (value) {
            case UNKNOWN: return "UNKNOWN";
            case BUTTON: return "BUTTON";
            case LINK: return "LINK";
            case TEXT: return "TEXT";
            case TEXT_FIELD: return "TEXT_FIELD";
            case CHECKBOX: return "CHECKBOX";
            case RADIO: return "RADIO";
            case MENU_ITEM: return "MENU_ITEM";
            case SLIDER: return "SLIDER";
            case IMAGE: return "IMAGE";
            case WINDOW: return "WINDOW";
            default: return "UNKNOWN";
        }
    }
}
