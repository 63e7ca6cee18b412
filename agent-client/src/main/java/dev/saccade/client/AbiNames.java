package dev.saccade.client;

import dev.saccade.protocol.Relation;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceBit;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetState;
import dev.saccade.protocol.TextMatch;

/**
 * The words of the agent ABI's enumerations and bits (§2), in value order: the one table of
 * each that the CLI, MCP and PCP read and print.
 */
public final class AbiNames {
    /** Role 0..10 (§2 "Role") and the extended roles 11..29 (§2 "Extended roles"). */
    public static final NameTable ROLES = new NameTable(
        new String[] {"unknown", "button", "link", "text", "text-field", "checkbox", "radio", "menu-item", "slider",
            "image", "window", "list-item", "tree-item", "tab", "menu", "menu-bar", "combo-box", "toggle",
            "spin-button", "table-cell", "label", "dialog", "progress-bar", "scroll-bar", "tool-bar", "list",
            "scroll-pane", "tab-list", "heading", "landmark"},
        new int[] {Role.UNKNOWN, Role.BUTTON, Role.LINK, Role.TEXT, Role.TEXT_FIELD, Role.CHECKBOX, Role.RADIO,
            Role.MENU_ITEM, Role.SLIDER, Role.IMAGE, Role.WINDOW, Role.LIST_ITEM, Role.TREE_ITEM, Role.TAB, Role.MENU,
            Role.MENU_BAR, Role.COMBO_BOX, Role.TOGGLE, Role.SPIN_BUTTON, Role.TABLE_CELL, Role.LABEL, Role.DIALOG,
            Role.PROGRESS_BAR, Role.SCROLL_BAR, Role.TOOL_BAR, Role.LIST, Role.SCROLL_PANE, Role.TAB_LIST,
            Role.HEADING, Role.LANDMARK});

    /** Target state bits (§2 "Target states"), one word per bit. */
    public static final NameTable STATES = new NameTable(
        new String[] {"checked", "selected", "expanded", "focused", "pressed", "editable", "read-only", "expandable"},
        new int[] {TargetState.CHECKED, TargetState.SELECTED, TargetState.EXPANDED, TargetState.FOCUSED,
            TargetState.PRESSED, TargetState.EDITABLE, TargetState.READ_ONLY, TargetState.EXPANDABLE});

    /** ScopeKind 1..4 (§5.3). */
    public static final NameTable SCOPE_KINDS = new NameTable(
        new String[] {"active-window", "display", "desktop", "rect", "window"},
        new int[] {ScopeKind.ACTIVE_WINDOW, ScopeKind.DISPLAY, ScopeKind.DESKTOP, ScopeKind.RECT, ScopeKind.WINDOW});

    /** SourceMode 1..4 (§5.3). */
    public static final NameTable SOURCE_MODES = new NameTable(
        new String[] {"pixel", "semantic", "grid", "fused"},
        new int[] {SourceMode.PIXEL, SourceMode.SEMANTIC, SourceMode.GRID, SourceMode.FUSED});

    /** TextMatch 1..3 (§5.6): raw UTF-8 bytes, case-sensitive. */
    public static final NameTable TEXT_MATCHES = new NameTable(
        new String[] {"exact", "prefix", "substring"},
        new int[] {TextMatch.EXACT, TextMatch.PREFIX, TextMatch.SUBSTRING});

    /** Relation 1..9 (§5.6). */
    public static final NameTable RELATIONS = new NameTable(
        new String[] {"self", "parent", "child", "ancestor", "descendant", "sibling", "contains", "contained-by",
            "nearest"},
        new int[] {Relation.SELF, Relation.PARENT, Relation.CHILD, Relation.ANCESTOR, Relation.DESCENDANT,
            Relation.SIBLING, Relation.CONTAINS, Relation.CONTAINED_BY, Relation.NEAREST});

    /** Target capability bits (§2 "TargetCapability"), one word per bit. */
    public static final NameTable TARGET_CAPABILITIES = new NameTable(
        new String[] {"pointer-move", "click", "scroll", "drag-source", "drop-target", "text", "invoke",
            "window-activate", "text-select", "keyboard"},
        new int[] {TargetCapability.POINTER_MOVE, TargetCapability.CLICK, TargetCapability.SCROLL,
            TargetCapability.DRAG_SOURCE, TargetCapability.DROP_TARGET, TargetCapability.TEXT,
            TargetCapability.INVOKE, TargetCapability.WINDOW_ACTIVATE, TargetCapability.TEXT_SELECT,
            TargetCapability.KEYBOARD});

    /** Source bits (§2 "SourceBit"), one word per bit. */
    public static final NameTable SOURCE_BITS = new NameTable(
        new String[] {"neural", "accessibility", "pixel", "grid"},
        new int[] {SourceBit.NEURAL, SourceBit.ACCESSIBILITY, SourceBit.PIXEL, SourceBit.GRID});

    /** Result codes 0..−17 (§2 "ResultCode") as the texts MCP results quote (mcp.md §8). */
    public static final NameTable RESULT_TEXTS = new NameTable(
        new String[] {"ok", "invalid message", "capability denied", "stale generation", "target not found",
            "target inaccessible", "action unsupported", "permission denied", "secure surface", "focus changed",
            "invalid transform", "timeout", "cancelled", "executor lost", "backend failure", "capacity exhausted",
            "activation required", "outcome unconfirmed"},
        new int[] {ResultCode.OK, ResultCode.INVALID_MESSAGE, ResultCode.CAPABILITY_DENIED,
            ResultCode.STALE_GENERATION, ResultCode.TARGET_NOT_FOUND, ResultCode.TARGET_INACCESSIBLE,
            ResultCode.ACTION_UNSUPPORTED, ResultCode.PERMISSION_DENIED, ResultCode.SECURE_SURFACE,
            ResultCode.FOCUS_CHANGED, ResultCode.INVALID_TRANSFORM, ResultCode.TIMEOUT, ResultCode.CANCELLED,
            ResultCode.EXECUTOR_LOST, ResultCode.BACKEND, ResultCode.CAPACITY, ResultCode.ACTIVATION_REQUIRED,
            ResultCode.OUTCOME_UNCONFIRMED});

    private AbiNames() {
    }

    /** The MCP text of a result code; "unknown result" for any other value. */
    public static String resultText(final int result) {
        return RESULT_TEXTS.wordOf(result, "unknown result");
    }
}
