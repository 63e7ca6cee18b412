package dev.saccade.atspi;

import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetState;

/**
 * AT-SPI2 numbers (at-spi2-core's {@code atspi-constants.h}, checked against libatspi 2.46) and
 * how they become target roles, capabilities and flags.
 *
 * <p>The source never keeps an object's full AT-SPI role or state set: a bulk refresh asks the
 * application which objects are in each <em>role class</em> and which have each of a few states
 * and interfaces (one {@code Collection.GetMatches} per question), so the per-object facts are
 * the small bit sets defined here.
 */
final class AtspiMapping {
    // AtspiRole values.
    static final int ROLE_ALERT = 2;
    static final int ROLE_CHECK_BOX = 7;
    static final int ROLE_CHECK_MENU_ITEM = 8;
    static final int ROLE_COMBO_BOX = 11;
    static final int ROLE_DIALOG = 16;
    static final int ROLE_FILLER = 20;
    static final int ROLE_FRAME = 23;
    static final int ROLE_ICON = 26;
    static final int ROLE_IMAGE = 27;
    static final int ROLE_LABEL = 29;
    static final int ROLE_LIST = 31;
    static final int ROLE_LIST_ITEM = 32;
    static final int ROLE_MENU = 33;
    static final int ROLE_MENU_BAR = 34;
    static final int ROLE_MENU_ITEM = 35;
    static final int ROLE_PAGE_TAB = 37;
    static final int ROLE_PAGE_TAB_LIST = 38;
    static final int ROLE_PANEL = 39;
    static final int ROLE_PASSWORD_TEXT = 40;
    static final int ROLE_PROGRESS_BAR = 42;
    static final int ROLE_PUSH_BUTTON = 43;
    static final int ROLE_RADIO_BUTTON = 44;
    static final int ROLE_RADIO_MENU_ITEM = 45;
    static final int ROLE_SCROLL_BAR = 48;
    static final int ROLE_SCROLL_PANE = 49;
    static final int ROLE_SLIDER = 51;
    static final int ROLE_SPIN_BUTTON = 52;
    static final int ROLE_TABLE = 55;
    static final int ROLE_TABLE_CELL = 56;
    static final int ROLE_TEAROFF_MENU_ITEM = 59;
    static final int ROLE_TEXT = 61;
    static final int ROLE_TOGGLE_BUTTON = 62;
    static final int ROLE_TOOL_BAR = 63;
    static final int ROLE_TREE = 65;
    static final int ROLE_TREE_TABLE = 66;
    static final int ROLE_WINDOW = 69;
    static final int ROLE_PARAGRAPH = 73;
    static final int ROLE_ENTRY = 79;
    static final int ROLE_HEADING = 83;
    static final int ROLE_SECTION = 85;
    static final int ROLE_FORM = 87;
    static final int ROLE_LINK = 88;
    static final int ROLE_TREE_ITEM = 91;
    /** A word processor's document body (LibreOffice Writer): typed into once the caret is in it (D49). */
    static final int ROLE_DOCUMENT_TEXT = 94;
    static final int ROLE_DOCUMENT_WEB = 95;
    static final int ROLE_GROUPING = 99;
    static final int ROLE_LANDMARK = 110;
    static final int ROLE_STATIC = 116;
    static final int ROLE_PUSH_BUTTON_MENU = 129;
    /** at-spi2-core 2.50 and later (GTK 4's switch); GTK 3's switch says TOGGLE_BUTTON. */
    static final int ROLE_SWITCH = 130;
    /** Role bit sets in a match rule are five 32-bit words: roles 0..159 (libatspi 2.46 defines 0..129). */
    static final int ROLE_WORDS = 5;

    // AtspiStateType values (bit numbers in GetState's two 32-bit words).
    static final int STATE_CHECKED = 4;
    static final int STATE_EDITABLE = 7;
    static final int STATE_ENABLED = 8;
    static final int STATE_EXPANDABLE = 9;
    static final int STATE_EXPANDED = 10;
    static final int STATE_FOCUSABLE = 11;
    static final int STATE_FOCUSED = 12;
    static final int STATE_PRESSED = 20;
    static final int STATE_SELECTED = 23;
    static final int STATE_SENSITIVE = 24;
    static final int STATE_SHOWING = 25;
    static final int STATE_VISIBLE = 30;
    static final int STATE_MANAGES_DESCENDANTS = 31;
    static final int STATE_READ_ONLY = 43;

