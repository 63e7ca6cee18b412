package dev.saccade.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.desktop.TargetIds;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetState;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Pure mapping logic: role classes, the binary-coded role rules, flags, capabilities, ids. */
class AtspiMappingTest {
    private static final int USABLE_SHOWN = AtspiMapping.S_USABLE | AtspiMapping.S_SHOWN;

    @Test
    void binaryRoleRulesGiveBackEveryClassOfEveryRole() {
        for (int role = 0; role < AtspiMapping.ROLE_WORDS * 32; role++) {
            int code = 0;
            for (int bit = 0; bit < AtspiMapping.ROLE_CLASS_BITS; bit++) {
                final int[] bits = AtspiMapping.roleCodeBits(bit);
                if ((bits[role >>> 5] & (1 << (role & 31))) != 0) {
                    code |= 1 << bit;
                }
            }
            assertEquals(AtspiMapping.roleClass(role), AtspiMapping.roleClassOfCode(code), "role " + role);
        }
    }

    @Test
    void labelsInTablesTreesAndListsAreTheirCellsRowsAndItems() {
        final int label = AtspiMapping.roleClass(AtspiMapping.ROLE_LABEL);
        assertEquals(AtspiMapping.CLASS_TABLE_CELL, AtspiMapping.rowClass(AtspiMapping.ROLE_TABLE, label));
        assertEquals(AtspiMapping.CLASS_TREE_ITEM, AtspiMapping.rowClass(AtspiMapping.ROLE_TREE, label));
        assertEquals(AtspiMapping.CLASS_LIST_ITEM, AtspiMapping.rowClass(AtspiMapping.ROLE_LIST, label));
        assertEquals(label, AtspiMapping.rowClass(AtspiMapping.ROLE_PANEL, label), "a label in a panel stays one");
        final int button = AtspiMapping.roleClass(AtspiMapping.ROLE_PUSH_BUTTON);
        assertEquals(button, AtspiMapping.rowClass(AtspiMapping.ROLE_TABLE, button), "a button in a table stays one");
        assertEquals(Role.TEXT_FIELD, targetRole(AtspiMapping.ROLE_DOCUMENT_TEXT, AtspiMapping.S_EDITABLE),
            "an editable document body takes text");
        assertEquals(Role.TEXT_FIELD, targetRole(AtspiMapping.ROLE_PARAGRAPH, AtspiMapping.S_EDITABLE),
            "a paragraph of a document being edited takes text");
        assertEquals(Role.LABEL, targetRole(AtspiMapping.ROLE_PARAGRAPH, 0), "a paragraph of a read-only page is text");
    }

