package dev.saccade.demodesktop;

import java.util.List;
import java.util.Map;

/**
 * openbox, for EWMH: {@code _NET_CLIENT_LIST}, {@code _NET_ACTIVE_WINDOW}, {@code _NET_WM_NAME},
 * focus on map. Plain {@code openbox}, not {@code openbox-session}: no autostart scripts.
 * {@code --sm-disable}: no session manager to talk to. It is ready when the root window names its
 * check window in {@code _NET_SUPPORTING_WM_CHECK}.
 */
final class WindowManager {
    private final LaunchedProcess launched;

    private WindowManager(final LaunchedProcess launched) {
        this.launched = launched;
    }

    static WindowManager start(
        final DesktopEnvironment environment,
        final X11Query x11,
        final SessionDirectory directory,
        final Deadline deadline) {
        final LaunchedProcess openbox = LaunchedProcess.start("openbox", List.of("openbox", "--sm-disable"),
            environment, Map.of(), directory.logs(), false);
        while (!x11.hasWindowManager()) {
            if (!openbox.process().isAlive()) {
                throw new TestDesktopException("openbox exited before managing the display: " + openbox.describe());
            }
            if (deadline.isExpired()) {
                throw new TestDesktopException("openbox did not set _NET_SUPPORTING_WM_CHECK within "
                    + deadline.timeoutMs() + " ms: " + openbox.describe());
            }
            deadline.pauseBeforeNextPoll("openbox");
        }
        return new WindowManager(openbox);
    }

    LaunchedProcess launched() {
        return launched;
    }
}
