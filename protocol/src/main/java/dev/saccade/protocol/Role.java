package dev.saccade.protocol;

/**
 * Target roles (u16) (spec §2). Roles 0–10 are the ABI's; 11–29 are the extended roles a
 * connection receives only when its Hello asked for {@link HelloFlag#EXTENDED_ROLES} (§1.4, §2
 * "Extended roles"). Everyone else gets each extended role as its {@link #base} role.
 */
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
    /** The last role every client knows. */
    public static final int LAST_BASE = WINDOW;

    // Extended roles (§2 "Extended roles").
    public static final int LIST_ITEM = 11;
    public static final int TREE_ITEM = 12;
    public static final int TAB = 13;
    public static final int MENU = 14;
    public static final int MENU_BAR = 15;
    public static final int COMBO_BOX = 16;
    public static final int TOGGLE = 17;
    public static final int SPIN_BUTTON = 18;
    public static final int TABLE_CELL = 19;
    public static final int LABEL = 20;
    public static final int DIALOG = 21;
    public static final int PROGRESS_BAR = 22;
    public static final int SCROLL_BAR = 23;
    public static final int TOOL_BAR = 24;
    public static final int LIST = 25;
    public static final int SCROLL_PANE = 26;
    public static final int TAB_LIST = 27;
    /** A heading of a document or web page (D53). */
    public static final int HEADING = 28;
    /** A landmark region of a web page: banner, navigation, main, form and the like (D53). */
    public static final int LANDMARK = 29;
    public static final int LAST_EXTENDED = LANDMARK;

    private static final String[] NAMES = {
        "UNKNOWN", "BUTTON", "LINK", "TEXT", "TEXT_FIELD", "CHECKBOX", "RADIO", "MENU_ITEM", "SLIDER", "IMAGE", "WINDOW",
        "LIST_ITEM", "TREE_ITEM", "TAB", "MENU", "MENU_BAR", "COMBO_BOX", "TOGGLE", "SPIN_BUTTON", "TABLE_CELL", "LABEL",
        "DIALOG", "PROGRESS_BAR", "SCROLL_BAR", "TOOL_BAR", "LIST", "SCROLL_PANE", "TAB_LIST",
        "HEADING", "LANDMARK"};

    /** The base role (0–10) of each role 0..{@link #LAST_EXTENDED}, by value. */
    private static final int[] BASE = {
        UNKNOWN, BUTTON, LINK, TEXT, TEXT_FIELD, CHECKBOX, RADIO, MENU_ITEM, SLIDER, IMAGE, WINDOW,
        TEXT, TEXT, BUTTON, MENU_ITEM, UNKNOWN, BUTTON, BUTTON, TEXT_FIELD, TEXT, TEXT,
        WINDOW, UNKNOWN, SLIDER, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, TEXT, UNKNOWN};

    private Role() {
    }

    /** The value's name, or "UNKNOWN". */
    public static String name(final int value) {
        return value >= 0 && value < NAMES.length ? NAMES[value] : "UNKNOWN";
    }

    /**
     * What a client that knows only roles 0–10 receives for {@code role} (§2 "Extended roles"):
     * the role itself when it is one of those, its base role when it is extended, UNKNOWN otherwise.
     */
    public static int base(final int role) {
        return role >= 0 && role < BASE.length ? BASE[role] : UNKNOWN;
    }
}
