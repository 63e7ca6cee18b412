package dev.saccade.demodesktop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A real, private, headless KDE Plasma Wayland session for the tests and the demo: KWin 5.27
 * ({@code kwin_wayland --virtual}, QPainter compositing: the virtual backend has no GPU here), a
 * D-Bus session bus with the AT-SPI2 bus and registry, and native Wayland GTK and Qt apps. It
 * runs in a private {@link SessionDirectory} as {@link SwayDesktop} does (docs/desktops/kde.md §4), with the keyboard layout given to KWin through {@code kxkbrc}.
 *
 * <p>Consent: a real Plasma session grants fake input and the screenshot interface only to
 * programs whose desktop file lists them (docs/desktops/kde.md §3); this test session lifts the
 * checks instead ({@code KWIN_WAYLAND_NO_PERMISSION_CHECKS}, {@code
 * KWIN_SCREENSHOT_NO_PERMISSION_CHECKS}), since the Java executable of a test is no installed
 * program.
 *
 * <h2>Who runs KWin</h2>
 * The apps, the bus and the accessibility services run as the {@link SessionUser}; KWin itself
 * runs as this JVM's user (root in CI), which KWin 5.27 accepts, and its socket is then given to
 * the session user. The reason is KWin's trust rule: it identifies a client by reading
 * {@code /proc/<pid>/exe} of the peer, and a KWin running as the session user cannot read that
 * of a root test JVM or of the input helper it launches, so it hides fake input and window
 * management from them even with {@code KWIN_WAYLAND_NO_PERMISSION_CHECKS=1} (measured). On a
 * real desktop KWin, owner and helper are one user and KWin reads them.
 *
 * <p>{@code kwin_wayland} carries the file capability {@code cap_sys_resource}; where the
 * bounding set lacks it (a container) the kernel refuses to exec the file at all, so the session
 * runs a copy of it in its directory (a copy carries no capability; KWin only uses it to raise
 * its scheduling limits). {@link #close()} stops the apps, the bus and KWin by pid as {@link
 * SwayDesktop#close()} does.
 */
public final class KdeDesktop implements AutoCloseable {
    public static final String KWIN = "kwin_wayland";
    private static final long STOP_TIMEOUT_NS = 2_000_000_000L;
    private static final String SOCKET = "wayland-kde";

    private final SessionDirectory directory;
    private final SessionUser user;
    private final DesktopEnvironment environment;
    private final List<LaunchedProcess> apps = new ArrayList<>();
    private final List<LaunchedProcess> services = new ArrayList<>();
    private DesktopLifeline lifeline;
    private LaunchedProcess kwin;
    private String busAddress;
    private boolean closed;

    private KdeDesktop(final SessionDirectory directory, final SessionUser user) {
        this.directory = directory;
        this.user = user;
        this.environment = new DesktopEnvironment(directory);
        environment.put("XDG_SESSION_TYPE", "wayland");
        environment.put("XDG_CURRENT_DESKTOP", "KDE");
        environment.put("KDE_FULL_SESSION", "true");
        environment.put("GDK_BACKEND", "wayland");
        environment.put("QT_QPA_PLATFORM", "wayland");
        // Qt registers on AT-SPI2 only when told to (DemoApp.QT_CALCULATOR).
        environment.put("QT_LINUX_ACCESSIBILITY_ALWAYS_ON", "1");
        environment.put("QT_ACCESSIBILITY", "1");
        environment.put("WAYLAND_DISPLAY", SOCKET);
    }

    /** kwin_wayland is installed (scripts/install-deps installs kwin-wayland). */
    public static boolean isKwinInstalled() {
        return RequiredPrograms.isInstalled(KWIN);
    }

    /**
     * Starts KWin with one virtual output of {@code width}×{@code height}, keyboard layout
     * {@code layout} (an XKB layout name: "us", "de"), the session bus and the AT-SPI registry;
     * returns once KWin answers on the bus as org.kde.KWin and the registry answers.
     */
    public static KdeDesktop start(final int width, final int height, final String layout) {
        return start(width, height, layout, false);
    }

    /**
     * {@link #start(int, int, String)} with KWin's permission checks on, as on a real Plasma
     * session: restricted interfaces only for programs a desktop file grants them ({@link #grant}).
     */
    public static KdeDesktop startWithChecks(final int width, final int height, final String layout) {
        return start(width, height, layout, true);
    }

    private static KdeDesktop start(final int width, final int height, final String layout, final boolean checks) {
        if (!isKwinInstalled()) {
            throw new TestDesktopException("kwin_wayland is not installed (scripts/install-deps installs kwin-wayland)");
        }
        final SessionUser user = SessionUser.resolve();
        final SessionDirectory directory = user.createDirectory();
        final KdeDesktop desktop = new KdeDesktop(directory, user);
        try {
            desktop.lifeline = DesktopLifeline.arm(directory);
            desktop.startAll(width, height, layout, checks, Deadline.afterMs(30_000));
            return desktop;
        } catch (final RuntimeException e) {
            desktop.close();
            throw e;
        }
    }

    private void startAll(final int width, final int height, final String layout, final boolean checks,
        final Deadline deadline) {
        final Path binary = directory.root().resolve(KWIN);
        final Path kxkbrc = directory.config().resolve("kxkbrc");
        try {
            Files.copy(RequiredPrograms.locate(KWIN), binary, StandardCopyOption.REPLACE_EXISTING);
            Files.writeString(kxkbrc, String.join("\n", "[Layout]", "LayoutList=" + layout, "Use=true", ""),
                StandardCharsets.UTF_8);
            user.own(binary);
            user.own(kxkbrc);
        } catch (final IOException e) {
            throw new TestDesktopException("cannot prepare the KWin session", e);
        }
        busAddress = SessionBus.startForUser(directory, user, environment, services, deadline);
        environment.put(DesktopEnvironment.DBUS_SESSION_BUS_ADDRESS, busAddress);
        final Map<String, String> kwinEnv = new LinkedHashMap<>();
        kwinEnv.put("QT_QPA_PLATFORM", "offscreen");
        kwinEnv.put("KWIN_COMPOSE", "Q");
        kwinEnv.put("QT_QUICK_BACKEND", "software");
        if (!checks) {
            kwinEnv.put("KWIN_WAYLAND_NO_PERMISSION_CHECKS", "1");
            kwinEnv.put("KWIN_SCREENSHOT_NO_PERMISSION_CHECKS", "1");
        }
        // KWin runs as this JVM's user, not the session user's (see the class comment, "Who runs KWin").
        kwin = LaunchedProcess.start("kwin", List.of(binary.toString(), "--virtual",
            "--width", Integer.toString(width), "--height", Integer.toString(height), "--socket", SOCKET,
            "--no-lockscreen", "--no-global-shortcuts", "--no-kactivities"), environment, kwinEnv, directory.logs(),
            false);
        services.add(kwin);
        while (!ownSocket() || !ToolCommand.succeeds(environment, List.of("dbus-send", "--session",
            "--print-reply", "--dest=org.kde.KWin", "/KWin", "org.freedesktop.DBus.Peer.Ping"))) {
            if (!kwin.process().isAlive()) {
                throw new TestDesktopException("kwin_wayland exited: " + kwin.describe());
            }
            if (deadline.isExpired()) {
                throw new TestDesktopException("kwin_wayland did not answer within " + deadline.timeoutMs() + " ms: "
                    + kwin.describe());
            }
            deadline.pauseBeforeNextPoll("kwin_wayland");
        }
        new AccessibilityRegistry(environment).start(deadline);
    }

    /** Whether the socket exists, then given to the session user, whose apps must be able to connect to it. */
    private boolean ownSocket() {
        if (!Files.exists(waylandSocket())) {
            return false;
        }
        try {
            user.own(waylandSocket());
            return true;
        } catch (final IOException e) {
            throw new TestDesktopException("cannot give " + waylandSocket() + " to " + user.name(), e);
        }
    }

    /** KWin's Wayland socket, an absolute path. */
    public Path waylandSocket() {
        return directory.runtime().resolve(SOCKET);
    }

    /** The session bus address. */
    public String busAddress() {
        return busAddress;
    }

    /** KWin's process (a test kills it to end the session). */
    public ProcessHandle kwinProcess() {
        return kwin.process().toHandle();
    }

    /** Where the session's processes write stdout and stderr. */
    public Path logDirectory() {
        return directory.logs();
    }

    /** The session's XDG_RUNTIME_DIR. */
    public Path runtimeDirectory() {
        return directory.runtime();
    }

    /** The uid the session runs as. */
    public int uid() {
        return user.uid();
    }

    /**
     * The environment a client of this session needs: XDG_RUNTIME_DIR, WAYLAND_DISPLAY (the
     * absolute socket path), DBUS_SESSION_BUS_ADDRESS, XDG_CURRENT_DESKTOP=KDE.
     */
    public Map<String, String> environment() {
        final Map<String, String> env = new LinkedHashMap<>(environment.variables());
        env.put("WAYLAND_DISPLAY", waylandSocket().toString());
        return env;
    }

    /** The app's AT-SPI objects read with dbus-send; empty while the app is not on the registry yet. */
    public List<SwayDesktop.Accessible> accessibleObjects(final long pid) {
        return AccessibleObjects.walk(environment, pid);
    }

    /**
     * Starts an app as the session user (natively on Wayland), its stdout in a file, and returns
     * once it is on the accessibility registry with at least one object that has a size: KWin
     * lists windows only to its own scripts, and the apps here all speak AT-SPI.
     */
    public synchronized SwayApp launch(final String name, final String... command) {
        final LaunchedProcess app = LaunchedProcess.start(name + "-" + (apps.size() + 1),
            user.command(List.of(command)), environment, Map.of(), directory.logs(), false);
        apps.add(app);
        final Deadline deadline = Deadline.afterMs(20_000);
        while (accessibleObjects(app.pid()).stream().noneMatch(a -> a.width() > 0 && a.height() > 0)) {
            if (!app.process().isAlive()) {
                throw new TestDesktopException(name + " exited before its window appeared: " + app.describe());
            }
            if (deadline.isExpired()) {
                throw new TestDesktopException("no accessible window of " + name + " within " + deadline.timeoutMs()
                    + " ms: " + app.describe());
            }
            deadline.pauseBeforeNextPoll("a window of " + name);
        }
        return new SwayApp(app);
    }

    /**
     * Moves the window of process {@code pid} so its top left corner is at ({@code x}, {@code y})
     * and activates it, through a KWin script (the only way a client may place a window on
     * KWin); returns once KWin has run it. KWin here draws no decorations (no decoration plugin is
     * installed), so the window's frame is its surface.
     */
    public void place(final long pid, final int x, final int y) {
        final Path script = directory.root().resolve("place-" + pid + "-" + System.nanoTime() + ".js");
        try {
            Files.writeString(script, String.join("\n",
                "var cs = workspace.clientList();",
                "for (var i = 0; i < cs.length; i++) {",
                "  if (cs[i].pid == " + pid + ") {",
                "    var g = cs[i].frameGeometry;",
                "    cs[i].frameGeometry = {x: " + x + ", y: " + y + ", width: g.width, height: g.height};",
                "    workspace.activeClient = cs[i];",
                "  }",
                "}", ""), StandardCharsets.UTF_8);
            user.own(script);
        } catch (final IOException e) {
            throw new TestDesktopException("cannot write a KWin script", e);
        }
        final String name = script.getFileName().toString();
        kwinCall("org.kde.kwin.Scripting.loadScript", "string:" + script, "string:" + name);
        kwinCall("org.kde.kwin.Scripting.start");
        kwinCall("org.kde.kwin.Scripting.unloadScript", "string:" + name);
    }

    /**
     * Grants {@code executable} KWin's fake input the way a real session does: a desktop file in
     * the session's {@code XDG_DATA_HOME/applications} whose Exec is the executable and whose
     * {@code X-KDE-Wayland-Interfaces} lists {@code org_kde_kwin_fake_input}, and the service cache
     * rebuilt ({@code kbuildsycoca5}) for KWin's next lookup. Only meaningful with {@link #startWithChecks}.
     */
    public void grant(final String executable) {
        final Path applications = directory.data().resolve("applications");
        try {
            Files.createDirectories(applications);
            Files.writeString(applications.resolve("dev.saccade.Saccade.desktop"), String.join("\n", "[Desktop Entry]",
                "Type=Application", "Name=Saccade", "NoDisplay=true", "Exec=" + executable,
                "X-KDE-Wayland-Interfaces=org_kde_kwin_fake_input", ""), StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new TestDesktopException("cannot write the desktop file", e);
        }
        // As KWin's user, with the session's XDG directories: the cache KWin reads.
        final ToolCommand.Result built = ToolCommand.run(environment, List.of("kbuildsycoca5", "--noincremental"));
        if (!built.succeeded()) {
            throw new TestDesktopException("kbuildsycoca5 failed: " + built.stderr());
        }
    }

    private void kwinCall(final String method, final String... arguments) {
        final List<String> command = new ArrayList<>(List.of("dbus-send", "--session", "--print-reply",
            "--dest=org.kde.KWin", "/Scripting", method));
        command.addAll(List.of(arguments));
        final ToolCommand.Result result = ToolCommand.run(environment, command);
        if (!result.succeeded()) {
            throw new TestDesktopException(method + " failed: " + result.stderr() + result.stdout());
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        ProcessStopper.stopSession("kde", apps, services, directory, lifeline, STOP_TIMEOUT_NS);
    }
}