    /** AtspiCollectionMatchType ALL / ANY; AtspiCollectionSortOrder CANONICAL. */
    static final int MATCH_ALL = 1;
    static final int MATCH_ANY = 2;
    static final int SORT_CANONICAL = 1;

    /** Extents of an object scrolled out of view (GTK tree rows): x and y are INT_MIN. */
    static final int OFF_SCREEN = Integer.MIN_VALUE;

    // Role classes: what the role decides for a target. Index into ROLE_CLASS_ROLES.
    static final int CLASS_OTHER = -1;
    static final int CLASS_BUTTON = 0;
    static final int CLASS_LINK = 1;
    /** Text, entry, a text document's body: a TEXT_FIELD when editable, else TEXT. */
    static final int CLASS_TEXT_INPUT = 2;
    static final int CLASS_PASSWORD = 3;
    /** Label, static, paragraph. */
    static final int CLASS_LABEL = 4;
    static final int CLASS_CHECKBOX = 5;
    static final int CLASS_RADIO = 6;
    static final int CLASS_MENU_ITEM = 7;
    static final int CLASS_SLIDER = 8;
    static final int CLASS_SCROLL_BAR = 9;
    static final int CLASS_IMAGE = 10;
    static final int CLASS_WINDOW = 11;
    static final int CLASS_TOGGLE = 12;
    static final int CLASS_SPIN = 13;
    static final int CLASS_DIALOG = 14;
    static final int CLASS_LIST_ITEM = 15;
    static final int CLASS_TREE_ITEM = 16;
    static final int CLASS_TABLE_CELL = 17;
    static final int CLASS_TAB = 18;
    static final int CLASS_MENU = 19;
    static final int CLASS_MENU_BAR = 20;
    static final int CLASS_COMBO_BOX = 21;
    static final int CLASS_PROGRESS_BAR = 22;
    static final int CLASS_TOOL_BAR = 23;
    /** Lists, trees and tables: the containers of rows and cells. */
    static final int CLASS_LIST = 24;
    static final int CLASS_SCROLL_PANE = 25;
    static final int CLASS_TAB_LIST = 26;
    /** Headings (D53). */
    static final int CLASS_HEADING = 27;
    /** Landmark regions and forms of web pages (D53). */
    static final int CLASS_LANDMARK = 28;
    /** Panels, fillers, sections, groupings, web documents: their actions and text make no target (D51). */
    static final int CLASS_CONTAINER = 29;
    static final int ROLE_CLASSES = 30;

    /** The AT-SPI roles of each class, in class order. */
    static final int[][] ROLE_CLASS_ROLES = {
        {ROLE_PUSH_BUTTON, ROLE_PUSH_BUTTON_MENU},
        {ROLE_LINK},
        {ROLE_TEXT, ROLE_ENTRY, ROLE_DOCUMENT_TEXT},
        {ROLE_PASSWORD_TEXT},
        {ROLE_LABEL, ROLE_STATIC, ROLE_PARAGRAPH},
        {ROLE_CHECK_BOX, ROLE_CHECK_MENU_ITEM},
        {ROLE_RADIO_BUTTON, ROLE_RADIO_MENU_ITEM},
        {ROLE_MENU_ITEM, ROLE_TEAROFF_MENU_ITEM},
        {ROLE_SLIDER},
        {ROLE_SCROLL_BAR},
        {ROLE_IMAGE, ROLE_ICON},
        {ROLE_FRAME, ROLE_WINDOW},
        {ROLE_TOGGLE_BUTTON, ROLE_SWITCH},
        {ROLE_SPIN_BUTTON},
        {ROLE_DIALOG, ROLE_ALERT},
        {ROLE_LIST_ITEM},
        {ROLE_TREE_ITEM},
        {ROLE_TABLE_CELL},
        {ROLE_PAGE_TAB},
        {ROLE_MENU},
        {ROLE_MENU_BAR},
        {ROLE_COMBO_BOX},
        {ROLE_PROGRESS_BAR},
        {ROLE_TOOL_BAR},
        {ROLE_LIST, ROLE_TREE, ROLE_TABLE, ROLE_TREE_TABLE},
        {ROLE_SCROLL_PANE},
        {ROLE_PAGE_TAB_LIST},
        {ROLE_HEADING},
        {ROLE_LANDMARK, ROLE_FORM},
        {ROLE_PANEL, ROLE_FILLER, ROLE_SECTION, ROLE_GROUPING, ROLE_DOCUMENT_WEB},
    };

