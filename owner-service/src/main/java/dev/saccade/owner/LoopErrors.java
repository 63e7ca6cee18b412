package dev.saccade.owner;

import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;

/**
 * Errors a loop survived, counted by kind (the exception's class) so that one failing step
 * repeated every tick leaves a few log lines, not a flood: the first of a kind is logged with its
 * stack trace, then one line each time that kind's count reaches a power of two.
 *
 * <p>Written by the loop's thread only; {@link #total()} is readable from any thread.
 */
final class LoopErrors {
    private final Logger log;
    private final String loop;
    /** Guarded by being touched by the loop's thread only; allocates only when an error occurs. */
    private final Map<Class<?>, long[]> byKind = new HashMap<>();
    private volatile long total;

    LoopErrors(final Logger log, final String loop) {
        this.log = log;
        this.loop = loop;
    }

    /** Counts {@code error} and logs it if its kind's count is 1 or a power of two. Loop thread. */
    void record(final Throwable error) {
        total = total + 1;
        final long n = ++byKind.computeIfAbsent(error.getClass(), k -> new long[1])[0];
        if (n == 1) {
            log.error("event=loop_error loop={} kind={} count=1", loop, error.getClass().getName(), error);
        } else if (Long.bitCount(n) == 1) {
            log.error("event=loop_error loop={} kind={} count={} last={}", loop, error.getClass().getName(), n,
                error.getMessage());
        }
    }

    /** Errors survived so far; any thread. */
    long total() {
        return total;
    }

    /**
     * Whether the loop must stop: an {@link Error} (out of memory, stack overflow, a class that
     * failed to link) leaves the JVM or the agent in a state no further step can trust.
     */
    static boolean fatal(final Throwable error) {
        return error instanceof Error;
    }
}