    @Test
    void rolesMapToTheSpecsTargetRoles() {
        assertEquals(Role.BUTTON, targetRole(AtspiMapping.ROLE_PUSH_BUTTON, 0));
        assertEquals(Role.TOGGLE, targetRole(AtspiMapping.ROLE_TOGGLE_BUTTON, 0));
        assertEquals(Role.BUTTON, Role.base(Role.TOGGLE), "a base-ABI client sees a button");
        assertEquals(Role.LINK, targetRole(AtspiMapping.ROLE_LINK, 0));
        assertEquals(Role.TEXT_FIELD, targetRole(AtspiMapping.ROLE_ENTRY, AtspiMapping.S_EDITABLE));
        assertEquals(Role.TEXT, targetRole(AtspiMapping.ROLE_TEXT, 0), "a read-only text view");
        assertEquals(Role.TEXT_FIELD, targetRole(AtspiMapping.ROLE_PASSWORD_TEXT, 0));
        assertEquals(Role.LABEL, targetRole(AtspiMapping.ROLE_LABEL, 0));
        assertEquals(Role.HEADING, targetRole(AtspiMapping.ROLE_HEADING, 0));
        assertEquals(Role.TEXT, Role.base(Role.HEADING), "a base-ABI client sees a heading as text");
        assertEquals(Role.LANDMARK, targetRole(AtspiMapping.ROLE_LANDMARK, 0));
        assertEquals(Role.LANDMARK, targetRole(AtspiMapping.ROLE_FORM, 0));
        assertEquals(Role.UNKNOWN, targetRole(AtspiMapping.ROLE_SECTION, 0));
        assertEquals(Role.TEXT, Role.base(Role.LABEL));
        assertEquals(Role.CHECKBOX, targetRole(AtspiMapping.ROLE_CHECK_MENU_ITEM, 0));
        assertEquals(Role.RADIO, targetRole(AtspiMapping.ROLE_RADIO_BUTTON, 0));
        assertEquals(Role.MENU_ITEM, targetRole(AtspiMapping.ROLE_MENU_ITEM, 0));
        assertEquals(Role.SCROLL_BAR, targetRole(AtspiMapping.ROLE_SCROLL_BAR, 0));
        assertEquals(Role.SLIDER, Role.base(Role.SCROLL_BAR));
        assertEquals(Role.IMAGE, targetRole(AtspiMapping.ROLE_ICON, 0));
        assertEquals(Role.DIALOG, targetRole(AtspiMapping.ROLE_DIALOG, 0));
        assertEquals(Role.WINDOW, Role.base(Role.DIALOG));
        assertEquals(Role.TABLE_CELL, targetRole(AtspiMapping.ROLE_TABLE_CELL, 0));
        assertEquals(Role.TEXT, Role.base(Role.TABLE_CELL));
        assertEquals(Role.TAB, targetRole(AtspiMapping.ROLE_PAGE_TAB, 0));
        assertEquals(Role.BUTTON, Role.base(Role.TAB));
        assertEquals(Role.COMBO_BOX, targetRole(AtspiMapping.ROLE_COMBO_BOX, 0));
        assertEquals(Role.SPIN_BUTTON, targetRole(AtspiMapping.ROLE_SPIN_BUTTON, AtspiMapping.S_EDITABLE));
        assertEquals(Role.TEXT_FIELD, Role.base(Role.SPIN_BUTTON));
        assertEquals(Role.MENU, targetRole(AtspiMapping.ROLE_MENU, 0));
        assertEquals(Role.MENU_ITEM, Role.base(Role.MENU));
        assertEquals(Role.UNKNOWN, targetRole(20, 0), "filler");
        for (int role = 0; role <= Role.LAST_EXTENDED; role++) {
            assertTrue(Role.base(role) >= 0 && Role.base(role) <= Role.LAST_BASE, "base of " + role);
            assertEquals(role <= Role.LAST_BASE ? role : Role.base(role), Role.base(role));
        }
        assertEquals(Role.UNKNOWN, Role.base(Role.LAST_EXTENDED + 1));
    }

    private static int targetRole(final int atspiRole, final int states) {
        return AtspiMapping.targetRole(AtspiMapping.roleClass(atspiRole), states);
    }

    @Test
    void anEditableEntryWithoutEditableTextTakesText() {
        // Chromium's <input> and <textarea>: entry role, EDITABLE, Text and Action but no EditableText.
        final int entry = AtspiMapping.roleClass(AtspiMapping.ROLE_ENTRY);
        final int caps = AtspiMapping.capabilities(entry, USABLE_SHOWN | AtspiMapping.S_EDITABLE | AtspiMapping.S_FOCUSABLE,
            AtspiMapping.I_TEXT | AtspiMapping.I_ACTION, -1, false);
        assertTrue((caps & TargetCapability.TEXT) != 0, "TEXT");
        assertEquals(0, AtspiMapping.capabilities(entry, USABLE_SHOWN, AtspiMapping.I_TEXT, -1, false) & TargetCapability.TEXT,
            "not when it is not editable");
        final int label = AtspiMapping.roleClass(AtspiMapping.ROLE_LABEL);
        assertEquals(0, AtspiMapping.capabilities(label, USABLE_SHOWN | AtspiMapping.S_EDITABLE, AtspiMapping.I_TEXT, -1,
            false) & TargetCapability.TEXT, "an editable label of a rich text document is not a field");
    }

