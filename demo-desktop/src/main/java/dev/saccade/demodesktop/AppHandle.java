package dev.saccade.demodesktop;

import java.nio.file.Path;

/**
 * A demo app the desktop started, once it was ready: its top-level window is managed by the
 * window manager (listed in {@code _NET_CLIENT_LIST}) and it is registered on the AT-SPI2 bus.
 * Pass it to {@link TestDesktop#closeApp(AppHandle)} to stop it mid-test.
 */
public final class AppHandle {
    private final DemoApp app;
    private final LaunchedProcess launched;
    private final long windowId;
    private final String title;
    private final String accessibleBusName;

    AppHandle(
        final DemoApp app,
        final LaunchedProcess launched,
        final long windowId,
        final String title,
        final String accessibleBusName) {
        this.app = app;
        this.launched = launched;
        this.windowId = windowId;
        this.title = title;
        this.accessibleBusName = accessibleBusName;
    }

    public DemoApp app() {
        return app;
    }

    public long pid() {
        return launched.pid();
    }

    /** The X id of its top-level (client) window, as listed in {@code _NET_CLIENT_LIST}. */
    public long windowId() {
        return windowId;
    }

    /** The window title when it became ready ({@code _NET_WM_NAME}, else {@code WM_NAME}). */
    public String title() {
        return title;
    }

    /**
     * Its unique name on the accessibility bus, e.g. ":1.3"; its root object is
     * {@code /org/a11y/atspi/accessible/root}.
     */
    public String accessibleBusName() {
        return accessibleBusName;
    }

    /** Where its stdout goes (zenity prints the entered text there); deleted with the desktop. */
    public Path stdoutFile() {
        return launched.stdoutFile();
    }

    /** The process has not exited (a dialog closes itself on OK or Cancel). */
    public boolean isRunning() {
        return !ProcessStopper.isGone(launched.process().toHandle());
    }

    /** Waits for the app to exit on its own and returns its exit code, or -1 at the timeout. */
    public int awaitExit(final long timeoutMs) throws InterruptedException {
        return launched.process().waitFor(timeoutMs, java.util.concurrent.TimeUnit.MILLISECONDS)
            ? launched.process().exitValue() : -1;
    }

    LaunchedProcess launched() {
        return launched;
    }

    @Override
    public String toString() {
        return app + "[pid=" + pid() + ", window=" + X11Query.hex(windowId) + ", title=\"" + title
            + "\", bus=" + accessibleBusName + "]";
    }
}
