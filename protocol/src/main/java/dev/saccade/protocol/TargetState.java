package dev.saccade.protocol;

/**
 * Target state bits (u32), carried in the Target record's last word (offset 84, `states`) to a
 * connection whose Hello asked for {@link HelloFlag#TARGET_STATES}; 0 (the reserved value) for
 * every other connection (spec §2 "Target states", §3 Target).
 */
public final class TargetState {
    /** A check box, radio, toggle or check menu item is on. */
    public static final int CHECKED = 0x01;
    /** A list or tree row, table cell, tab or menu entry is selected (a tab: the current page). */
    public static final int SELECTED = 0x02;
    /** An expandable row or combo box is expanded (open). */
    public static final int EXPANDED = 0x04;
    /** It has the keyboard focus. */
    public static final int FOCUSED = 0x08;
    /** A button is pressed in (a toggle held down). */
    public static final int PRESSED = 0x10;
    /** Its text accepts input. */
    public static final int EDITABLE = 0x20;
    /** A text role whose content cannot be changed by the user. */
    public static final int READ_ONLY = 0x40;
    /** It can be expanded (a tree row with children, a combo box): EXPANDED clear means collapsed. */
    public static final int EXPANDABLE = 0x80;
    public static final int ALL = 0xFF;
    /**
     * Window facts (§2), only on WINDOW targets and only for a connection that asked for
     * {@link HelloFlag#WINDOW_FACTS}: the window is minimized.
     */
    public static final int MINIMIZED = 0x100;
    /** Window facts: the owning process id sits in bits 9–31 (0 when unknown or above {@link #MAX_PROCESS_ID}). */
    public static final int PROCESS_SHIFT = 9;
    public static final long MAX_PROCESS_ID = (1L << (Integer.SIZE - PROCESS_SHIFT)) - 1;
    /** The bits of the window facts. */
    public static final int WINDOW_FACTS = ~ALL;

    /** The window-facts bits of a window owned by {@code processId}. */
    public static int windowFacts(final boolean minimized, final long processId) {
        final long pid = processId > 0 && processId <= MAX_PROCESS_ID ? processId : 0;
        return (minimized ? MINIMIZED : 0) | (int) (pid << PROCESS_SHIFT);
    }

    /** The process id in a WINDOW target's window facts, 0 when unknown. */
    public static long processId(final int states) {
        return (states & 0xFFFFFFFFL) >>> PROCESS_SHIFT;
    }

    /** Names by bit position, for rendering; null where the ABI defines no bit. */
    static final String[] NAMES = new String[32];

    static {
        NAMES[Integer.numberOfTrailingZeros(CHECKED)] = "CHECKED";
        NAMES[Integer.numberOfTrailingZeros(SELECTED)] = "SELECTED";
        NAMES[Integer.numberOfTrailingZeros(EXPANDED)] = "EXPANDED";
        NAMES[Integer.numberOfTrailingZeros(FOCUSED)] = "FOCUSED";
        NAMES[Integer.numberOfTrailingZeros(PRESSED)] = "PRESSED";
        NAMES[Integer.numberOfTrailingZeros(EDITABLE)] = "EDITABLE";
        NAMES[Integer.numberOfTrailingZeros(READ_ONLY)] = "READ_ONLY";
        NAMES[Integer.numberOfTrailingZeros(EXPANDABLE)] = "EXPANDABLE";
    }

    private TargetState() {
    }
}