    @Test
    void webContainersWithActionsAreNoTargets() {
        final int[] containers = {AtspiMapping.ROLE_PANEL, AtspiMapping.ROLE_SECTION, AtspiMapping.ROLE_DOCUMENT_WEB,
            AtspiMapping.ROLE_GROUPING, AtspiMapping.ROLE_FILLER};
        for (final int role : containers) {
            final int cls = AtspiMapping.roleClass(role);
            assertEquals(0, AtspiMapping.capabilities(cls, USABLE_SHOWN | AtspiMapping.S_FOCUSABLE,
                AtspiMapping.I_ACTION | AtspiMapping.I_TEXT, -1, false), "role " + role);
            assertTrue(!AtspiMapping.structural(cls), "role " + role);
        }
        assertTrue(AtspiMapping.structural(AtspiMapping.roleClass(AtspiMapping.ROLE_LANDMARK)), "a landmark stays");
        assertEquals(0, AtspiMapping.capabilities(AtspiMapping.roleClass(AtspiMapping.ROLE_LANDMARK), USABLE_SHOWN,
            AtspiMapping.I_ACTION | AtspiMapping.I_TEXT, -1, false), "a landmark is no button");
        assertEquals(TargetCapability.KEYBOARD, AtspiMapping.capabilities(AtspiMapping.roleClass(AtspiMapping.ROLE_DOCUMENT_WEB),
            USABLE_SHOWN | AtspiMapping.S_FOCUSABLE | AtspiMapping.S_FOCUSED, AtspiMapping.I_ACTION, -1, false),
            "the focused page takes keys");
    }

    @Test
    void gtk4ButtonsWithoutShowingAndEnabledAreShownAndUsable() {
        // gnome-calculator's "7" under GTK 4.8: FOCUSABLE, SENSITIVE, VISIBLE; no SHOWING, no ENABLED
        final long button = 0x41000800L;
        assertEquals(0, AtspiMapping.states(button, 0) & (AtspiMapping.S_SHOWN | AtspiMapping.S_USABLE),
            "read literally: hidden and disabled");
        final int gtk4 = AtspiMapping.VISIBLE_IS_SHOWN | AtspiMapping.EITHER_IS_USABLE;
        final int read = AtspiMapping.states(button, 0, gtk4);
        assertTrue((read & AtspiMapping.S_SHOWN) != 0 && (read & AtspiMapping.S_USABLE) != 0);
        assertEquals(0, AtspiMapping.states(0x00000800L, 0, gtk4) & AtspiMapping.S_SHOWN, "not VISIBLE: not shown");
        // Calc's sheet: ENABLED, SHOWING, VISIBLE, MANAGES_DESCENDANTS..., no SENSITIVE
        final long sheet = 0xc24c1980L;
        assertEquals(0, AtspiMapping.states(sheet, 0) & AtspiMapping.S_USABLE, "read literally: disabled");
        assertTrue((AtspiMapping.states(sheet, 0, AtspiMapping.EITHER_IS_USABLE) & AtspiMapping.S_USABLE) != 0);
    }

    @Test
    void toolkitAndApplicationNameChooseHowATreeIsRead() {
        assertTrue(AppProbe.isGtk4("GTK", "4.8.3"));
        assertFalse(AppProbe.isGtk4("GTK", "3.24.38"));
        assertFalse(AppProbe.isGtk4(null, null));
        assertTrue(AppProbe.isGuarded("soffice"));
        assertTrue(AppProbe.isGuarded("LibreOffice Calc"));
        assertFalse(AppProbe.isGuarded("gtk3-demo"));
    }

