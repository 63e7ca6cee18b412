package dev.saccade.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Conformance case 3: every §2 value, typed in from the spec. */
class AbiConstantsTest {
    @Test
    void limitsAndVersionAreTheSpecs() {
        assertEquals(0x00010001, AgentAbi.API_VERSION);
        assertEquals(1_048_576, AgentAbi.MAX_MESSAGE_BYTES);
        assertEquals(10_000, AgentAbi.MAX_TARGETS);
        assertEquals(32, AgentAbi.MAX_FILTERS);
        assertEquals(64, AgentAbi.MAX_ACTIONS);
        assertEquals(65_536, AgentAbi.MAX_PAYLOAD_BYTES);
        assertEquals(16_384, AgentAbi.MAX_TEXT_BYTES);
        assertEquals(256, AgentAbi.MAX_SELECTION_ITEMS);
        assertEquals(16, AgentAbi.MIN_FRAME_BYTES);
        assertEquals(0xFFFF_FFFFL, AgentAbi.NO_FAILED_ACTION);
        assertEquals(16, AgentAbi.MAX_REPEAT_COUNT);
    }

    @Test
    void messageKindsAndHeaderFlagsAreTheSpecs() {
        assertEquals(1, AgentAbi.OBSERVE_REQUEST);
        assertEquals(2, AgentAbi.OBSERVE_COMPLETION);
        assertEquals(3, AgentAbi.QUERY_REQUEST);
        assertEquals(4, AgentAbi.QUERY_COMPLETION);
        assertEquals(5, AgentAbi.ACTION_BATCH);
        assertEquals(6, AgentAbi.ACTION_COMPLETION);
        assertEquals(7, AgentAbi.HELLO_REQUEST);
        assertEquals(8, AgentAbi.HELLO_COMPLETION);
        assertEquals(0x1, AgentAbi.FLAG_TRUNCATED);
        assertEquals(0x2, AgentAbi.FLAG_NEXT_GENERATION_AVAILABLE);
        assertEquals(0x4, AgentAbi.FLAG_SOURCE_INCOMPLETE);
        assertEquals(0x1, AgentAbi.FLAG_DRY_RUN);
        assertEquals(0x2, AgentAbi.FLAG_VERIFY_NEXT_GENERATION);
        assertEquals(1, AgentAbi.POLICY_STOP_ON_FAILURE);
        assertEquals(2, AgentAbi.POLICY_CONTINUE_ON_FAILURE);
    }

    @Test
    void resultsCarryTheirPlatformErrors() {
        final int[][] rows = {
            {0, 0}, {-1, -1}, {-2, -13}, {-3, -4}, {-4, -8}, {-6, -5}, {-7, -13}, {-8, -13}, {-9, -4},
            {-11, -9}, {-12, -10}, {-13, -6}, {-14, -6}, {-15, -3}, {-16, -7}, {-17, -7}};
        for (final int[] row : rows) {
            assertEquals(row[1], ResultCode.platformErrorFor(row[0]), ResultCode.name(row[0]));
        }
        assertEquals("TARGET_INACCESSIBLE", ResultCode.name(-5));
        assertEquals("INVALID_TRANSFORM", ResultCode.name(-10));
        assertEquals("CAPACITY", ResultCode.name(-15));
        assertEquals("ACTIVATION_REQUIRED", ResultCode.name(-16));
        assertEquals("OUTCOME_UNCONFIRMED", ResultCode.name(-17));
        assertEquals("UNKNOWN", ResultCode.name(-18));
        assertEquals("UNKNOWN", ResultCode.name(1));
    }

    @Test
    void platformCodesMapToResultsAsTheSpecSays() {
        final int[][] rows = {
            {0, 0}, {-1, -1}, {-7, -1}, {-3, -15}, {-4, -3}, {-5, -6}, {-8, -4}, {-9, -11}, {-13, -7},
            {-10, -12}, {-2, -14}, {-6, -14}, {-11, -14}, {-12, -14}};
        for (final int[] row : rows) {
            assertEquals(row[1], ResultCode.fromPlatform(row[0]), "platform " + row[0]);
        }
    }

