package dev.saccade.owner.action;

/** The action path's system properties and their defaults; docs/settings.md lists them. */
public final class ActionConfiguration {
    /** The longest wait for the focus after a click. */
    public static final String FOCUS_WAIT_MS_PROP_NAME = "saccade.owner.focus.wait.ms";
    /**
     * 2 s, within the batch deadline: GTK reports the focus within milliseconds of the click on
     * an idle desktop, but with 1 s the three-field form test met FOCUS_CHANGED twice in about 290
     * rounds on a loaded 2-core machine (the field reported FOCUSED soon after).
     */
    public static final long FOCUS_WAIT_MS_DEFAULT = 2_000;

    /**
     * Whether the user lets agents type into a password field: a connection that asks for
     * SECURE_INPUT at Hello gets it only when this is true (D30). Set by the user when starting
     * the owner ({@code SACCADE_JAVA_OPTS=-Dsaccade.owner.secure.input.granted=true}); no request
     * over any socket can change it.
     */
    public static final String SECURE_INPUT_GRANTED_PROP_NAME = "saccade.owner.secure.input.granted";
    public static final boolean SECURE_INPUT_GRANTED_DEFAULT = false;

    private ActionConfiguration() {
    }

    public static boolean secureInputGranted() {
        final String value = System.getProperty(SECURE_INPUT_GRANTED_PROP_NAME);
        return value == null ? SECURE_INPUT_GRANTED_DEFAULT : Boolean.parseBoolean(value);
    }

    public static long focusWaitMs() {
        return Long.getLong(FOCUS_WAIT_MS_PROP_NAME, FOCUS_WAIT_MS_DEFAULT);
    }
}
