package dev.saccade.owner.helper;

import java.util.ArrayDeque;

/**
 * At most {@code max} restarts within any window of {@code windowNs}: a helper that dies as soon
 * as it starts is not restarted forever (D5). One thread (the launcher's).
 */
final class RestartBudget {
    private final int max;
    private final long windowNs;
    private final ArrayDeque<Long> taken = new ArrayDeque<>();

    RestartBudget(final int max, final long windowNs) {
        this.max = max;
        this.windowNs = windowNs;
    }

    /** Takes one restart at {@code nowNs} if the window has room; false (nothing taken) if not. */
    boolean tryTake(final long nowNs) {
        while (!taken.isEmpty() && nowNs - taken.peekFirst() > windowNs) {
            taken.pollFirst();
        }
        if (taken.size() >= max) {
            return false;
        }
        taken.addLast(nowNs);
        return true;
    }

    /** Restarts taken within the window as of the last {@link #tryTake}. */
    int taken() {
        return taken.size();
    }
}
