package dev.saccade.installer;

/** The installer's system property and its default; docs/settings.md lists it. */
public final class InstallerConfiguration {
    /** The {@code systemctl} to run (tests name a stand-in that records its arguments). */
    public static final String SYSTEMCTL_PROP_NAME = "saccade.installer.systemctl";
    public static final String SYSTEMCTL_DEFAULT = "systemctl";

    private InstallerConfiguration() {
    }

    public static String systemctl() {
        return System.getProperty(SYSTEMCTL_PROP_NAME, SYSTEMCTL_DEFAULT);
    }
}
