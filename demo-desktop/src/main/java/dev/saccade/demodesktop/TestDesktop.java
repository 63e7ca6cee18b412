package dev.saccade.demodesktop;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real headless Linux desktop for tests and for {@code saccade up}: Xvfb, a D-Bus session bus,
 * openbox, the AT-SPI2 accessibility bus and registry (D-Bus activated) and demo apps, all private
 * to this instance and all stopped by {@link #close()}.
 *
 * <p>Start order: a private 0700 directory (XDG_RUNTIME_DIR, caches, config, HOME, logs), Xvfb on
 * a free display, dbus-daemon, openbox, the AT-SPI2 bus and registry, then the apps in parallel.
 * Each step waits for a real readiness signal to one start deadline. Close runs the other way: apps, openbox, the session
 * bus with everything it activated (found by environment, see {@link DesktopProcessScan}), Xvfb,
 * then anything still carrying our environment; each group gets SIGTERM, then SIGKILL at the
 * deadline. A JVM shutdown hook closes the desktop if its owner never does (Ctrl-C), and a
 * {@link DesktopLifeline} watchdog process does if the JVM dies without running hooks (SIGKILL).
 *
 * <p>No JUnit here: the CLI uses this class at runtime. Tests get one per test class from
 * {@code dev.saccade.testdesktop.TestDesktopExtension} in the test-desktop module.
 *
 * <p>Thread safety: every method synchronises on the desktop; the shutdown hook closes it from
 * its own thread. A call blocks at most for the start or stop timeouts.
 */
public final class TestDesktop implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TestDesktop.class);

    private final TestDesktopContext context;
    private final Thread shutdownHook;
    /** Every app process ever launched, ready or not: stopped first at close. */
    private final List<LaunchedProcess> appProcesses = new ArrayList<>();
    private final List<AppHandle> apps = new ArrayList<>();
    private SessionDirectory directory;
    private DesktopLifeline lifeline;
    private DesktopEnvironment environment;
    private XvfbServer xvfb;
    private SessionBus sessionBus;
    private WindowManager windowManager;
    private X11Query x11;
    private AccessibilityRegistry registry;
    private AppStarter appStarter;
    private boolean closed;

    private TestDesktop(final TestDesktopContext context) {
        this.context = context;
        this.shutdownHook = new Thread(this::closeOnShutdown, "saccade-test-desktop-shutdown");
    }

    /** A desktop of the default size (1920x1080x24) running the given apps. */
    public static TestDesktop start(final DemoApp... apps) {
        return start(new TestDesktopContext().apps(apps));
    }

    /**
     * Starts a desktop and returns once it and every app of the context are ready.
     *
     * @param context concluded here if the caller did not.
     * @throws TestDesktopException naming the step that failed and what its program printed;
     *                              whatever had started is stopped again.
     */
    public static TestDesktop start(final TestDesktopContext context) {
        if (!context.isConcluded()) {
            context.conclude();
        }
        RequiredPrograms.check(context.apps());
        final TestDesktop desktop = new TestDesktop(context);
        Runtime.getRuntime().addShutdownHook(desktop.shutdownHook);
        try {
            desktop.startAll();
            return desktop;
        } catch (final RuntimeException | Error e) {
            try {
                desktop.close();
            } catch (final RuntimeException closeFailure) {
                e.addSuppressed(closeFailure);
            }
            throw e;
        }
    }

    /** Every process of our uid may connect, cookie or not (in-process Xlib clients); no other uid (D29). */
    private void admitOurUid() {
        final ToolCommand.Result admitted = ToolCommand.run(environment,
            XAuthority.admitUsersCommand(List.of(System.getProperty("user.name"))));
        if (!admitted.succeeded()) {
            throw new TestDesktopException("xhost could not admit our uid on " + xvfb.display() + ": "
                + admitted.stderr().strip());
        }
    }

    private synchronized void startAll() {
        final long startNs = System.nanoTime();
        final Deadline deadline = Deadline.afterMs(context.startTimeoutMs());
        try {
            directory = SessionDirectory.create(context.directoryParent());
        } catch (final IOException e) {
            throw new TestDesktopException("cannot create the private directory in " + context.directoryParent(), e);
        }
        lifeline = DesktopLifeline.arm(directory);
        environment = new DesktopEnvironment(directory);
        final XAuthority authority;
        try {
            authority = XAuthority.create(directory.runtime());
        } catch (final IOException e) {
            throw new TestDesktopException("cannot write the X authority file in " + directory.runtime(), e);
        }
        environment.put(XAuthority.XAUTHORITY, authority.file().toString());

        xvfb = XvfbServer.start(context, environment, directory.logs(), authority, deadline);
        lifeline.xvfbStarted(xvfb.displayNumber(), xvfb.launched().pid());
        environment.put(DesktopEnvironment.DISPLAY, xvfb.display());
        admitOurUid();
        x11 = new X11Query(environment, xvfb.display());
        final long xvfbNs = System.nanoTime();

        sessionBus = SessionBus.start(directory, environment, deadline);
        environment.put(DesktopEnvironment.DBUS_SESSION_BUS_ADDRESS, sessionBus.address());
        final long busNs = System.nanoTime();

        windowManager = WindowManager.start(environment, x11, directory, deadline);
        final long windowManagerNs = System.nanoTime();

        // Before any app: see AccessibilityRegistry for the Qt race this avoids.
        registry = new AccessibilityRegistry(environment);
        registry.start(deadline);
        final long accessibilityNs = System.nanoTime();

        appStarter = new AppStarter(environment, x11, registry, directory.logs());
        if (!context.apps().isEmpty()) {
            launchAndAwait(context.apps(), deadline);
        }
        final long readyNs = System.nanoTime();
        LOG.info("event=desktop-start display={} dir={} apps={} xvfbMs={} busMs={} openboxMs={} atspiMs={} appsMs={}"
            + " startMs={}", xvfb.display(), directory.root(), context.apps(), millis(xvfbNs - startNs),
            millis(busNs - xvfbNs), millis(windowManagerNs - busNs), millis(accessibilityNs - windowManagerNs),
            millis(readyNs - accessibilityNs), millis(readyNs - startNs));
    }

    /** The X display, e.g. ":100". */
    public synchronized String display() {
        checkStarted();
        return xvfb.display();
    }

    public synchronized int displayNumber() {
        checkStarted();
        return xvfb.displayNumber();
    }

    public int screenWidth() {
        return context.screenWidth();
    }

    public int screenHeight() {
        return context.screenHeight();
    }

    /**
     * What a process must see to use this desktop, on top of its inherited environment: DISPLAY,
     * DBUS_SESSION_BUS_ADDRESS, XDG_RUNTIME_DIR, XDG_CACHE_HOME, XDG_CONFIG_HOME, XDG_DATA_HOME,
     * XDG_STATE_HOME, HOME (all private), LC_ALL=C.UTF-8, GDK_BACKEND=x11, QT_QPA_PLATFORM=xcb,
     * GSETTINGS_BACKEND=memory. Also drop {@link #droppedVariables()}, or use
     * {@link #configure(ProcessBuilder)}, which does both.
     *
     * <p>A process started with this environment belongs to the desktop: close() stops it too.
     */
    public synchronized Map<String, String> environment() {
        checkStarted();
        return Collections.unmodifiableMap(new LinkedHashMap<>(environment.variables()));
    }

    /** Inherited variables that would point a child elsewhere (WAYLAND_DISPLAY, AT_SPI_BUS_ADDRESS, ...). */
    public static List<String> droppedVariables() {
        return DesktopEnvironment.DROPPED_VARIABLES;
    }

    /** Points a process at this desktop: removes {@link #droppedVariables()}, adds {@link #environment()}. */
    public synchronized ProcessBuilder configure(final ProcessBuilder builder) {
        checkStarted();
        return environment.applyTo(builder);
    }

    /** The private directory (0700); deleted by close(). */
    public synchronized Path directory() {
        checkStarted();
        return directory.root();
    }

    /** XDG_RUNTIME_DIR of the desktop (0700): session bus socket, {@code at-spi/bus_N}. */
    public synchronized Path runtimeDir() {
        checkStarted();
        return directory.runtime();
    }

    /** Stdout and stderr of every process the desktop started. */
    public synchronized Path logDir() {
        checkStarted();
        return directory.logs();
    }

    /** The X authority file (XAUTHORITY): the display's cookie, mode 0600 (D29). */
    public synchronized Path xAuthority() {
        checkStarted();
        return Path.of(environment.variables().get(XAuthority.XAUTHORITY));
    }

    /** The session bus address (DBUS_SESSION_BUS_ADDRESS). */
    public synchronized String sessionBusAddress() {
        checkStarted();
        return sessionBus.address();
    }

    /** The AT-SPI2 accessibility bus address (the bus runs from the start). */
    public synchronized String accessibilityBusAddress() {
        checkOpen();
        return registry.busAddress();
    }

    /** Applications registered on the AT-SPI2 registry right now: unique bus name to pid. */
    public synchronized Map<String, Long> accessibleApplications() {
        checkOpen();
        return registry.applications();
    }

    /** Starts one more app and returns once its window is managed and it is on the AT-SPI2 bus. */
    public synchronized AppHandle startApp(final DemoApp app) {
        return startApps(app).get(0);
    }

    /** Starts apps together (their start-up overlaps) and returns once all are ready. */
    public synchronized List<AppHandle> startApps(final DemoApp... apps) {
        checkOpen();
        RequiredPrograms.check(List.of(apps));
        return launchAndAwait(List.of(apps), Deadline.afterMs(context.startTimeoutMs()));
    }

    /**
     * Stops an app (SIGTERM, SIGKILL at the stop timeout) and returns once its window has left
     * {@code _NET_CLIENT_LIST}. Also fine for an app that already exited on its own.
     */
    public synchronized void closeApp(final AppHandle app) {
        checkOpen();
        if (!apps.contains(app)) {
            throw new IllegalArgumentException("not an app of this desktop: " + app);
        }
        ProcessStopper.stop("app", withDescendants(List.of(app.launched())), stopTimeoutNs());
        appStarter.awaitWindowGone(app.windowId(), Deadline.afterMs(context.stopTimeoutMs()));
        apps.remove(app);
        LOG.info("event=app-stop app={} pid={} display={}", app.app(), app.pid(), xvfb.display());
    }

    /** Apps started by this desktop and not closed with {@link #closeApp(AppHandle)}. */
    public synchronized List<AppHandle> apps() {
        return List.copyOf(apps);
    }

    /** {@code _NET_CLIENT_LIST}: the managed top-level windows, oldest first. */
    public synchronized long[] clientList() {
        checkOpen();
        return x11.clientList();
    }

    /** {@code _NET_WM_PID} of a window, or -1 if it has none or no longer exists. */
    public synchronized long windowPid(final long windowId) {
        checkOpen();
        return x11.window(windowId).pid();
    }

    /**
     * Moves a window with {@code xdotool windowmove} (the window manager puts its frame there), for
     * tests that need windows side by side.
     *
     * @throws TestDesktopException if xdotool fails
     */
    public synchronized void moveWindow(final long windowId, final int x, final int y) {
        checkOpen();
        final ToolCommand.Result r = ToolCommand.run(environment, java.util.List.of("xdotool", "windowmove",
            Long.toString(windowId), Integer.toString(x), Integer.toString(y)));
        if (!r.succeeded()) {
            throw new TestDesktopException("xdotool windowmove " + X11Query.hex(windowId) + " failed: " + r.stderr());
        }
    }

    /**
     * The managed window of process {@code pid} (with {@code title}, unless null), polled until
     * the window manager lists it, for apps a test starts itself rather than with {@link #launch}.
     *
     * @throws TestDesktopException if none is listed within {@code timeoutMs}
     */
    public long awaitWindow(final long pid, final String title, final long timeoutMs) {
        final Deadline deadline = Deadline.afterMs(timeoutMs);
        while (true) {
            for (final long id : clientList()) {
                if (windowPid(id) == pid && (title == null || title.equals(windowTitle(id)))) {
                    return id;
                }
            }
            if (deadline.isExpired()) {
                throw new TestDesktopException("no window of pid " + pid + (title == null ? "" : " titled " + title)
                    + " within " + timeoutMs + " ms");
            }
            deadline.pauseBeforeNextPoll("a window of pid " + pid);
        }
    }

    /** The title of a window ({@code _NET_WM_NAME}, else {@code WM_NAME}); "" if none or gone. */
    public synchronized String windowTitle(final long windowId) {
        checkOpen();
        return x11.window(windowId).title();
    }

    /**
     * Every process of this desktop that runs right now: what it started, their descendants, and
     * whatever carries its environment (D-Bus-activated AT-SPI daemons, processes a test started
     * with {@link #environment()}). Empty after close.
     */
    public synchronized List<ProcessHandle> processes() {
        if (closed || directory == null) {
            return List.of();
        }
        final List<LaunchedProcess> started = new ArrayList<>(appProcesses);
        if (windowManager != null) {
            started.add(windowManager.launched());
        }
        if (sessionBus != null) {
            started.add(sessionBus.launched());
        }
        if (xvfb != null) {
            started.add(xvfb.launched());
        }
        final List<ProcessHandle> all = union(withDescendants(started), DesktopProcessScan.find(directory));
        if (lifeline != null) {
            ProcessHandle.of(lifeline.pid()).ifPresent(all::add);
        }
        return all;
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    /**
     * Stops every process of the desktop (apps, openbox, session bus and what it activated, Xvfb,
     * then anything still carrying the desktop's environment), removes the display's socket and lock
     * file if Xvfb could not, and deletes the private directory. Continues past failures and throws
     * them together at the end; a second call does nothing.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        final long startNs = System.nanoTime();
        final CloseProgress progress = new CloseProgress();
        progress.stop("apps", () -> withDescendants(appProcesses));
        progress.stop("openbox", () -> withDescendants(launched(windowManager == null ? null : windowManager.launched())));
        // The bus and what it activated (re-parented to PID 1, found by environment); not Xvfb yet:
        // clients die noisily when the server goes first.
        progress.stop("dbus", () -> without(
            union(withDescendants(launched(sessionBus == null ? null : sessionBus.launched())), scan()),
            xvfb == null ? -1 : xvfb.launched().pid()));
        progress.stop("xvfb", () -> withDescendants(launched(xvfb == null ? null : xvfb.launched())));
        // Whatever started in between: a daemon activated during shutdown, a test's own child.
        progress.stop("leftovers", this::scan);
        final long filesNs = System.nanoTime();
        try {
            if (xvfb != null) {
                xvfb.removeLeftoverFiles();
            }
        } catch (final IOException | RuntimeException e) {
            progress.failed(e);
        }
        try {
            if (directory != null) {
                directory.delete();
            }
        } catch (final IOException | RuntimeException e) {
            progress.failed(e);
        }
        progress.times.append(" filesMs=").append(millis(System.nanoTime() - filesNs));
        if (lifeline != null && progress.failure == null) {
            // After a failed close it stays armed: it retries the cleanup when this JVM exits.
            final long lifelineNs = System.nanoTime();
            lifeline.close();
            progress.times.append(" lifelineMs=").append(millis(System.nanoTime() - lifelineNs));
        }
        if (Thread.currentThread() != shutdownHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (final IllegalStateException ignore) {
                // reason: the JVM is shutting down already; the hook will find the desktop closed
            }
        }
        LOG.info("event=desktop-stop display={} stopMs={}{} killed={} failed={}",
            xvfb == null ? "none" : xvfb.display(), millis(System.nanoTime() - startNs), progress.times,
            pids(progress.killed), progress.failure != null);
        if (progress.failure != null) {
            throw progress.failure;
        }
    }

    /** What close() has done so far: failures (the first one carries the rest), kills, stage times. */
    private final class CloseProgress {
        private final List<ProcessHandle> killed = new ArrayList<>();
        private final StringBuilder times = new StringBuilder();
        private TestDesktopException failure;

        /** One group: SIGTERM, SIGKILL at the stop timeout; a failure is kept and the next group runs. */
        void stop(final String stage, final Supplier<List<ProcessHandle>> processes) {
            final long startNs = System.nanoTime();
            try {
                final List<ProcessHandle> stageKilled = ProcessStopper.stop(stage, processes.get(), stopTimeoutNs());
                if (!stageKilled.isEmpty()) {
                    LOG.warn("event=process-killed stage={} pids={} reason=ignored-sigterm", stage, pids(stageKilled));
                    killed.addAll(stageKilled);
                }
            } catch (final RuntimeException e) {
                failed(e);
            }
            times.append(' ').append(stage).append("Ms=").append(millis(System.nanoTime() - startNs));
        }

        void failed(final Exception e) {
            if (failure == null) {
                failure = new TestDesktopException("closing the test desktop " + (xvfb == null ? "" : xvfb.display())
                    + " failed", e);
            } else {
                failure.addSuppressed(e);
            }
        }
    }

    private void closeOnShutdown() {
        try {
            close();
        } catch (final RuntimeException e) {
            // reason: nobody is left to throw to during JVM shutdown; the log is the only report
            LOG.error("event=desktop-stop-failed display={}", xvfb == null ? "none" : xvfb.display(), e);
        }
    }

    private List<AppHandle> launchAndAwait(final List<DemoApp> requested, final Deadline deadline) {
        final long startNs = System.nanoTime();
        final List<LaunchedProcess> launched = new ArrayList<>(requested.size());
        for (final DemoApp app : requested) {
            final LaunchedProcess process = appStarter.launch(app);
            appProcesses.add(process);
            launched.add(process);
        }
        final List<AppHandle> ready;
        try {
            ready = appStarter.awaitReady(requested, launched, deadline);
        } catch (final RuntimeException e) {
            try {
                ProcessStopper.stop("apps", withDescendants(launched), stopTimeoutNs());
            } catch (final RuntimeException stopFailure) {
                e.addSuppressed(stopFailure);
            }
            throw e;
        }
        apps.addAll(ready);
        for (final AppHandle app : ready) {
            LOG.info("event=app-start app={} pid={} window={} title=\"{}\" bus={} display={} readyMs={}", app.app(),
                app.pid(), X11Query.hex(app.windowId()), app.title(), app.accessibleBusName(), xvfb.display(),
                millis(System.nanoTime() - startNs));
        }
        return ready;
    }

    private List<ProcessHandle> scan() {
        return directory == null ? List.of() : DesktopProcessScan.find(directory);
    }

    private static List<LaunchedProcess> launched(final LaunchedProcess process) {
        return process == null ? List.of() : List.of(process);
    }

    /** Descendants first, so a parent cannot restart a child that has not been signalled yet. */
    private static List<ProcessHandle> withDescendants(final List<LaunchedProcess> processes) {
        final List<ProcessHandle> handles = new ArrayList<>();
        for (final LaunchedProcess process : processes) {
            final ProcessHandle handle = process.process().toHandle();
            handle.descendants().forEach(handles::add);
            handles.add(handle);
        }
        return handles;
    }

    private static List<ProcessHandle> union(final List<ProcessHandle> a, final List<ProcessHandle> b) {
        final List<ProcessHandle> all = new ArrayList<>(a);
        for (final ProcessHandle handle : b) {
            if (!all.contains(handle)) {
                all.add(handle);
            }
        }
        return all;
    }

    private static List<ProcessHandle> without(final List<ProcessHandle> handles, final long pid) {
        final List<ProcessHandle> rest = new ArrayList<>(handles.size());
        for (final ProcessHandle handle : handles) {
            if (handle.pid() != pid) {
                rest.add(handle);
            }
        }
        return rest;
    }

    private static List<Long> pids(final List<ProcessHandle> handles) {
        final List<Long> pids = new ArrayList<>(handles.size());
        for (final ProcessHandle handle : handles) {
            pids.add(handle.pid());
        }
        return pids;
    }

    private long stopTimeoutNs() {
        return TimeUnit.MILLISECONDS.toNanos(context.stopTimeoutMs());
    }

    private static long millis(final long ns) {
        return TimeUnit.NANOSECONDS.toMillis(ns);
    }

    private void checkStarted() {
        if (xvfb == null || environment == null) {
            throw new IllegalStateException("the test desktop has not started");
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the test desktop is closed");
        }
        checkStarted();
    }

    @Override
    public synchronized String toString() {
        return "TestDesktop[" + (xvfb == null ? "starting" : xvfb.display()) + (closed ? ", closed" : "")
            + ", apps=" + apps + "]";
    }
}