    /** The target role ({@link Role}) of each class, in class order (TEXT_INPUT: see {@link #targetRole}). */
    private static final int[] CLASS_TARGET_ROLES = {
        Role.BUTTON, Role.LINK, Role.TEXT, Role.TEXT_FIELD, Role.LABEL, Role.CHECKBOX, Role.RADIO, Role.MENU_ITEM,
        Role.SLIDER, Role.SCROLL_BAR, Role.IMAGE, Role.WINDOW, Role.TOGGLE, Role.SPIN_BUTTON, Role.DIALOG,
        Role.LIST_ITEM, Role.TREE_ITEM, Role.TABLE_CELL, Role.TAB, Role.MENU, Role.MENU_BAR, Role.COMBO_BOX,
        Role.PROGRESS_BAR, Role.TOOL_BAR, Role.LIST, Role.SCROLL_PANE, Role.TAB_LIST, Role.HEADING, Role.LANDMARK,
        Role.UNKNOWN};

    private static final int[] CLASS_BY_ROLE = new int[ROLE_WORDS * 32];

    static {
        java.util.Arrays.fill(CLASS_BY_ROLE, CLASS_OTHER);
        for (int c = 0; c < ROLE_CLASSES; c++) {
            for (final int role : ROLE_CLASS_ROLES[c]) {
                CLASS_BY_ROLE[role] = c;
            }
        }
    }

    // The state facts a refresh reads, as bits of a node's state set. Each is one match rule
    // (its states ALL present), so the pairs cost one GetMatches each, not two.
    /** ENABLED and SENSITIVE: else the target is DISABLED. */
    static final int S_USABLE = 1;
    /** SHOWING and VISIBLE: else the target is OCCLUDED (and its extents are not read). */
    static final int S_SHOWN = 1 << 1;
    static final int S_FOCUSABLE = 1 << 2;
    static final int S_EDITABLE = 1 << 3;
    static final int S_CHECKED = 1 << 4;
    static final int S_SELECTED = 1 << 5;
    static final int S_EXPANDED = 1 << 6;
    static final int S_EXPANDABLE = 1 << 7;
    static final int S_FOCUSED = 1 << 8;
    static final int S_PRESSED = 1 << 9;
    static final int S_READ_ONLY = 1 << 10;
    /** AT-SPI states of each bit above, in bit order: an object has the bit if it has all of them. */
    static final int[][] STATE_SETS = {
        {STATE_ENABLED, STATE_SENSITIVE}, {STATE_SHOWING, STATE_VISIBLE}, {STATE_FOCUSABLE}, {STATE_EDITABLE},
        {STATE_CHECKED}, {STATE_SELECTED}, {STATE_EXPANDED}, {STATE_EXPANDABLE}, {STATE_FOCUSED}, {STATE_PRESSED},
        {STATE_READ_ONLY}};
    /**
     * The first of {@link #STATE_SETS} few objects have (CHECKED to READ_ONLY): the bulk listing
     * asks one rule for all of them and GetState of the objects it lists, instead of one rule each.
     */
    static final int FIRST_RARE_STATE_SET = 4;
    /** Our state bits and the {@link TargetState} bit each becomes, pairwise. */
    private static final int[][] TARGET_STATE_OF = {
        {S_CHECKED, TargetState.CHECKED}, {S_SELECTED, TargetState.SELECTED}, {S_EXPANDED, TargetState.EXPANDED},
        {S_EXPANDABLE, TargetState.EXPANDABLE}, {S_FOCUSED, TargetState.FOCUSED}, {S_PRESSED, TargetState.PRESSED},
        {S_READ_ONLY, TargetState.READ_ONLY}};

