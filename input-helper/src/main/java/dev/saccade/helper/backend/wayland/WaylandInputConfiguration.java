package dev.saccade.helper.backend.wayland;

/** The wlroots input backend's system property and its default; docs/settings.md lists it. */
public final class WaylandInputConfiguration {
    /** How long new virtual pointer and keyboard devices get before their first event. */
    public static final String SETTLE_MS_PROP_NAME = "saccade.helper.wayland.settle.ms";
    public static final long SETTLE_MS_DEFAULT = 150;

    private WaylandInputConfiguration() {
    }

    public static long settleMs() {
        return Long.getLong(SETTLE_MS_PROP_NAME, SETTLE_MS_DEFAULT);
    }
}
