package dev.saccade.owner;

import dev.saccade.atspi.AtspiSource;
import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.desktop.AccessibilitySnapshot;
import dev.saccade.owner.action.SemanticInvoker;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetState;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Whether a password field has the keyboard focus now (D30): each SECURE object of the latest
 * accessibility tree is asked for its state by its application ({@code Accessible.GetState}), since
 * the tree may be older than the Tab that moved the focus there. An application that cannot
 * answer counts as focused where its last tree said so.
 */
final class SecureFocus {
    /** Password fields asked at most: a form has one or two; a page of hundreds is not asked about each. */
    static final int MAX_ASKED = 32;

    private SecureFocus() {
    }

    /** Completes with {@link SemanticInvoker#SECURE_FOCUSED} or 0. */
    static CompletableFuture<Integer> ask(final AtspiSource source, final long deadlineNs) {
        final AccessibilitySnapshot latest = source == null ? null : source.latest();
        CompletableFuture<Integer> any = CompletableFuture.completedFuture(0);
        if (latest == null) {
            return any;
        }
        final List<AccessibilityNode> nodes = latest.nodes();
        int asked = 0;
        for (int i = 0; i < nodes.size() && asked < MAX_ASKED; i++) {
            final AccessibilityNode node = nodes.get(i);
            if (!node.hasFlag(TargetFlag.SECURE)) {
                continue;
            }
            asked++;
            final int lastKnown = node.hasState(TargetState.FOCUSED) ? SemanticInvoker.SECURE_FOCUSED : 0;
            final CompletableFuture<Integer> one = source.focusState(node, deadlineNs).thenApply(bits -> bits < 0
                ? lastKnown : (bits & AtspiSource.FOCUSED) != 0 ? SemanticInvoker.SECURE_FOCUSED : 0);
            any = any.thenCombine(one, (x, y) -> x | y);
        }
        return any;
    }
}
