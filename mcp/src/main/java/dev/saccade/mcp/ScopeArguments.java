package dev.saccade.mcp;

import dev.saccade.client.AbiNames;
import dev.saccade.client.Q8Rect;
import dev.saccade.client.ReadScope;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceMode;

/**
 * The scope rule of mcp.md §5, shared by observe and query: {@code scope}, {@code scopeId}, {@code windowId},
 * {@code sourceMode} and the four rect members become the request's {@link ReadScope}, or null
 * when they break the rule (the tool answers its "Invalid … scope" message).
 */
final class ScopeArguments {
    /** Input names of ScopeKind 1..5. */
    static final String[] SCOPES = AbiNames.SCOPE_KINDS.words().toArray(new String[0]);
    /** Input names of SourceMode 1..4. */
    static final String[] SOURCE_MODES = AbiNames.SOURCE_MODES.words().toArray(new String[0]);
    static final String[] RECT_MEMBERS = {"xQ8", "yQ8", "widthQ8", "heightQ8"};

    private ScopeArguments() {
    }

    static ReadScope parse(final ToolArguments a) {
        int kind = ScopeKind.DESKTOP;
        int status = a.enumeration("scope", SCOPES);
        if (status == ToolArguments.INVALID) {
            return null;
        }
        if (status == ToolArguments.PRESENT) {
            kind = (int) a.value() + 1;
        }
        long scopeId = 0;
        status = a.u64("scopeId");
        if (status == ToolArguments.INVALID) {
            return null;
        }
        if (status == ToolArguments.PRESENT) {
            scopeId = a.value();
        }
        // scope window names its window by windowId (agent-abi §5.3), or by scopeId like the others
        status = a.u64("windowId");
        if (status == ToolArguments.INVALID) {
            return null;
        }
        if (status == ToolArguments.PRESENT) {
            if (kind != ScopeKind.WINDOW || (scopeId != 0 && scopeId != a.value())) {
                return null;
            }
            scopeId = a.value();
        }
        int sourceMode = SourceMode.FUSED;
        status = a.enumeration("sourceMode", SOURCE_MODES);
        if (status == ToolArguments.INVALID) {
            return null;
        }
        if (status == ToolArguments.PRESENT) {
            sourceMode = (int) a.value() + 1;
        }
        final int[] rect = new int[RECT_MEMBERS.length];
        int members = 0;
        for (int i = 0; i < RECT_MEMBERS.length; i++) {
            status = a.i32(RECT_MEMBERS[i]);
            if (status == ToolArguments.INVALID) {
                return null;
            }
            if (status == ToolArguments.PRESENT) {
                rect[i] = (int) a.value();
                members++;
            }
        }
        final boolean valid;
        switch (kind) {
            case ScopeKind.RECT:
                valid = members == RECT_MEMBERS.length && rect[2] > 0 && rect[3] > 0 && scopeId == 0;
                break;
            case ScopeKind.DISPLAY:
                valid = members == 0 && scopeId != 0;
                break;
            case ScopeKind.DESKTOP:
                valid = members == 0 && scopeId == 0;
                break;
            case ScopeKind.WINDOW:
                valid = members == 0 && scopeId != 0;
                break;
            default: // ACTIVE_WINDOW: any scopeId, 0 = the current window
                valid = members == 0;
                break;
        }
        if (!valid) {
            return null;
        }
        return new ReadScope(kind, sourceMode, scopeId,
            members == 0 ? null : new Q8Rect(rect[0], rect[1], rect[2], rect[3]));
    }

    /** The input name of a scope kind, or "unknown". */
}
