package dev.saccade.demodesktop;

import static dev.saccade.demodesktop.TestDesktopConfiguration.DIRECTORY_PARENT_PROP_NAME;
import static dev.saccade.demodesktop.TestDesktopConfiguration.DISPLAY_FIRST_PROP_NAME;
import static dev.saccade.demodesktop.TestDesktopConfiguration.SCREEN_DEPTH_PROP_NAME;
import static dev.saccade.demodesktop.TestDesktopConfiguration.SCREEN_HEIGHT_PROP_NAME;
import static dev.saccade.demodesktop.TestDesktopConfiguration.SCREEN_WIDTH_PROP_NAME;
import static dev.saccade.demodesktop.TestDesktopConfiguration.START_TIMEOUT_MS_PROP_NAME;
import static dev.saccade.demodesktop.TestDesktopConfiguration.STOP_TIMEOUT_MS_PROP_NAME;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Settings of one {@link TestDesktop}. Each starts from its {@link TestDesktopConfiguration}
 * property or default; setters override both. {@link TestDesktop#start(TestDesktopContext)} concludes
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
    private int screenWidth = TestDesktopConfiguration.screenWidth();
    private int screenHeight = TestDesktopConfiguration.screenHeight();
    private int screenDepth = TestDesktopConfiguration.screenDepth();
    private int firstDisplayNumber = TestDesktopConfiguration.displayFirst();
    private long startTimeoutMs = TestDesktopConfiguration.startTimeoutMs();
    private long stopTimeoutMs = TestDesktopConfiguration.stopTimeoutMs();
    private Path directoryParent = TestDesktopConfiguration.directoryParent();
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
        require(screenWidth > 0 && screenWidth <= 16_384, SCREEN_WIDTH_PROP_NAME + "=" + screenWidth);
        require(screenHeight > 0 && screenHeight <= 16_384, SCREEN_HEIGHT_PROP_NAME + "=" + screenHeight);
        require(screenDepth == 8 || screenDepth == 16 || screenDepth == 24, SCREEN_DEPTH_PROP_NAME + "=" + screenDepth);
        require(firstDisplayNumber >= 0 && firstDisplayNumber < 60_000, DISPLAY_FIRST_PROP_NAME + "=" + firstDisplayNumber);
        require(startTimeoutMs > 0, START_TIMEOUT_MS_PROP_NAME + "=" + startTimeoutMs);
        require(stopTimeoutMs > 0, STOP_TIMEOUT_MS_PROP_NAME + "=" + stopTimeoutMs);
        require(directoryParent != null, DIRECTORY_PARENT_PROP_NAME + "=null");
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
