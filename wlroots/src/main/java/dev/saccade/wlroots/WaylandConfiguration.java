package dev.saccade.wlroots;

/** The wlroots backend's system properties; docs/settings.md lists them. */
public final class WaylandConfiguration {
    /**
     * Which window source to use on wlroots: unset (sway's IPC where present) or
     * {@code foreign-toplevel} (forced, for tests).
     */
    public static final String WINDOWS_PROP_NAME = "saccade.wayland.windows";
    public static final String FOREIGN_TOPLEVEL = "foreign-toplevel";

    /** The X display of XWayland, whose root is the layout's, for captures on wlroots; unset: DISPLAY. */
    public static final String XDISPLAY_PROP_NAME = "saccade.wayland.xdisplay";

    private WaylandConfiguration() {
    }

    /** Whether {@value #WINDOWS_PROP_NAME} asks for foreign-toplevel even where sway's IPC is present. */
    public static boolean foreignToplevelForced() {
        return FOREIGN_TOPLEVEL.equals(System.getProperty(WINDOWS_PROP_NAME));
    }

    /** XWayland's display name, or the environment's DISPLAY. */
    public static String xDisplay() {
        return System.getProperty(XDISPLAY_PROP_NAME, System.getenv("DISPLAY"));
    }
}