    @Test
    void minorTwoValuesAreUpstreamsAndClearOfOurs() {
        assertEquals(0x00010002, AgentAbi.API_VERSION_1_2);
        assertEquals(60_000_000_000L, AgentAbi.MAX_ACTION_DURATION_NS);
        assertEquals(5, ScopeKind.WINDOW);
        assertEquals(1 << 7, TargetFlag.BACKGROUND_ACTIONABLE);
        assertEquals(1 << 8, TargetFlag.ACTIVATION_REQUIRED);
        assertEquals(1 << 9, TargetFlag.BACKGROUND_UNSUPPORTED);
        assertEquals(1 << 2, ActionFlag.ALLOW_ACTIVATION);
        assertEquals(1 << 3, ActionFlag.EXPLICIT_WINDOW);
        assertEquals(1, ActionResultFlag.BACKGROUND_ACCESSIBILITY);
        assertEquals(2, ActionResultFlag.WOULD_ACTIVATE);
        assertEquals(4, ActionResultFlag.WINDOW_ACTIVATED);
        assertEquals(8, ActionResultFlag.CG_EVENT);
        assertEquals(-16, ResultCode.ACTIVATION_REQUIRED);
        assertEquals(-17, ResultCode.OUTCOME_UNCONFIRMED);
        // D39: our own additions stay in the upper half of each word, clear of all of these
        assertEquals(0, (ActionFlag.ALLOW_ACTIVATION | ActionFlag.EXPLICIT_WINDOW | ActionFlag.EXPLICIT_POINTS
            | ActionFlag.CYCLE_BACKWARD) & ActionFlag.VALUE_NUMBER);
        assertEquals(0, 0xF & ActionResultFlag.SEMANTIC);
        assertEquals(0, TargetFlag.DISPOSITIONS & 0xFFFF0000);
        assertTrue(ActionKind.SET_VALUE > ActionKind.QUERY_PHYSICAL_STATE && ActionKind.SELECT > ActionKind.SET_VALUE);
        assertTrue(AgentAbi.spoken(AgentAbi.API_VERSION) && AgentAbi.spoken(AgentAbi.API_VERSION_1_2));
        assertTrue(!AgentAbi.spoken(0x00010000) && !AgentAbi.spoken(0x00010003));
    }

    @Test
    void capabilityScopeAndSourceValuesAreTheSpecs() {
        assertEquals(0x01, Capability.OBSERVE);
        assertEquals(0x02, Capability.POINTER);
        assertEquals(0x04, Capability.KEYBOARD);
        assertEquals(0x08, Capability.CLIPBOARD);
        assertEquals(0x10, Capability.WINDOW);
        assertEquals(0x20, Capability.SETTINGS);
        assertEquals(0x17, Capability.POLICY);
        assertEquals(1, ScopeKind.ACTIVE_WINDOW);
        assertEquals(2, ScopeKind.DISPLAY);
        assertEquals(3, ScopeKind.DESKTOP);
        assertEquals(4, ScopeKind.RECT);
        assertEquals(1, SourceMode.PIXEL);
        assertEquals(2, SourceMode.SEMANTIC);
        assertEquals(3, SourceMode.GRID);
        assertEquals(4, SourceMode.FUSED);
        assertEquals(1, FreshnessPolicy.LATEST_VALID);
        assertEquals(2, FreshnessPolicy.AFTER_GENERATION);
        assertEquals(3, FreshnessPolicy.FORCE_REFRESH);
        assertEquals(0x1, FreshnessPolicy.REQUIRE_DAMAGE_CHECK);
        assertEquals(0x2, FreshnessPolicy.REQUIRE_NEURAL_REFRESH);
        assertEquals(0x1, SourceBit.NEURAL);
        assertEquals(0x2, SourceBit.ACCESSIBILITY);
        assertEquals(0x4, SourceBit.PIXEL);
        assertEquals(0x8, SourceBit.GRID);
    }

    @Test
    void targetCapabilitiesFlagsAndRolesAreTheSpecs() {
        final int[] caps = {TargetCapability.POINTER_MOVE, TargetCapability.CLICK, TargetCapability.SCROLL,
            TargetCapability.DRAG_SOURCE, TargetCapability.DROP_TARGET, TargetCapability.TEXT,
            TargetCapability.INVOKE, TargetCapability.WINDOW_ACTIVATE, TargetCapability.TEXT_SELECT,
            TargetCapability.KEYBOARD};
        for (int i = 0; i < caps.length; i++) {
            assertEquals(1 << i, caps[i]);
        }
        final int[] flags = {TargetFlag.ACTIONABLE, TargetFlag.DISABLED, TargetFlag.OCCLUDED, TargetFlag.SECURE,
            TargetFlag.APPROXIMATE, TargetFlag.TEXT_REDACTED, TargetFlag.TEXT_TRUNCATED};
        for (int i = 0; i < flags.length; i++) {
            assertEquals(1 << i, flags[i]);
        }
        final int[] roles = {Role.UNKNOWN, Role.BUTTON, Role.LINK, Role.TEXT, Role.TEXT_FIELD, Role.CHECKBOX,
            Role.RADIO, Role.MENU_ITEM, Role.SLIDER, Role.IMAGE, Role.WINDOW};
        for (int i = 0; i < roles.length; i++) {
            assertEquals(i, roles[i]);
        }
    }