    @Test
    void passwordFieldIsSecureAndRedacted() {
        final int cls = AtspiMapping.roleClass(AtspiMapping.ROLE_PASSWORD_TEXT);
        final int caps = AtspiMapping.capabilities(cls, USABLE_SHOWN | AtspiMapping.S_EDITABLE,
            AtspiMapping.I_TEXT | AtspiMapping.I_EDITABLE_TEXT, -1, false);
        final int flags = AtspiMapping.flags(cls, USABLE_SHOWN, caps, true, false);
        assertEquals(TargetFlag.SECURE | TargetFlag.TEXT_REDACTED | TargetFlag.ACTIONABLE, flags);
        assertTrue((caps & TargetCapability.TEXT) != 0);
    }

    @Test
    void insensitiveOrHiddenTargetsAreNotActionable() {
        final int cls = AtspiMapping.roleClass(AtspiMapping.ROLE_PUSH_BUTTON);
        final int caps = AtspiMapping.capabilities(cls, USABLE_SHOWN, AtspiMapping.I_ACTION, -1, false);
        assertEquals(TargetCapability.INVOKE | TargetCapability.CLICK | TargetCapability.POINTER_MOVE, caps);
        assertEquals(TargetFlag.ACTIONABLE, AtspiMapping.flags(cls, USABLE_SHOWN, caps, true, false));
        assertEquals(TargetFlag.DISABLED, AtspiMapping.flags(cls, AtspiMapping.S_SHOWN, caps, true, false));
        assertEquals(TargetFlag.OCCLUDED, AtspiMapping.flags(cls, AtspiMapping.S_USABLE, caps, true, false));
        assertEquals(TargetFlag.OCCLUDED, AtspiMapping.flags(cls, USABLE_SHOWN, caps, false, false), "off screen");
        assertEquals(0, AtspiMapping.capabilities(cls, USABLE_SHOWN, AtspiMapping.I_ACTION, 0, false), "no actions");
    }

    @Test
    void capabilitiesFollowWhatTheControlAccepts() {
        final int bar = AtspiMapping.roleClass(AtspiMapping.ROLE_SCROLL_BAR);
        assertEquals(TargetCapability.SCROLL | TargetCapability.DRAG_SOURCE | TargetCapability.POINTER_MOVE,
            AtspiMapping.capabilities(bar, USABLE_SHOWN, AtspiMapping.I_VALUE, -1, false));
        final int progress = AtspiMapping.roleClass(AtspiMapping.ROLE_PROGRESS_BAR);
        assertEquals(0, AtspiMapping.capabilities(progress, USABLE_SHOWN, AtspiMapping.I_VALUE, -1, false),
            "a Value alone does not scroll: a progress bar");
        final int pane = AtspiMapping.roleClass(AtspiMapping.ROLE_SCROLL_PANE);
        assertEquals(0, AtspiMapping.capabilities(pane, USABLE_SHOWN, 0, -1, false), "no scroll bar shows");
        assertEquals(TargetCapability.SCROLL | TargetCapability.POINTER_MOVE,
            AtspiMapping.capabilities(pane, USABLE_SHOWN, 0, -1, true));
        final int tab = AtspiMapping.roleClass(AtspiMapping.ROLE_PAGE_TAB);
        assertEquals(TargetCapability.CLICK | TargetCapability.POINTER_MOVE,
            AtspiMapping.capabilities(tab, USABLE_SHOWN, 0, -1, false), "GTK 3 tabs have no Action, still a click selects");
        final int entry = AtspiMapping.roleClass(AtspiMapping.ROLE_ENTRY);
        assertEquals(TargetCapability.TEXT | TargetCapability.DROP_TARGET | TargetCapability.DRAG_SOURCE
            | TargetCapability.POINTER_MOVE | TargetCapability.TEXT_SELECT | TargetCapability.KEYBOARD, AtspiMapping.capabilities(entry,
            USABLE_SHOWN | AtspiMapping.S_EDITABLE | AtspiMapping.S_FOCUSABLE,
            AtspiMapping.I_TEXT | AtspiMapping.I_EDITABLE_TEXT, -1, false));
        assertEquals(TargetCapability.TEXT_SELECT, AtspiMapping.capabilities(AtspiMapping.CLASS_OTHER, 0,
            AtspiMapping.I_TEXT | AtspiMapping.I_EDITABLE_TEXT, -1, false), "EditableText without EDITABLE: no typing");
    }

