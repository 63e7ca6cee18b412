package dev.saccade.owner.action;

/** The action path's system property and its default; docs/settings.md lists it. */
public final class ActionConfiguration {
    /** The longest wait for the focus after a click. */
    public static final String FOCUS_WAIT_MS_PROP_NAME = "saccade.owner.focus.wait.ms";
    /**
     * 2 s, within the batch deadline: GTK reports the focus within milliseconds of the click on
     * an idle desktop, but with 1 s the three-field form test met FOCUS_CHANGED twice in about 290
     * rounds on a loaded 2-core machine (the field reported FOCUSED soon after).
     */
    public static final long FOCUS_WAIT_MS_DEFAULT = 2_000;

    private ActionConfiguration() {
    }

    public static long focusWaitMs() {
        return Long.getLong(FOCUS_WAIT_MS_PROP_NAME, FOCUS_WAIT_MS_DEFAULT);
    }
}
