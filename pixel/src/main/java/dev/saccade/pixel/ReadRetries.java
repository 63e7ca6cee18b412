package dev.saccade.pixel;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Windows whose last reading ran out of time, read again with more. A terminal changes its pixels
 * without an accessibility event and, once the shell has printed, draws nothing more: a reading
 * the deadline cut (a loaded machine; the small-text look comes last, so a command's output line
 * was the part left unread) would stand until the next drawing, since the same pixels are not
 * analysed again. Such a window is read again after the quiet period, the same pixels included,
 * with its deadline doubled on each cut in a row up to {@link #MAX_GROWTH}×, at most
 * {@link #MAX_RETRIES} times; what the cut readings finished (boxes, text bands, small-text rows)
 * is answered from the analyzer's memory, so each retry goes on where the last one stopped. A
 * reading that finishes, or one cut by the per-box budget rather than by time, ends the retries.
 * Pixel thread only.
 */
final class ReadRetries {
    /** Readings again of a window whose readings ran out of time, before its next drawing. */
    static final int MAX_RETRIES = 3;
    /** The most a window's deadline grows: ×4 (1 s becomes 4 s). */
    static final int MAX_GROWTH = 4;

    /** Readings in a row of each window that ran out of time. */
    private final Map<Long, Integer> cuts = new HashMap<>();

    /** The deadline of the window's next reading: the base, doubled for each cut reading in a row. */
    int deadlineMs(final long xid, final int baseMs) {
        final int n = cuts.getOrDefault(xid, 0);
        return (int) Math.min((long) baseMs * MAX_GROWTH, (long) baseMs << Math.min(n, 30));
    }

    /** Whether the window's pixels are read again although they are those of its last reading. */
    boolean readsAgain(final long xid) {
        final int n = cuts.getOrDefault(xid, 0);
        return n > 0 && n <= MAX_RETRIES;
    }

    /** Notes a reading of the window: whether it ran out of time. */
    void read(final long xid, final boolean outOfTime) {
        if (outOfTime) {
            cuts.merge(xid, 1, Integer::sum);
        } else {
            cuts.remove(xid);
        }
    }

    /** Adds the windows due to be read again to {@code dirty}; true if there are any. */
    boolean addDue(final Set<Long> dirty) {
        boolean any = false;
        for (final Map.Entry<Long, Integer> e : cuts.entrySet()) {
            if (e.getValue() <= MAX_RETRIES) {
                any |= dirty.add(e.getKey());
            }
        }
        return any;
    }

    /** Forgets windows no longer served. */
    void retain(final Set<Long> served) {
        cuts.keySet().retainAll(served);
    }
}
