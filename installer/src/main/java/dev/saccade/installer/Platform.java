package dev.saccade.installer;

import java.util.Locale;

/** The three platforms Saccade has a login item for; each has its own layout and login-item file. */
public enum Platform {
    LINUX,
    MACOS,
    WINDOWS;

    /** The platform this JVM runs on, from {@code os.name}; anything else unix-like counts as Linux. */
    public static Platform current() {
        final String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (os.startsWith("windows")) {
            return WINDOWS;
        }
        if (os.startsWith("mac")) {
            return MACOS;
        }
        return LINUX;
    }

    /** Lower-case name as the command line spells it ({@code linux}, {@code macos}, {@code windows}). */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