    // The interfaces a refresh reads, as bits of a node's interface set.
    static final int I_ACTION = 1;
    static final int I_TEXT = 1 << 1;
    static final int I_EDITABLE_TEXT = 1 << 2;
    static final int I_VALUE = 1 << 3;
    static final int I_SELECTION = 1 << 4;
    static final int I_COMPONENT = 1 << 5;
    /** D-Bus names of the interfaces above, in bit order. */
    static final String[] INTERFACE_NAMES = {
        "org.a11y.atspi.Action", "org.a11y.atspi.Text", "org.a11y.atspi.EditableText", "org.a11y.atspi.Value",
        "org.a11y.atspi.Selection", "org.a11y.atspi.Component"};
    /**
     * The names a {@code Collection} match rule takes, in bit order: at-spi2-atk compares the
     * short names, case-insensitively; the D-Bus names match nothing there. No rule for Component
     * (the last bit): every at-spi2-atk widget has it, so a bulk refresh asks each shown object
     * for its extents.
     */
    static final String[] INTERFACE_RULE_NAMES = {"action", "text", "editabletext", "value", "selection"};

    private AtspiMapping() {
    }

    /** The role class of an AT-SPI role, {@link #CLASS_OTHER} for the rest. */
    static int roleClass(final int atspiRole) {
        return atspiRole >= 0 && atspiRole < CLASS_BY_ROLE.length ? CLASS_BY_ROLE[atspiRole] : CLASS_OTHER;
    }

    /**
     * The class of a child of a list, table or tree (AT-SPI role {@code parentRole}) that says it is
     * a label: Java's rows and cells take the role of their renderer, a label, where they are the
     * list's items, the table's cells and the tree's rows (D49). Any other class is kept.
     */
    static int rowClass(final int parentRole, final int roleClass) {
        if (roleClass != CLASS_LABEL) {
            return roleClass;
        }
        return switch (parentRole) {
            case ROLE_TABLE -> CLASS_TABLE_CELL;
            case ROLE_TREE, ROLE_TREE_TABLE -> CLASS_TREE_ITEM;
            case ROLE_LIST -> CLASS_LIST_ITEM;
            default -> roleClass;
        };
    }

    /** A match rule's state bit set (two words) for AT-SPI states. */
    static int[] stateBits(final int... atspiStates) {
        final int[] bits = new int[2];
        for (final int state : atspiStates) {
            bits[state >>> 5] |= 1 << (state & 31);
        }
        return bits;
    }

    /** {@link #states(long, long, int)}: VISIBLE counts as shown (GTK 4.8 keeps SHOWING off, D46). */
    static final int VISIBLE_IS_SHOWN = 1;
    /**
     * {@link #states(long, long, int)}: ENABLED or SENSITIVE alone counts as usable (GTK 4.8 sets
     * only SENSITIVE, LibreOffice's document objects only ENABLED, D46, D47).
     */
    static final int EITHER_IS_USABLE = 2;

    /** Our state bits from GetState's two words. */
    static int states(final long low, final long high) {
        return states(low, high, 0);
    }

    /**
     * Our state bits from GetState's two words, read with {@code leniency}
     * ({@link #VISIBLE_IS_SHOWN}, {@link #EITHER_IS_USABLE}) for a toolkit that leaves states off
     * (see {@link KnownApp#leniency()}); whether the object is on screen is then left to its extents.
     */
    static int states(final long low, final long high, final int leniency) {
        long set = (low & 0xFFFF_FFFFL) | (high << 32);
        if ((leniency & VISIBLE_IS_SHOWN) != 0 && (set & (1L << STATE_VISIBLE)) != 0) {
            set |= 1L << STATE_SHOWING;
        }
        if ((leniency & EITHER_IS_USABLE) != 0 && (set & (1L << STATE_SENSITIVE | 1L << STATE_ENABLED)) != 0) {
            set |= 1L << STATE_SENSITIVE | 1L << STATE_ENABLED;
        }
        int states = 0;
        for (int i = 0; i < STATE_SETS.length; i++) {
            boolean all = true;
            for (final int state : STATE_SETS[i]) {
                all &= (set & (1L << state)) != 0;
            }
            if (all) {
                states |= 1 << i;
            }
        }
        return states;
    }

