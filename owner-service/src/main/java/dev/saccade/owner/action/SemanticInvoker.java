package dev.saccade.owner.action;

import dev.saccade.protocol.ResultCode;
import java.util.concurrent.CompletableFuture;

/**
 * Runs an accessible target's default action, and the semantic kinds SET_VALUE and SELECT, off
 * the owner thread (AT-SPI on Linux), and asks
 * an accessible target whether it has the keyboard focus now (the focus gate of TEXT and keys).
 */
public interface SemanticInvoker {
    /** {@link #focusState}: the target can take the keyboard focus. */
    int FOCUSABLE = 1;
    /** {@link #focusState}: the target has the keyboard focus. */
    int FOCUSED = 2;
    /** {@link #secureFocus}: a password field has the keyboard focus. */
    int SECURE_FOCUSED = 4;

    /** Whether {@code targetId} is an object this invoker can act on. */
    boolean handles(long targetId);

    /** Completes with a platform code of {@code ResultCode}. */
    CompletableFuture<Integer> invoke(long targetId, long deadlineNs);

    /** SET_VALUE with text (§5.8): the target's whole text, through the application's EditableText. */
    default CompletableFuture<Integer> setText(final long targetId, final String text, final long deadlineNs) {
        return CompletableFuture.completedFuture(ResultCode.PLATFORM_UNSUPPORTED);
    }

    /**
     * TEXT with FILL (D48): the target's whole text replaced through the application's
     * EditableText, then read back from it; PLATFORM_UNSUPPORTED also when the application holds
     * another text afterwards (it rewrote or refused what it was given).
     */
    default CompletableFuture<Integer> fillText(final long targetId, final String text, final long deadlineNs) {
        return CompletableFuture.completedFuture(ResultCode.PLATFORM_UNSUPPORTED);
    }

    /** SET_VALUE with VALUE_NUMBER (§5.8): the target's current value, through the application's Value. */
    default CompletableFuture<Integer> setNumber(final long targetId, final double value, final long deadlineNs) {
        return CompletableFuture.completedFuture(ResultCode.PLATFORM_UNSUPPORTED);
    }

    /** SELECT (§5.8): the target selected in the nearest container that has Selection. */
    default CompletableFuture<Integer> select(final long targetId, final long deadlineNs) {
        return CompletableFuture.completedFuture(ResultCode.PLATFORM_UNSUPPORTED);
    }

    /** SELECT with an index (§5.8): the target's own Selection selects its child at {@code childIndex}. */
    default CompletableFuture<Integer> selectChild(final long targetId, final int childIndex, final long deadlineNs) {
        return CompletableFuture.completedFuture(ResultCode.PLATFORM_UNSUPPORTED);
    }

    /**
     * Completes with {@link #FOCUSABLE} and {@link #FOCUSED} bits read from the application now,
     * or a negative platform code (PLATFORM_UNSUPPORTED where focus cannot be asked).
     */
    default CompletableFuture<Integer> focusState(final long targetId, final long deadlineNs) {
        return CompletableFuture.completedFuture(ResultCode.PLATFORM_UNSUPPORTED);
    }

    /**
     * Whether a pointer action on {@code targetId} aims again once the pointer is over its window:
     * its application corrects where it says its objects lie only then (D54).
     */
    default boolean aimsAfterMove(final long targetId) {
        return false;
    }

    /** Where {@code targetId} lies now, asked of its application: {x, y, width, height} in pixels, or null. */
    default CompletableFuture<int[]> extents(final long targetId, final long deadlineNs) {
        return CompletableFuture.completedFuture(null);
    }

    /**
     * Completes with {@link #SECURE_FOCUSED} when a password field has the keyboard focus now,
     * asked of the applications (the scene may be older than the last Tab), else with 0 (D30).
     */
    default CompletableFuture<Integer> secureFocus(final long deadlineNs) {
        return CompletableFuture.completedFuture(0);
    }
}
