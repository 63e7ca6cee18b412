package dev.saccade.demodesktop;

import java.nio.file.Path;

/**
 * The test desktop's system properties and their defaults; {@link TestDesktopContext} starts from
 * these getters. docs/settings.md lists them.
 */
public final class TestDesktopConfiguration {
    /** Width of the virtual screen. */
    public static final String SCREEN_WIDTH_PROP_NAME = "saccade.testdesktop.screen.width";
    public static final int SCREEN_WIDTH_DEFAULT = 1920;

    /** Height of the virtual screen. */
    public static final String SCREEN_HEIGHT_PROP_NAME = "saccade.testdesktop.screen.height";
    public static final int SCREEN_HEIGHT_DEFAULT = 1080;

    /** Colour depth of the virtual screen, in bits. */
    public static final String SCREEN_DEPTH_PROP_NAME = "saccade.testdesktop.screen.depth";
    /** 24 bits: what GTK and Qt expect of a desktop; 16 would change colours in screenshots. */
    public static final int SCREEN_DEPTH_DEFAULT = 24;

    /** First X display number tried. */
    public static final String DISPLAY_FIRST_PROP_NAME = "saccade.testdesktop.display.first";
    /**
     * High enough to stay clear of a developer's real displays (:0, :1) and of the numbers other
     * tools pick first (xvfb-run uses :99).
     */
    public static final int DISPLAY_FIRST_DEFAULT = 100;

    /** Budget for the whole start, and for starting one demo application. */
    public static final String START_TIMEOUT_MS_PROP_NAME = "saccade.testdesktop.start.timeout.ms";
    /**
     * A desktop with the three demo apps is ready in about a second on two cores; the margin is for
     * loaded CI machines and a cold page cache.
     */
    public static final long START_TIMEOUT_MS_DEFAULT = 30_000;

    /** How long each group of processes gets to exit after SIGTERM before SIGKILL. */
    public static final String STOP_TIMEOUT_MS_PROP_NAME = "saccade.testdesktop.stop.timeout.ms";
    /** They all exit in a few ms; a process that does not is stuck, and waiting longer would not help. */
    public static final long STOP_TIMEOUT_MS_DEFAULT = 3_000;

    /** Parent of the desktop's private directory; unset: {@code java.io.tmpdir} (too long a path: {@code /tmp}). */
    public static final String DIRECTORY_PARENT_PROP_NAME = "saccade.testdesktop.directory.parent";

    private TestDesktopConfiguration() {
    }

    public static int screenWidth() {
        return Integer.getInteger(SCREEN_WIDTH_PROP_NAME, SCREEN_WIDTH_DEFAULT);
    }

    public static int screenHeight() {
        return Integer.getInteger(SCREEN_HEIGHT_PROP_NAME, SCREEN_HEIGHT_DEFAULT);
    }

    public static int screenDepth() {
        return Integer.getInteger(SCREEN_DEPTH_PROP_NAME, SCREEN_DEPTH_DEFAULT);
    }

    public static int displayFirst() {
        return Integer.getInteger(DISPLAY_FIRST_PROP_NAME, DISPLAY_FIRST_DEFAULT);
    }

    public static long startTimeoutMs() {
        return Long.getLong(START_TIMEOUT_MS_PROP_NAME, START_TIMEOUT_MS_DEFAULT);
    }

    public static long stopTimeoutMs() {
        return Long.getLong(STOP_TIMEOUT_MS_PROP_NAME, STOP_TIMEOUT_MS_DEFAULT);
    }

    public static Path directoryParent() {
        return Path.of(System.getProperty(DIRECTORY_PARENT_PROP_NAME, System.getProperty("java.io.tmpdir")));
    }
}