    /**
     * Role classes are told apart with {@link #ROLE_CLASS_BITS} rules instead of one per class:
     * rule {@code b} matches the roles of every class whose code (class + 1; 0 is "other") has
     * bit {@code b}, so an object's code is the sum of the bits of the rules it matched.
     */
    static final int ROLE_CLASS_BITS = 32 - Integer.numberOfLeadingZeros(ROLE_CLASSES);

    /** The role bit set of rule {@code bit} (see {@link #ROLE_CLASS_BITS}). */
    static int[] roleCodeBits(final int bit) {
        final int[] bits = new int[ROLE_WORDS];
        for (int c = 0; c < ROLE_CLASSES; c++) {
            if (((c + 1) & (1 << bit)) != 0) {
                for (final int role : ROLE_CLASS_ROLES[c]) {
                    bits[role >>> 5] |= 1 << (role & 31);
                }
            }
        }
        return bits;
    }

    /** The class from the code summed over the role rules an object matched. */
    static int roleClassOfCode(final int code) {
        return code >= 1 && code <= ROLE_CLASSES ? code - 1 : CLASS_OTHER;
    }

    /** The bit of a D-Bus interface name, 0 for the ones we do not read. */
    static int interfaceBit(final String name) {
        for (int i = 0; i < INTERFACE_NAMES.length; i++) {
            if (INTERFACE_NAMES[i].equals(name)) {
                return 1 << i;
            }
        }
        return 0;
    }

    /** The target role ({@link Role}) of a role class, extended roles included (§2). */
    static int targetRole(final int roleClass, final int states) {
        if (roleClass == CLASS_TEXT_INPUT) {
            // The EDITABLE state, not the interface: GTK text views and Qt read-only line edits
            // have EditableText but refuse input.
            return editable(states) ? Role.TEXT_FIELD : Role.TEXT;
        }
        if (roleClass == CLASS_LABEL && editable(states)) {
            return Role.TEXT_FIELD; // a paragraph of a document being edited (Writer's, D59)
        }
        return roleClass >= 0 && roleClass < ROLE_CLASSES ? CLASS_TARGET_ROLES[roleClass] : Role.UNKNOWN;
    }

    /**
     * The {@link TargetState} bits of an object (§2 "Target states", §5.13 "States"): its AT-SPI states, and
     * READ_ONLY also for a text role that is not EDITABLE (GTK 3 never says READ_ONLY), and
     * READ_ONLY instead of EDITABLE where the toolkit says both.
     */
    static int targetStates(final int roleClass, final int states) {
        int out = 0;
        for (final int[] pair : TARGET_STATE_OF) {
            if ((states & pair[0]) != 0) {
                out |= pair[1];
            }
        }
        if (editable(states)) {
            out |= TargetState.EDITABLE;
        } else if (roleClass == CLASS_TEXT_INPUT || roleClass == CLASS_SPIN) {
            out |= TargetState.READ_ONLY;
        }
        return out;
    }

    /** EDITABLE and not READ_ONLY: Qt 5 reports both for a read-only line edit (the calculator's display). */
    static boolean editable(final int states) {
        return (states & (S_EDITABLE | S_READ_ONLY)) == S_EDITABLE;
    }

