package dev.saccade.wlroots;

/** The wlroots window reader's system property; docs/settings.md lists it. */
public final class WaylandConfiguration {
    /**
     * Which window source to use on wlroots: unset (sway's IPC where present) or
     * {@code foreign-toplevel} (forced, for tests).
     */
    public static final String WINDOWS_PROP_NAME = "saccade.wayland.windows";
    public static final String FOREIGN_TOPLEVEL = "foreign-toplevel";

    private WaylandConfiguration() {
    }

    /** Whether {@value #WINDOWS_PROP_NAME} asks for foreign-toplevel even where sway's IPC is present. */
    public static boolean foreignToplevelForced() {
        return FOREIGN_TOPLEVEL.equals(System.getProperty(WINDOWS_PROP_NAME));
    }
}
