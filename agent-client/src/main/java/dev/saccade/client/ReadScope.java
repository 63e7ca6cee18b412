package dev.saccade.client;

import dev.saccade.protocol.ScopeFlyweight;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceMode;

/**
 * The Scope of an observe or query request (spec §3 "Scope", §5.3), as the options gave it.
 *
 * @param stableId window id (ACTIVE_WINDOW; 0 = the current one) or display id (DISPLAY).
 * @param rect the RECT scope's rect, else null (written as zeros).
 */
public record ReadScope(int kind, int sourceMode, long stableId, Q8Rect rect) {
    /** The whole desktop from every source: what a read without scope options covers. */
    public static final ReadScope DESKTOP = new ReadScope(ScopeKind.DESKTOP, SourceMode.FUSED, 0, null);

    public void writeTo(final ScopeFlyweight scope) {
        scope.clear().kind(kind).sourceMode(sourceMode).stableId(stableId);
        if (rect != null) {
            scope.rect(rect.xQ8(), rect.yQ8(), rect.widthQ8(), rect.heightQ8());
        }
    }
}