    /**
     * Capabilities ({@link TargetCapability}) from role, interfaces and states (§5.13 "Capabilities").
     *
     * @param actionCount the object's number of actions, or -1 where the refresh did not count
     *     them (bulk refreshes: at-spi2-atk objects with the Action interface always have some)
     * @param scrolls a scroll pane with a showing scroll bar among its children
     */
    static int capabilities(
        final int roleClass, final int states, final int interfaces, final int actionCount, final boolean scrolls) {
        int caps = 0;
        if (roleClass == CLASS_CONTAINER || roleClass == CLASS_LANDMARK) {
            // Chromium and Firefox give every element Action ("click", "showContextMenu") and Text:
            // a section is no more a button than a GTK box is (D51).
            return (states & S_FOCUSABLE) != 0 && (states & S_FOCUSED) != 0 ? TargetCapability.KEYBOARD : 0;
        }
        if ((interfaces & I_ACTION) != 0 && actionCount != 0) {
            caps |= TargetCapability.INVOKE | TargetCapability.CLICK | TargetCapability.POINTER_MOVE;
        }
        if (roleClass == CLASS_TAB || roleClass == CLASS_LIST_ITEM || roleClass == CLASS_TREE_ITEM
            || roleClass == CLASS_TABLE_CELL) {
            // A click selects a tab or a row in every toolkit, with or without an Action (GTK 3's
            // notebook tabs have none).
            caps |= TargetCapability.CLICK | TargetCapability.POINTER_MOVE;
        }
        if (editable(states) && ((interfaces & I_EDITABLE_TEXT) != 0 || roleClass == CLASS_TEXT_INPUT)) {
            // GTK's entries and text views and Qt's line and text edits accept dropped text by default,
            // and their selected text can be dragged out. Chromium's editable entries have no
            // EditableText interface but take typed text like any other (D51).
            caps |= TargetCapability.TEXT | TargetCapability.DROP_TARGET | TargetCapability.DRAG_SOURCE
                | TargetCapability.POINTER_MOVE;
        }
        if ((interfaces & I_TEXT) != 0) {
            caps |= TargetCapability.TEXT_SELECT;
        }
        if ((states & S_FOCUSABLE) != 0) {
            caps |= TargetCapability.KEYBOARD;
        }
        if (roleClass == CLASS_SLIDER || roleClass == CLASS_SCROLL_BAR) {
            // The wheel moves the value, and the thumb follows a press-and-drag (GTK warps it to
            // the pressed point first).
            caps |= TargetCapability.SCROLL | TargetCapability.DRAG_SOURCE | TargetCapability.POINTER_MOVE;
        }
        if (roleClass == CLASS_SPIN || (roleClass == CLASS_SCROLL_PANE && scrolls)) {
            caps |= TargetCapability.SCROLL | TargetCapability.POINTER_MOVE;
        }
        return caps;
    }

    /**
     * Flags ({@link TargetFlag}).
     *
     * @param onScreen the object has extents with a positive area that are not the off-screen sentinel
     */
    static int flags(
        final int roleClass, final int states, final int capabilities, final boolean onScreen, final boolean truncated) {
        int flags = 0;
        if ((states & S_USABLE) == 0) {
            flags |= TargetFlag.DISABLED;
        }
        if ((states & S_SHOWN) == 0 || !onScreen) {
            flags |= TargetFlag.OCCLUDED;
        }
        if (roleClass == CLASS_PASSWORD) {
            flags |= TargetFlag.SECURE | TargetFlag.TEXT_REDACTED;
        }
        if (truncated) {
            flags |= TargetFlag.TEXT_TRUNCATED;
        }
        if (capabilities != 0 && (flags & (TargetFlag.DISABLED | TargetFlag.OCCLUDED)) == 0) {
            flags |= TargetFlag.ACTIONABLE;
        }
        return flags;
    }

    /** Roles whose text content is their text lane (labels only when their name is empty). */
    static boolean readsContent(final int roleClass) {
        return roleClass == CLASS_TEXT_INPUT || roleClass == CLASS_LABEL || roleClass == CLASS_SPIN
            || roleClass == CLASS_HEADING || roleClass == CLASS_TABLE_CELL;
    }

    /** Target roles whose objects read their content (see {@link #readsContent}). */
    static boolean readsContentRole(final int role) {
        return role == Role.TEXT || role == Role.TEXT_FIELD || role == Role.LABEL || role == Role.SPIN_BUTTON
            || role == Role.HEADING || role == Role.TABLE_CELL;
    }

    /**
     * Roles kept even when empty (§5.13 "Left out"): windows and the
     * bars and lists that group controls. Any other object without a name, a text, a capability
     * and a Selection is a layout container and is left out.
     */
    static boolean structural(final int roleClass) {
        return roleClass == CLASS_WINDOW || roleClass == CLASS_DIALOG || roleClass == CLASS_MENU_BAR
            || roleClass == CLASS_TOOL_BAR || roleClass == CLASS_MENU || roleClass == CLASS_TAB_LIST
            || roleClass == CLASS_TAB || roleClass == CLASS_PROGRESS_BAR || roleClass == CLASS_LANDMARK;
    }
}
