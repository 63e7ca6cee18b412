package dev.saccade.owner.helper;

/** The owner's side of the input helper link: its system property and default; docs/settings.md lists it. */
public final class HelperLinkConfiguration {
    /** A helper silent this long (it beats about every millisecond while busy, every 200 ms idle) is hung and killed. */
    public static final String HUNG_MS_PROP_NAME = "saccade.owner.helper.hung.ms";
    public static final long HUNG_MS_DEFAULT = 3_000;

    private HelperLinkConfiguration() {
    }

    public static long hungMs() {
        return Long.getLong(HUNG_MS_PROP_NAME, HUNG_MS_DEFAULT);
    }
}
