package dev.saccade.supervisor;

/**
 * When to restart a child that exited: 250 ms after the first exit, doubling with each exit in a
 * row up to 8 s, and back to the start for an exit after a healthy run (5 s by default,
 * {@link SupervisorConfiguration#HEALTHY_RESET_MS_DEFAULT}): only children that die soon after they
 * start make a crash loop; an isolated crash restarts after the first step every time. A child
 * that dies at once therefore costs one process start every 8 s at worst, never a spin, and a
 * child that dies later costs at most one start per healthy run. Pure logic: the caller passes
 * the times; one thread (the supervisor's conductor) owns an instance.
 */
final class Backoff {
    private final long initialMs;
    private final long maxMs;
    private final long healthyResetMs;
    /** Exits in a row without a healthy run between them. */
    private int consecutiveExits;

    Backoff(final long initialMs, final long maxMs, final long healthyResetMs) {
        if (initialMs <= 0 || maxMs < initialMs || healthyResetMs <= 0) {
            throw new IllegalArgumentException("backoff " + initialMs + ".." + maxMs + " ms, reset after " + healthyResetMs + " ms");
        }
        this.initialMs = initialMs;
        this.maxMs = maxMs;
        this.healthyResetMs = healthyResetMs;
    }

    /**
     * A child exited (or failed to start) after running {@code ranMs}; returns how long to wait
     * before starting the next one.
     */
    long onExit(final long ranMs) {
        if (ranMs >= healthyResetMs) {
            consecutiveExits = 0;
        }
        final long delay = delayFor(consecutiveExits);
        consecutiveExits++;
        return delay;
    }

    /** The delay before the restart that follows {@code exitsBefore} earlier exits in a row. */
    long delayFor(final int exitsBefore) {
        final int shift = Math.min(exitsBefore, 62);
        final long delay = initialMs << shift;
        return delay <= 0 || delay > maxMs || (delay >> shift) != initialMs ? maxMs : delay;
    }

    int consecutiveExits() {
        return consecutiveExits;
    }
}
