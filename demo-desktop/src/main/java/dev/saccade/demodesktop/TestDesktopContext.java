package dev.saccade.demodesktop;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Settings of one {@link TestDesktop}. Each has a system property ({@code saccade.testdesktop.*})
 * and a default; setters override both. {@link TestDesktop#start(TestDesktopContext)} concludes
 * the context, after which it is frozen.
 *
 * <pre>{@code
 * try (TestDesktop desktop = TestDesktop.start(new TestDesktopContext()
 *         .apps(DemoApp.GTK3_DEMO, DemoApp.QT_CALCULATOR))) {
 *     ...
 * }
 * }</pre>
 */
public final class TestDesktopContext {
    public static final String SCREEN_WIDTH_PROP = "saccade.testdesktop.screen.width";
    public static final int SCREEN_WIDTH_DEFAULT = 1920;
    public static final String SCREEN_HEIGHT_PROP = "saccade.testdesktop.screen.height";
    public static final int SCREEN_HEIGHT_DEFAULT = 1080;
    /** 24 bits: what GTK and Qt expect of a desktop; 16 would change colours in screenshots. */
    public static final String SCREEN_DEPTH_PROP = "saccade.testdesktop.screen.depth";
    public static final int SCREEN_DEPTH_DEFAULT = 24;
    /**
     * First display number tried. High enough to stay clear of a developer's real displays (:0,
     * :1) and of the numbers other tools pick first (xvfb-run uses :99).
     */
    public static final String FIRST_DISPLAY_PROP = "saccade.testdesktop.display.first";
    public static final int FIRST_DISPLAY_DEFAULT = 100;
    /**
     * Budget for the whole start, and for one {@link TestDesktop#startApp(DemoApp)}. A desktop
     * with the three demo apps is ready in about a second on two cores; the margin is for loaded CI
     * machines and a cold page cache.
     */
    public static final String START_TIMEOUT_PROP = "saccade.testdesktop.start.timeout.ms";
    public static final long START_TIMEOUT_DEFAULT_MS = 30_000;
    /**
     * How long each group of processes gets to exit after SIGTERM before SIGKILL. They all exit in
     * a few ms; a process that does not is stuck, and waiting longer would not help.
     */
    public static final String STOP_TIMEOUT_PROP = "saccade.testdesktop.stop.timeout.ms";
    public static final long STOP_TIMEOUT_DEFAULT_MS = 3_000;
    /**
     * Parent of the private directory. Defaults to {@code java.io.tmpdir}; a parent too long for
     * the Unix socket paths inside falls back to {@code /tmp} (see {@link SessionDirectory}).
     */
    public static final String DIRECTORY_PARENT_PROP = "saccade.testdesktop.directory.parent";

    private int screenWidth = Integer.getInteger(SCREEN_WIDTH_PROP, SCREEN_WIDTH_DEFAULT);
    private int screenHeight = Integer.getInteger(SCREEN_HEIGHT_PROP, SCREEN_HEIGHT_DEFAULT);
    private int screenDepth = Integer.getInteger(SCREEN_DEPTH_PROP, SCREEN_DEPTH_DEFAULT);
    private int firstDisplayNumber = Integer.getInteger(FIRST_DISPLAY_PROP, FIRST_DISPLAY_DEFAULT);
    private long startTimeoutMs = Long.getLong(START_TIMEOUT_PROP, START_TIMEOUT_DEFAULT_MS);
    private long stopTimeoutMs = Long.getLong(STOP_TIMEOUT_PROP, STOP_TIMEOUT_DEFAULT_MS);
    private Path directoryParent = Path.of(System.getProperty(DIRECTORY_PARENT_PROP, System.getProperty("java.io.tmpdir")));
    private final List<DemoApp> apps = new ArrayList<>();
    private boolean concluded;

    public TestDesktopContext screenSize(final int width, final int height) {
        checkNotConcluded();
        screenWidth = width;
        screenHeight = height;
        return this;
    }

    public TestDesktopContext screenDepth(final int depth) {
        checkNotConcluded();
        screenDepth = depth;
        return this;
    }

    public TestDesktopContext firstDisplayNumber(final int n) {
        checkNotConcluded();
        firstDisplayNumber = n;
        return this;
    }

    public TestDesktopContext startTimeoutMs(final long ms) {
        checkNotConcluded();
        startTimeoutMs = ms;
        return this;
    }

    public TestDesktopContext stopTimeoutMs(final long ms) {
        checkNotConcluded();
        stopTimeoutMs = ms;
        return this;
    }

    public TestDesktopContext directoryParent(final Path parent) {
        checkNotConcluded();
        directoryParent = parent;
        return this;
    }

    /** Apps started with the desktop, in this order (one instance per entry). */
    public TestDesktopContext apps(final DemoApp... apps) {
        checkNotConcluded();
        this.apps.clear();
        Collections.addAll(this.apps, apps);
        return this;
    }

    public int screenWidth() {
        return screenWidth;
    }

    public int screenHeight() {
        return screenHeight;
    }

    public int screenDepth() {
        return screenDepth;
    }

    public int firstDisplayNumber() {
        return firstDisplayNumber;
    }

    public long startTimeoutMs() {
        return startTimeoutMs;
    }

    public long stopTimeoutMs() {
        return stopTimeoutMs;
    }

    public Path directoryParent() {
        return directoryParent;
    }

    public List<DemoApp> apps() {
        return Collections.unmodifiableList(apps);
    }

    /** Validates and freezes the settings; a second call is refused. */
    public TestDesktopContext conclude() {
        if (concluded) {
            throw new IllegalStateException("TestDesktopContext concluded twice");
        }
        concluded = true;
        require(screenWidth > 0 && screenWidth <= 16_384, SCREEN_WIDTH_PROP + "=" + screenWidth);
        require(screenHeight > 0 && screenHeight <= 16_384, SCREEN_HEIGHT_PROP + "=" + screenHeight);
        require(screenDepth == 8 || screenDepth == 16 || screenDepth == 24, SCREEN_DEPTH_PROP + "=" + screenDepth);
        require(firstDisplayNumber >= 0 && firstDisplayNumber < 60_000, FIRST_DISPLAY_PROP + "=" + firstDisplayNumber);
        require(startTimeoutMs > 0, START_TIMEOUT_PROP + "=" + startTimeoutMs);
        require(stopTimeoutMs > 0, STOP_TIMEOUT_PROP + "=" + stopTimeoutMs);
        require(directoryParent != null, DIRECTORY_PARENT_PROP + "=null");
        return this;
    }

    boolean isConcluded() {
        return concluded;
    }

    private void checkNotConcluded() {
        if (concluded) {
            throw new IllegalStateException("TestDesktopContext is concluded");
        }
    }

    private static void require(final boolean valid, final String setting) {
        if (!valid) {
            throw new IllegalArgumentException("invalid test desktop setting: " + setting);
        }
    }
}
