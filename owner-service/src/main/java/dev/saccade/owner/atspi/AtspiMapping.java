package dev.saccade.owner.atspi;

import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;

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
    static final int ROLE_CHECK_BOX = 7;
    static final int ROLE_CHECK_MENU_ITEM = 8;
    static final int ROLE_DIALOG = 16;
    static final int ROLE_FRAME = 23;
    static final int ROLE_ICON = 26;
    static final int ROLE_IMAGE = 27;
    static final int ROLE_LABEL = 29;
    static final int ROLE_MENU_ITEM = 35;
    static final int ROLE_PASSWORD_TEXT = 40;
    static final int ROLE_PUSH_BUTTON = 43;
    static final int ROLE_RADIO_BUTTON = 44;
    static final int ROLE_RADIO_MENU_ITEM = 45;
    static final int ROLE_SCROLL_BAR = 48;
    static final int ROLE_SLIDER = 51;
    static final int ROLE_SPIN_BUTTON = 52;
    static final int ROLE_TEXT = 61;
    static final int ROLE_TOGGLE_BUTTON = 62;
    static final int ROLE_WINDOW = 69;
    static final int ROLE_PARAGRAPH = 73;
    static final int ROLE_ENTRY = 79;
    static final int ROLE_HEADING = 83;
    static final int ROLE_LINK = 88;
    static final int ROLE_STATIC = 116;
    static final int ROLE_PUSH_BUTTON_MENU = 129;
    /** Role bit sets in a match rule are five 32-bit words: roles 0..159 (libatspi 2.46 defines 0..129). */
    static final int ROLE_WORDS = 5;

    // AtspiStateType values (bit numbers in GetState's two 32-bit words).
    static final int STATE_EDITABLE = 7;
    static final int STATE_ENABLED = 8;
    static final int STATE_FOCUSABLE = 11;
    static final int STATE_SENSITIVE = 24;
    static final int STATE_SHOWING = 25;
    static final int STATE_VISIBLE = 30;

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
    /** Text, entry, spin button: a TEXT_FIELD when editable, else TEXT. */
    static final int CLASS_TEXT_INPUT = 2;
    static final int CLASS_PASSWORD = 3;
    /** Label, static, paragraph, heading. */
    static final int CLASS_LABEL = 4;
    static final int CLASS_CHECKBOX = 5;
    static final int CLASS_RADIO = 6;
    static final int CLASS_MENU_ITEM = 7;
    static final int CLASS_SLIDER = 8;
    /** A SLIDER that also scrolls. */
    static final int CLASS_SCROLL_BAR = 9;
    static final int CLASS_IMAGE = 10;
    static final int CLASS_WINDOW = 11;
    static final int ROLE_CLASSES = 12;

    /** The AT-SPI roles of each class, in class order. */
    static final int[][] ROLE_CLASS_ROLES = {
        {ROLE_PUSH_BUTTON, ROLE_TOGGLE_BUTTON, ROLE_PUSH_BUTTON_MENU},
        {ROLE_LINK},
        {ROLE_TEXT, ROLE_ENTRY, ROLE_SPIN_BUTTON},
        {ROLE_PASSWORD_TEXT},
        {ROLE_LABEL, ROLE_STATIC, ROLE_PARAGRAPH, ROLE_HEADING},
        {ROLE_CHECK_BOX, ROLE_CHECK_MENU_ITEM},
        {ROLE_RADIO_BUTTON, ROLE_RADIO_MENU_ITEM},
        {ROLE_MENU_ITEM},
        {ROLE_SLIDER},
        {ROLE_SCROLL_BAR},
        {ROLE_IMAGE, ROLE_ICON},
        {ROLE_FRAME, ROLE_WINDOW, ROLE_DIALOG},
    };

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
    /** AT-SPI states of each bit above, in bit order: an object has the bit if it has all of them. */
    static final int[][] STATE_SETS = {
        {STATE_ENABLED, STATE_SENSITIVE}, {STATE_SHOWING, STATE_VISIBLE}, {STATE_FOCUSABLE}, {STATE_EDITABLE}};

    // The interfaces a refresh reads, as bits of a node's interface set.
    static final int I_ACTION = 1;
    static final int I_TEXT = 1 << 1;
    static final int I_EDITABLE_TEXT = 1 << 2;
    static final int I_VALUE = 1 << 3;
    static final int I_COMPONENT = 1 << 4;
    /** D-Bus names of the interfaces above, in bit order. */
    static final String[] INTERFACE_NAMES = {
        "org.a11y.atspi.Action", "org.a11y.atspi.Text", "org.a11y.atspi.EditableText", "org.a11y.atspi.Value",
        "org.a11y.atspi.Component"};
    /**
     * The names a {@code Collection} match rule takes: at-spi2-atk compares the short names,
     * case-insensitively; the D-Bus names match nothing there. No rule for Component: every
     * at-spi2-atk widget has it, so a bulk refresh asks each shown object for its extents.
     */
    static final String[] INTERFACE_RULE_NAMES = {"action", "text", "editabletext", "value"};

    private AtspiMapping() {
    }

    /** The role class of an AT-SPI role, {@link #CLASS_OTHER} for the rest. */
    static int roleClass(final int atspiRole) {
        return atspiRole >= 0 && atspiRole < CLASS_BY_ROLE.length ? CLASS_BY_ROLE[atspiRole] : CLASS_OTHER;
    }

    /** A match rule's state bit set (two words) for AT-SPI states. */
    static int[] stateBits(final int... atspiStates) {
        final int[] bits = new int[2];
        for (final int state : atspiStates) {
            bits[state >>> 5] |= 1 << (state & 31);
        }
        return bits;
    }

    /** Our state bits from GetState's two words. */
    static int states(final long low, final long high) {
        final long set = (low & 0xFFFF_FFFFL) | (high << 32);
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

    /** The target role ({@link Role}) of a role class. */
    static int targetRole(final int roleClass, final int states) {
        switch (roleClass) {
            case CLASS_BUTTON: return Role.BUTTON;
            case CLASS_LINK: return Role.LINK;
            case CLASS_TEXT_INPUT:
                // The EDITABLE state, not the interface: GTK text views and Qt read-only line edits
                // have EditableText but refuse input.
                return (states & S_EDITABLE) != 0 ? Role.TEXT_FIELD : Role.TEXT;
            case CLASS_PASSWORD: return Role.TEXT_FIELD;
            case CLASS_LABEL: return Role.TEXT;
            case CLASS_CHECKBOX: return Role.CHECKBOX;
            case CLASS_RADIO: return Role.RADIO;
            case CLASS_MENU_ITEM: return Role.MENU_ITEM;
            case CLASS_SLIDER:
            case CLASS_SCROLL_BAR: return Role.SLIDER;
            case CLASS_IMAGE: return Role.IMAGE;
            case CLASS_WINDOW: return Role.WINDOW;
            default: return Role.UNKNOWN;
        }
    }

    /**
     * Capabilities ({@link TargetCapability}) from interfaces and states.
     *
     * @param actionCount the object's number of actions, or -1 where the refresh did not count
     *     them (bulk refreshes: at-spi2-atk objects with the Action interface always have some)
     */
    static int capabilities(final int roleClass, final int states, final int interfaces, final int actionCount) {
        int caps = 0;
        if ((interfaces & I_ACTION) != 0 && actionCount != 0) {
            caps |= TargetCapability.INVOKE | TargetCapability.CLICK | TargetCapability.POINTER_MOVE;
        }
        if ((interfaces & I_EDITABLE_TEXT) != 0 && (states & S_EDITABLE) != 0) {
            caps |= TargetCapability.TEXT;
        }
        if ((interfaces & I_TEXT) != 0) {
            caps |= TargetCapability.TEXT_SELECT;
        }
        if ((states & S_FOCUSABLE) != 0) {
            caps |= TargetCapability.KEYBOARD;
        }
        if ((interfaces & I_VALUE) != 0 || roleClass == CLASS_SCROLL_BAR) {
            caps |= TargetCapability.SCROLL;
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
        return roleClass == CLASS_TEXT_INPUT || roleClass == CLASS_LABEL;
    }
}
