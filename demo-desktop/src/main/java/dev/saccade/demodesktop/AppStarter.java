package dev.saccade.demodesktop;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Starts demo apps and waits until each is ready: (a) a window with its pid in
 * {@code _NET_CLIENT_LIST}, (b) a connection with its pid registered in the AT-SPI2 registry.
 *
 * <p>Several apps are launched together and awaited together: their start-up (a few hundred ms
 * each, mostly toolkit initialisation) overlaps instead of adding up.
 *
 * <p>Used by the thread holding the desktop's monitor only.
 */
final class AppStarter {
    private final DesktopEnvironment environment;
    private final X11Query x11;
    private final AccessibilityRegistry registry;
    private final Path logDirectory;
    /** Pid and title of every window seen in the client list; dropped when it leaves the list. */
    private final Map<Long, X11Query.WindowProperties> windows = new HashMap<>();
    private int launchCount;
    /** Windows without a pid already handed to an app (Xt apps are matched by title). */
    private final java.util.Set<Long> claimedWithoutPid = new java.util.HashSet<>();

    AppStarter(
        final DesktopEnvironment environment,
        final X11Query x11,
        final AccessibilityRegistry registry,
        final Path logDirectory) {
        this.environment = environment;
        this.x11 = x11;
        this.registry = registry;
        this.logDirectory = logDirectory;
    }

    LaunchedProcess launch(final DemoApp app) {
        return LaunchedProcess.start(app.logName() + "-" + (++launchCount), app.command(), environment,
            app.environment(), logDirectory, false);
    }

    /**
     * @param launched one per app, same order; the caller owns them and stops them on failure.
     */
    List<AppHandle> awaitReady(final List<DemoApp> apps, final List<LaunchedProcess> launched, final Deadline deadline) {
        final AppHandle[] ready = new AppHandle[apps.size()];
        int pending = apps.size();
        Map<String, Long> accessible = Map.of();
        while (true) {
            for (int i = 0; i < ready.length; i++) {
                if (ready[i] == null && !launched.get(i).process().isAlive()) {
                    throw new TestDesktopException(apps.get(i) + " exited before it was ready: "
                        + launched.get(i).describe());
                }
            }
            refreshWindows();
            accessible = registry.applications();
            for (int i = 0; i < ready.length; i++) {
                if (ready[i] == null) {
                    ready[i] = readyHandle(apps.get(i), launched.get(i), accessible);
                    if (ready[i] != null) {
                        pending--;
                    }
                }
            }
            if (pending == 0) {
                return List.of(ready);
            }
            if (deadline.isExpired()) {
                throw notReady(apps, launched, ready, accessible, deadline);
            }
            deadline.pauseBeforeNextPoll("demo apps");
        }
    }

    /** Waits until the window has left the client list (the app exited or unmapped it). */
    void awaitWindowGone(final long windowId, final Deadline deadline) {
        while (contains(x11.clientList(), windowId)) {
            if (deadline.isExpired()) {
                throw new TestDesktopException("window " + X11Query.hex(windowId)
                    + " still listed in _NET_CLIENT_LIST after "
                    + deadline.timeoutMs() + " ms");
            }
            deadline.pauseBeforeNextPoll("window " + X11Query.hex(windowId) + " to close");
        }
        windows.remove(windowId);
    }

    private AppHandle readyHandle(final DemoApp app, final LaunchedProcess launched, final Map<String, Long> accessible) {
        final long pid = launched.pid();
        long windowId = -1;
        String title = "";
        if (!app.accessible()) {
            return untreedHandle(app, launched);
        }
        for (final Map.Entry<Long, X11Query.WindowProperties> window : windows.entrySet()) {
            if (window.getValue().pid() == pid) {
                windowId = window.getKey();
                title = window.getValue().title();
                break;
            }
        }
        if (windowId < 0) {
            return null;
        }
        for (final Map.Entry<String, Long> application : accessible.entrySet()) {
            if (application.getValue() == pid) {
                return new AppHandle(app, launched, windowId, title, application.getKey());
            }
        }
        return null;
    }

    /**
     * An Xt app sets no {@code _NET_WM_PID}: its window is a new one with its title and no pid,
     * one no earlier handle took; it has no accessible application.
     */
    private AppHandle untreedHandle(final DemoApp app, final LaunchedProcess launched) {
        for (final Map.Entry<Long, X11Query.WindowProperties> window : windows.entrySet()) {
            if (window.getValue().pid() <= 0 && app.expectedTitle().equals(window.getValue().title())
                && claimedWithoutPid.add(window.getKey())) {
                return new AppHandle(app, launched, window.getKey(), window.getValue().title(), null);
            }
        }
        return null;
    }

    private void refreshWindows() {
        final long[] clients = x11.clientList();
        // An X id can be handed to a new client once its owner disconnected: forget departed windows.
        windows.keySet().removeIf(id -> !contains(clients, id));
        for (final long id : clients) {
            if (!windows.containsKey(id)) {
                final X11Query.WindowProperties properties = x11.window(id);
                if (!properties.isGone()) {
                    windows.put(id, properties);
                }
            }
        }
    }

    private TestDesktopException notReady(
        final List<DemoApp> apps,
        final List<LaunchedProcess> launched,
        final AppHandle[] ready,
        final Map<String, Long> accessible,
        final Deadline deadline) {
        final List<String> waiting = new ArrayList<>();
        for (int i = 0; i < ready.length; i++) {
            if (ready[i] == null) {
                final long pid = launched.get(i).pid();
                boolean hasWindow = false;
                for (final X11Query.WindowProperties window : windows.values()) {
                    hasWindow |= window.pid() == pid;
                }
                waiting.add(apps.get(i) + " (pid " + pid + "): window " + (hasWindow ? "listed" : "NOT listed")
                    + ", AT-SPI " + (accessible.containsValue(pid) ? "registered" : "NOT registered"
                    + " (GTK needs libatk-adaptor, Qt QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1)")
                    + "; stderr: " + launched.get(i).stderrTail());
            }
        }
        return new TestDesktopException("apps not ready within " + deadline.timeoutMs() + " ms: " + waiting
            + "; windows " + windows + "; AT-SPI applications " + accessible);
    }

    static boolean contains(final long[] ids, final long id) {
        for (final long candidate : ids) {
            if (candidate == id) {
                return true;
            }
        }
        return false;
    }
}
