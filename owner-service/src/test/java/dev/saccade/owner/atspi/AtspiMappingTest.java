package dev.saccade.owner.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.owner.source.TargetIds;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
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
    void rolesMapToTheSpecsTargetRoles() {
        assertEquals(Role.BUTTON, targetRole(AtspiMapping.ROLE_PUSH_BUTTON, 0));
        assertEquals(Role.BUTTON, targetRole(AtspiMapping.ROLE_TOGGLE_BUTTON, 0));
        assertEquals(Role.LINK, targetRole(AtspiMapping.ROLE_LINK, 0));
        assertEquals(Role.TEXT_FIELD, targetRole(AtspiMapping.ROLE_ENTRY, AtspiMapping.S_EDITABLE));
        assertEquals(Role.TEXT, targetRole(AtspiMapping.ROLE_TEXT, 0), "a read-only text view");
        assertEquals(Role.TEXT_FIELD, targetRole(AtspiMapping.ROLE_PASSWORD_TEXT, 0));
        assertEquals(Role.TEXT, targetRole(AtspiMapping.ROLE_LABEL, 0));
        assertEquals(Role.TEXT, targetRole(AtspiMapping.ROLE_HEADING, 0));
        assertEquals(Role.CHECKBOX, targetRole(AtspiMapping.ROLE_CHECK_MENU_ITEM, 0));
        assertEquals(Role.RADIO, targetRole(AtspiMapping.ROLE_RADIO_BUTTON, 0));
        assertEquals(Role.MENU_ITEM, targetRole(AtspiMapping.ROLE_MENU_ITEM, 0));
        assertEquals(Role.SLIDER, targetRole(AtspiMapping.ROLE_SCROLL_BAR, 0));
        assertEquals(Role.IMAGE, targetRole(AtspiMapping.ROLE_ICON, 0));
        assertEquals(Role.WINDOW, targetRole(AtspiMapping.ROLE_DIALOG, 0));
        assertEquals(Role.UNKNOWN, targetRole(56, 0), "table cell");
    }

    private static int targetRole(final int atspiRole, final int states) {
        return AtspiMapping.targetRole(AtspiMapping.roleClass(atspiRole), states);
    }

    @Test
    void passwordFieldIsSecureAndRedacted() {
        final int cls = AtspiMapping.roleClass(AtspiMapping.ROLE_PASSWORD_TEXT);
        final int caps = AtspiMapping.capabilities(cls, USABLE_SHOWN | AtspiMapping.S_EDITABLE,
            AtspiMapping.I_TEXT | AtspiMapping.I_EDITABLE_TEXT, -1);
        final int flags = AtspiMapping.flags(cls, USABLE_SHOWN, caps, true, false);
        assertEquals(TargetFlag.SECURE | TargetFlag.TEXT_REDACTED | TargetFlag.ACTIONABLE, flags);
        assertTrue((caps & TargetCapability.TEXT) != 0);
    }

    @Test
    void insensitiveOrHiddenTargetsAreNotActionable() {
        final int cls = AtspiMapping.roleClass(AtspiMapping.ROLE_PUSH_BUTTON);
        final int caps = AtspiMapping.capabilities(cls, USABLE_SHOWN, AtspiMapping.I_ACTION, -1);
        assertEquals(TargetCapability.INVOKE | TargetCapability.CLICK | TargetCapability.POINTER_MOVE, caps);
        assertEquals(TargetFlag.ACTIONABLE, AtspiMapping.flags(cls, USABLE_SHOWN, caps, true, false));
        assertEquals(TargetFlag.DISABLED, AtspiMapping.flags(cls, AtspiMapping.S_SHOWN, caps, true, false));
        assertEquals(TargetFlag.OCCLUDED, AtspiMapping.flags(cls, AtspiMapping.S_USABLE, caps, true, false));
        assertEquals(TargetFlag.OCCLUDED, AtspiMapping.flags(cls, USABLE_SHOWN, caps, false, false), "off screen");
        assertEquals(0, AtspiMapping.capabilities(cls, USABLE_SHOWN, AtspiMapping.I_ACTION, 0), "no actions");
    }

    @Test
    void scrollBarsAndValuesScrollAndFocusableTargetsTakeKeys() {
        final int bar = AtspiMapping.roleClass(AtspiMapping.ROLE_SCROLL_BAR);
        assertEquals(TargetCapability.SCROLL, AtspiMapping.capabilities(bar, USABLE_SHOWN, 0, -1));
        assertEquals(TargetCapability.SCROLL | TargetCapability.KEYBOARD,
            AtspiMapping.capabilities(AtspiMapping.CLASS_OTHER, AtspiMapping.S_FOCUSABLE, AtspiMapping.I_VALUE, -1));
        assertEquals(TargetCapability.TEXT_SELECT, AtspiMapping.capabilities(AtspiMapping.CLASS_OTHER, 0,
            AtspiMapping.I_TEXT | AtspiMapping.I_EDITABLE_TEXT, -1), "EditableText without EDITABLE: no typing");
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
