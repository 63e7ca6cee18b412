package dev.saccade.atspi;

/**
 * What a reply of a refresh answers ({@link Reply#kind()}): one number per question across every
 * stage of {@link AppRefresh}, in one table so the numbers stay distinct where a batch mixes them
 * (the bulk listing sends its early details with its matches).
 */
final class ReplyKind {
    static final int K_PID = 1;
    static final int K_ROOT_INTERFACES = 2;
    static final int K_ROOT_NAME = 3;
    static final int K_MATCH_ALL = 4;
    static final int K_MATCH_ROLE = 5;
    static final int K_MATCH_STATE = 6;
    static final int K_MATCH_INTERFACE = 7;
    static final int K_CHILDREN = 8;
    static final int K_ROLE = 9;
    static final int K_STATE = 10;
    static final int K_INTERFACES = 11;
    static final int K_NAME = 12;
    static final int K_PROPERTIES = 13;
    static final int K_EXTENTS = 14;
    static final int K_ACTION_COUNT = 15;
    static final int K_CHAR_COUNT = 16;
    static final int K_TEXT = 17;
    static final int K_PEER_ADDRESS = 18;
    /** Details asked together with the bulk listing, for the objects of the last refresh (index: position there). */
    static final int K_EARLY_PROPERTIES = 19;
    static final int K_EARLY_EXTENTS = 20;
    static final int K_EARLY_CHAR_COUNT = 21;
    /** Extents of a top-level object of the last refresh (index: position in {@code KnownApp.nodes}): CHECK and TOUCH. */
    static final int K_WINDOW_EXTENTS = 22;
    /** The bulk listing's one rule for the rare states: objects that have any of them (then asked GetState). */
    static final int K_MATCH_RARE = 23;
    /** GetState asked with the bulk listing, for the last refresh's objects that had a rare state. */
    static final int K_EARLY_STATE = 24;
    /** The application object's toolkit name (probe). */
    static final int K_ROOT_TOOLKIT = 25;
    /** An object's {@code ChildCount} (the guarded walk, see {@code KnownApp#guarded}). */
    static final int K_CHILD_COUNT = 26;
    /** The application object's toolkit version (probe). */
    static final int K_ROOT_VERSION = 27;
    /** A cell of a table that manages its descendants, asked by row and column (index: the table's draft, D49). */
    static final int K_CELL = 28;

    private ReplyKind() {
    }
}
