package dev.saccade.helper.backend.mutter;

/** The GNOME input backend's system property and its default; docs/settings.md lists it. */
public final class MutterInputConfiguration {
    /** How long a new RemoteDesktop session's virtual devices get before their first event. */
    public static final String SETTLE_MS_PROP_NAME = "saccade.helper.gnome.settle.ms";
    public static final long SETTLE_MS_DEFAULT = 150;

    private MutterInputConfiguration() {
    }

    public static long settleMs() {
        return Math.max(0, Long.getLong(SETTLE_MS_PROP_NAME, SETTLE_MS_DEFAULT));
    }
}
