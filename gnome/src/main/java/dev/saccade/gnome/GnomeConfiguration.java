package dev.saccade.gnome;

/** The GNOME backend's settings ({@code saccade.gnome.*}). */
public final class GnomeConfiguration {
    /** How often the window list is read, in ms. */
    public static final String POLL_MS_PROP_NAME = "saccade.gnome.poll.ms";
    public static final int POLL_MS_DEFAULT = 200;
    /** How often the capture counts the whole desktop as damaged, in ms (the screenshot has no damage events). */
    public static final String CAPTURE_PERIOD_MS_PROP_NAME = "saccade.gnome.capture.period.ms";
    public static final int CAPTURE_PERIOD_MS_DEFAULT = 1_000;

    private GnomeConfiguration() {
    }

    public static int pollMs() {
        return Math.max(20, Integer.getInteger(POLL_MS_PROP_NAME, POLL_MS_DEFAULT));
    }

    public static int capturePeriodMs() {
        return Math.max(100, Integer.getInteger(CAPTURE_PERIOD_MS_PROP_NAME, CAPTURE_PERIOD_MS_DEFAULT));
    }
}