    @Test
    void extendedRolesTheirBaseRolesStatesAndHelloFlagsAreTheSpecs() {
        assertEquals(0x1, HelloFlag.EXTENDED_ROLES);
        assertEquals(0x2, HelloFlag.TARGET_STATES);
        // §2 "Extended roles": value, then its base role, in the order listed.
        final int[][] extended = {
            {Role.LIST_ITEM, Role.TEXT}, {Role.TREE_ITEM, Role.TEXT}, {Role.TAB, Role.BUTTON}, {Role.MENU, Role.MENU_ITEM},
            {Role.MENU_BAR, Role.UNKNOWN}, {Role.COMBO_BOX, Role.BUTTON}, {Role.TOGGLE, Role.BUTTON},
            {Role.SPIN_BUTTON, Role.TEXT_FIELD}, {Role.TABLE_CELL, Role.TEXT}, {Role.LABEL, Role.TEXT},
            {Role.DIALOG, Role.WINDOW}, {Role.PROGRESS_BAR, Role.UNKNOWN}, {Role.SCROLL_BAR, Role.SLIDER},
            {Role.TOOL_BAR, Role.UNKNOWN}, {Role.LIST, Role.UNKNOWN}, {Role.SCROLL_PANE, Role.UNKNOWN},
            {Role.TAB_LIST, Role.UNKNOWN}, {Role.HEADING, Role.TEXT}, {Role.LANDMARK, Role.UNKNOWN}};
        for (int i = 0; i < extended.length; i++) {
            assertEquals(11 + i, extended[i][0]);
            assertEquals(extended[i][1], Role.base(extended[i][0]), Role.name(extended[i][0]));
        }
        for (int role = 0; role <= Role.LAST_BASE; role++) {
            assertEquals(role, Role.base(role), "a base role is its own");
        }
        assertEquals(Role.UNKNOWN, Role.base(30));
        assertEquals(Role.UNKNOWN, Role.base(0xFFFF));
        final int[] states = {TargetState.CHECKED, TargetState.SELECTED, TargetState.EXPANDED, TargetState.FOCUSED,
            TargetState.PRESSED, TargetState.EDITABLE, TargetState.READ_ONLY, TargetState.EXPANDABLE};
        for (int i = 0; i < states.length; i++) {
            assertEquals(1 << i, states[i]);
        }
        assertEquals(84, TargetFlyweight.STATES_OFFSET);
        assertEquals(88, TargetFlyweight.LENGTH);
        assertEquals(36, HelloCompletionFlyweight.ACCEPTED_FLAGS_OFFSET);
        assertEquals(56, HelloCompletionFlyweight.LENGTH);
    }

    @Test
    void filterRelationAndActionValuesAreTheSpecs() {
        final int[] filterFlags = {FilterFlag.STABLE_ID, FilterFlag.ROLE, FilterFlag.TEXT, FilterFlag.CAPABILITY,
            FilterFlag.SOURCE, FilterFlag.GEOMETRY, FilterFlag.CONFIDENCE, FilterFlag.RELATION};
        for (int i = 0; i < filterFlags.length; i++) {
            assertEquals(1 << i, filterFlags[i]);
        }
        assertEquals(1, TextMatch.EXACT);
        assertEquals(2, TextMatch.PREFIX);
        assertEquals(3, TextMatch.SUBSTRING);
        final int[] relations = {Relation.SELF, Relation.PARENT, Relation.CHILD, Relation.ANCESTOR,
            Relation.DESCENDANT, Relation.SIBLING, Relation.CONTAINS, Relation.CONTAINED_BY, Relation.NEAREST};
        for (int i = 0; i < relations.length; i++) {
            assertEquals(i + 1, relations[i]);
        }
        final int[] kinds = {ActionKind.POINTER_MOVE, ActionKind.POINTER_HOVER, ActionKind.CLICK, ActionKind.HOLD,
            ActionKind.DRAG_DROP, ActionKind.SCROLL, ActionKind.KEY, ActionKind.TEXT, ActionKind.WINDOW_ACTIVATE,
            ActionKind.RELEASE, ActionKind.TEXT_SELECT, ActionKind.INVOKE, ActionKind.KEY_CHORD,
            ActionKind.WINDOW_CYCLE, ActionKind.ABORT, ActionKind.QUERY_PHYSICAL_STATE};
        for (int i = 0; i < kinds.length; i++) {
            assertEquals(i + 1, kinds[i]);
        }
        assertEquals(0x1, ActionFlag.EXPLICIT_POINTS);
        assertEquals(0x2, ActionFlag.CYCLE_BACKWARD);
        assertEquals(0x1, Button.LEFT);
        assertEquals(0x2, Button.RIGHT);
        assertEquals(0x4, Button.MIDDLE);
        assertEquals(0x1, Modifier.SHIFT);
        assertEquals(0x2, Modifier.CONTROL);
        assertEquals(0x4, Modifier.ALT);
        assertEquals(0x8, Modifier.META);
        final int[] pre = {PreconditionFlag.GENERATION, PreconditionFlag.PROCESS, PreconditionFlag.WINDOW,
            PreconditionFlag.DISPLAY, PreconditionFlag.TRANSFORM, PreconditionFlag.PERMISSION,
            PreconditionFlag.PHYSICAL_STATE};
        for (int i = 0; i < pre.length; i++) {
            assertEquals(1 << i, pre[i]);
        }
        assertEquals(0x1, PhysicalFlag.SUSPENDED);
        assertEquals(0x2, PhysicalFlag.USER_OVERRIDE);
    }
}
