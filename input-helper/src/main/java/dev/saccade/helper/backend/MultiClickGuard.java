package dev.saccade.helper.backend;

/**
 * Keeps two separate actions from merging into a double or triple click: toolkits
 * count a press as the second of a double click when it comes within the double-click time of
 * the previous press of the same button and within the double-click distance of it (GTK:
 * {@code GtkGestureMultiPress}; Qt alike), whoever meant what. A TEXT focus click 200 ms
 * after an earlier click on the same entry selected a word and lost the agent's ctrl+a
 * selection. So the first press of each plan waits until the last press of that button is more
 * than the double-click time (and a margin) in the past, when it lands within the distance;
 * presses later in the same plan (CLICK with a repeat count) are meant to join and do not wait.
 *
 * <p>Backend-neutral: the time and distance come from {@link InputBackend}; the X11 backend reads
 * XSETTINGS, any other falls back to GTK's defaults. One thread, the helper's.
 */
public final class MultiClickGuard {
    /** GTK's gtk-double-click-time default, and Qt's on X11, when no settings manager says otherwise. */
    public static final int DEFAULT_TIME_MS = 400;
    /** GTK's gtk-double-click-distance default. */
    public static final int DEFAULT_DISTANCE_PX = 5;
    /**
     * Added to the double-click time. GTK 3's multi-press gesture does not compare timestamps: it
     * starts a timer of the double-click time when its main loop handles the press, and a press
     * before the timer fired joins, so a press handled late (the app busy answering accessibility
     * calls after input) moves the window on. Measured on the test desktop with two CLICK actions
     * on one entry point: a 30 ms margin gave a double click in the first round, 200 ms none in 5.
     */
    static final long MARGIN_NS = 200_000_000L;

    private final int[] lastX = new int[3];
    private final int[] lastY = new int[3];
    private final long[] lastPressNs = new long[3];
    private final boolean[] pressed = new boolean[3];

    /**
     * How long the first press of a plan must wait, in ns (0: go now), for {@code button} at
     * ({@code x}, {@code y}) desktop pixels, at {@code nowNs}.
     */
    public long waitNs(final int button, final int x, final int y, final long nowNs, final int timeMs,
        final int distancePx) {
        final int i = index(button);
        if (i < 0 || !pressed[i] || Math.abs(x - lastX[i]) > distancePx || Math.abs(y - lastY[i]) > distancePx) {
            return 0;
        }
        final long wait = lastPressNs[i] + timeMs * 1_000_000L + MARGIN_NS - nowNs;
        return Math.max(0, wait);
    }

    /** A press of {@code button} went out at ({@code x}, {@code y}). */
    public void pressed(final int button, final int x, final int y, final long nowNs) {
        final int i = index(button);
        if (i >= 0) {
            pressed[i] = true;
            lastX[i] = x;
            lastY[i] = y;
            lastPressNs[i] = nowNs;
        }
    }

    private static int index(final int button) {
        switch (button) {
            case dev.saccade.protocol.Button.LEFT: return 0;
            case dev.saccade.protocol.Button.MIDDLE: return 1;
            case dev.saccade.protocol.Button.RIGHT: return 2;
            default: return -1;
        }
    }
}