    @Test
    void statesBecomeTargetStates() {
        final int check = AtspiMapping.roleClass(AtspiMapping.ROLE_CHECK_BOX);
        assertEquals(TargetState.CHECKED | TargetState.FOCUSED,
            AtspiMapping.targetStates(check, AtspiMapping.S_CHECKED | AtspiMapping.S_FOCUSED | USABLE_SHOWN));
        final int text = AtspiMapping.roleClass(AtspiMapping.ROLE_TEXT);
        assertEquals(TargetState.READ_ONLY, AtspiMapping.targetStates(text, USABLE_SHOWN), "a text that is not editable");
        assertEquals(TargetState.EDITABLE, AtspiMapping.targetStates(text, AtspiMapping.S_EDITABLE));
        final int row = AtspiMapping.roleClass(AtspiMapping.ROLE_TABLE_CELL);
        assertEquals(TargetState.SELECTED | TargetState.EXPANDABLE, AtspiMapping.targetStates(row,
            AtspiMapping.S_SELECTED | AtspiMapping.S_EXPANDABLE));
        final long words = (1L << AtspiMapping.STATE_PRESSED) | (1L << AtspiMapping.STATE_EXPANDED);
        assertEquals(TargetState.PRESSED | TargetState.EXPANDED,
            AtspiMapping.targetStates(AtspiMapping.CLASS_OTHER, AtspiMapping.states(words, 1L << (AtspiMapping.STATE_READ_ONLY - 32)))
                & ~TargetState.READ_ONLY);
        assertEquals(TargetState.READ_ONLY, AtspiMapping.targetStates(AtspiMapping.CLASS_OTHER,
            AtspiMapping.states(0, 1L << (AtspiMapping.STATE_READ_ONLY - 32))), "READ_ONLY from the high word");
    }

    @Test
    void stateWordsBecomeStateBits() {
        final long low = (1L << AtspiMapping.STATE_ENABLED) | (1L << AtspiMapping.STATE_SENSITIVE)
            | (1L << AtspiMapping.STATE_SHOWING) | (1L << AtspiMapping.STATE_FOCUSABLE);
        assertEquals(AtspiMapping.S_USABLE | AtspiMapping.S_FOCUSABLE, AtspiMapping.states(low, 0), "showing, not visible");
        assertEquals(USABLE_SHOWN | AtspiMapping.S_FOCUSABLE,
            AtspiMapping.states(low | (1L << AtspiMapping.STATE_VISIBLE), 0));
    }

    @Test
    void targetIdsAreStableNamespacedAndDistinct() {
        final long seed = AtspiTargetIds.appSeed(":1.7", 4242);
        final long id = AtspiTargetIds.of(seed, "/org/a11y/atspi/accessible/5", 0);
        assertEquals(id, AtspiTargetIds.of(AtspiTargetIds.appSeed(":1.7", 4242), "/org/a11y/atspi/accessible/5", 0));
        assertEquals(TargetIds.namespace(TargetIds.ACCESSIBILITY_NAMESPACE), TargetIds.namespace(id));
        assertNotEquals(id, AtspiTargetIds.of(AtspiTargetIds.appSeed(":1.8", 4242), "/org/a11y/atspi/accessible/5", 0));
        assertNotEquals(id, AtspiTargetIds.of(AtspiTargetIds.appSeed(":1.7", 4243), "/org/a11y/atspi/accessible/5", 0));
        assertNotEquals(id, AtspiTargetIds.of(seed, "/org/a11y/atspi/accessible/5", 1));
        final Set<Long> ids = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            final long other = AtspiTargetIds.of(seed, "/org/a11y/atspi/accessible/" + i, i % 13);
            assertNotEquals(0, other);
            assertTrue(ids.add(other), "collision at " + i);
        }
    }
}
