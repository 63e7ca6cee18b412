package dev.saccade.helper;

/**
 * Paces pointer motion while a button is held, the way toolkits' drag-and-drop needs it: a
 * move becomes intermediate positions {@link #STEP_NS} apart of at most
 * {@link #MAX_STEP_PX}, so the drag source sees motion past its threshold and the drop target
 * sees the pointer arrive (XDND position messages and their status answers take a round trip
 * each), with a pause for the drag to begin after the first step; before the release the pointer rests on the drop point for {@link #SETTLE_NS}, with one
 * last nudge so the target is told the final position. Measured on GTK 3: press, one 12 px step,
 * one jump and a release began the drag and never dropped (16 of 16 runs); HOLD, four moves about
 * 120 ms apart and RELEASE dropped every time; with 16 ms steps and a 120 ms rest a GTK entry to
 * entry drop failed once in 10 rounds under load, and with 100 ms and 200 ms about once in 35
 * on a machine loaded 8 times over (GTK answers its own XDND messages in its event queue behind
 * our release: pacing cannot wait for it). Bounded: at most {@link #MAX_STEPS} steps a move,
 * about 1 s for a whole drag, and {@link #END_WAIT_NS} more for its end (below): within 2 s.
 *
 * <p>The drag must have ended before the action does: at 100 rounds a GTK entry-to-entry drag
 * "hung" once in 50 to 100 (within 6 to 32 rounds with two busy loops beside it): the form stayed
 * idle, took no OK click, and Escape then reached the dialog. The drag had begun well before our release
 * (the XdndSelection had its new owner), but GTK holds its pointer grab until it has processed the
 * release, and under load the next action's click (the OK) reached the X server first, went to
 * the drag's grab and was eaten. After a drag's release the pacer waits until no other client
 * holds a pointer grab (the toolkit has processed the release: dropped or cancelled), at most
 * {@link #END_WAIT_NS}; a drag still grabbing then fails the action with a timeout (nothing of
 * ours is held: the release went out). Measured with two busy loops beside it: the wait took
 * 6 ms at p50, 72 ms at most, and 100 rounds of 100 dropped.
 *
 * <p>Backend-neutral: it only says where and when; the plan executor moves and waits. One thread.
 */
public final class DragPacer {
    /** Between two intermediate positions: within the 15–30 ms a hand's motion events come at. */
    public static final long STEP_NS = 25_000_000L;
    /** The longest step: more than GTK's 8 px drag threshold, so the first one starts the drag. */
    public static final int MAX_STEP_PX = 24;
    /** At most this many steps a move (a long drag takes bigger steps rather than more time). */
    public static final int MAX_STEPS = 16;
    /**
     * After the first held step: the drag source begins its drag (GTK grabs the pointer and looks
     * for XDND-aware windows, round trips of its own) before more motion comes.
     */
    public static final long BEGIN_NS = 150_000_000L;
    /** How long the pointer rests on the drop point before the release. */
    public static final long SETTLE_NS = 300_000_000L;
    /** The longest wait after a drag's release for the toolkit to let the pointer go. */
    public static final long END_WAIT_NS = 1_000_000_000L;
    /** Between two looks at the pointer grab while waiting for the drag to end. */
    public static final long END_POLL_NS = 5_000_000L;

    private long lastMotionNs;
    /** Held steps since the last release. */
    private int steps;

    /** How many steps a held move from ({@code x0}, {@code y0}) to ({@code x1}, {@code y1}) takes (≥ 1). */
    public static int steps(final int x0, final int y0, final int x1, final int y1) {
        final long dx = (long) x1 - x0;
        final long dy = (long) y1 - y0;
        final double distance = Math.sqrt((double) (dx * dx + dy * dy));
        return (int) Math.max(1, Math.min(MAX_STEPS, Math.ceil(distance / MAX_STEP_PX)));
    }

    /** Coordinate {@code i} of {@code n} steps from {@code from} to {@code to} (the last is {@code to}). */
    public static int at(final int from, final int to, final int i, final int n) {
        return from + (int) ((long) (to - from) * i / n);
    }

    /** A held move's step went out at {@code nowNs}. */
    public void moved(final long nowNs) {
        lastMotionNs = nowNs;
        steps++;
    }

    /**
     * How long to wait at {@code nowNs} before the next held step: {@link #BEGIN_NS} after the
     * first step since the press, {@link #STEP_NS} after any other, counted from that step; 0
     * before the first.
     */
    public long gapNs(final long nowNs) {
        if (steps == 0) {
            return 0;
        }
        return Math.max(0, lastMotionNs + (steps == 1 ? BEGIN_NS : STEP_NS) - nowNs);
    }

    /**
     * Before a release at {@code nowNs}: how long to rest on the drop point first (0 when no held
     * motion came just before, e.g. a click). Clears the motion.
     */
    public long settleNs(final long nowNs) {
        if (lastMotionNs == 0) {
            return 0;
        }
        final long wait = lastMotionNs + SETTLE_NS - nowNs;
        lastMotionNs = 0;
        steps = 0;
        return Math.max(0, Math.min(SETTLE_NS, wait));
    }

    /** Whether held motion went out since the last release. */
    public boolean dragging() {
        return lastMotionNs != 0;
    }
}
