package dev.saccade.pcp;

import dev.saccade.atspi.AtspiSource;
import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.desktop.AccessibilitySnapshot;
import dev.saccade.protocol.ResultCode;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * PCP's AT-SPI path on an accessible target of the current tree: the default action
 * ({@code Action.DoAction}, what the agent protocol's INVOKE runs for such a target) for
 * {@code activate}, {@code EditableText.SetTextContents} for {@code set_value} with text and
 * {@code Value.CurrentValue} for {@code set_value} with a number, {@code Selection.SelectChild}
 * for {@code select} (on the element's parent, or on the element with a child's index). Each answers
 * a platform code of {@link ResultCode}; anything but PLATFORM_OK sends the caller on to input.
 */
final class AccessibleActions {
    private final AtspiSource source;

    AccessibleActions(final AtspiSource source) {
        this.source = source;
    }

    int activate(final long targetId, final long deadlineNs) {
        final AccessibilityNode node = node(targetId);
        return node == null ? ResultCode.PLATFORM_NOT_FOUND : await(source.invoke(node, deadlineNs), deadlineNs);
    }

    int setText(final long targetId, final String text, final long deadlineNs) {
        final AccessibilityNode node = node(targetId);
        return node == null ? ResultCode.PLATFORM_NOT_FOUND : await(source.setTextContents(node, text, deadlineNs), deadlineNs);
    }

    int setValue(final long targetId, final double value, final long deadlineNs) {
        final AccessibilityNode node = node(targetId);
        return node == null ? ResultCode.PLATFORM_NOT_FOUND : await(source.setCurrentValue(node, value, deadlineNs), deadlineNs);
    }

    /** Selects the target in its parent: the parent's {@code Selection.SelectChild}. */
    int select(final long targetId, final long deadlineNs) {
        final AccessibilityNode node = node(targetId);
        return node == null ? ResultCode.PLATFORM_NOT_FOUND : await(source.selectInParent(node, deadlineNs), deadlineNs);
    }

    /** Selects the target's child at {@code childIndex}: the target's own {@code Selection.SelectChild}. */
    int selectChild(final long targetId, final int childIndex, final long deadlineNs) {
        final AccessibilityNode node = node(targetId);
        return node == null ? ResultCode.PLATFORM_NOT_FOUND
            : await(source.selectChild(node, childIndex, deadlineNs), deadlineNs);
    }

    private AccessibilityNode node(final long targetId) {
        final AccessibilitySnapshot latest = source.latest();
        if (latest != null) {
            final List<AccessibilityNode> nodes = latest.nodes();
            for (int i = 0; i < nodes.size(); i++) {
                if (nodes.get(i).targetId() == targetId) {
                    return nodes.get(i);
                }
            }
        }
        return null;
    }

    private static int await(final CompletableFuture<Integer> call, final long deadlineNs) {
        try {
            // The call completes itself with PLATFORM_TIMEOUT at the deadline; the margin is for that.
            return call.get(Math.max(0, deadlineNs - System.nanoTime()) + TimeUnit.SECONDS.toNanos(1), TimeUnit.NANOSECONDS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return ResultCode.PLATFORM_TIMEOUT;
        } catch (final ExecutionException | TimeoutException e) {
            return ResultCode.PLATFORM_TIMEOUT;
        }
    }
}
