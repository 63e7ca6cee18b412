package dev.saccade.demodesktop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real, private, headless GNOME session for the tests and {@code saccade up --gnome}: GNOME
 * Shell 43 on mutter's headless backend with one virtual monitor (software rendering, no GPU),
 * a D-Bus session bus that also stands in for the system bus (gnome-shell's login manager and
 * the like find nothing there and carry on), PipeWire (mutter's ScreenCast streams, which the
 * RemoteDesktop session's absolute pointer needs), the AT-SPI2 registry, and Saccade's Shell
 * extension installed under the session's {@code XDG_DATA_HOME} and enabled before the shell
 * starts. Everything runs as the {@link SessionUser} in a private {@link SessionDirectory}, the
 * way {@link SwayDesktop} does; the Wayland socket is {@code run/wayland-0}; no Xwayland.
 *
 * <p>GSettings use GIO's keyfile backend, written before the start: the enabled extension and
 * the keyboard layout (for instance {@code de}) are then fixed for the session without a
 * dconf-service process.
 */
public final class GnomeDesktop implements AutoCloseable {
    /** The D-Bus object Saccade's extension exports on gnome-shell's connection. */
    public static final String EXTENSION_PATH = "/dev/saccade/Shell";
    public static final String EXTENSION_INTERFACE = "dev.saccade.Shell1";
    private static final long STOP_TIMEOUT_NS = 2_000_000_000L;
    private static final long START_TIMEOUT_MS = 60_000;
    private static final Pattern WINDOW = Pattern.compile(
        "\\{\\\\?\"id\\\\?\":\\\\?\"(\\d+)\\\\?\",\\\\?\"pid\\\\?\":(\\d+),[^}]*?\\\\?\"focused\\\\?\":(true|false)");

    private final SessionDirectory directory;
    private final SessionUser user;
    private final DesktopEnvironment environment;
    private final List<LaunchedProcess> apps = new ArrayList<>();
    private final List<LaunchedProcess> services = new ArrayList<>();
    private DesktopLifeline lifeline;
    private String busAddress;
    private boolean closed;

    private GnomeDesktop(final SessionDirectory directory, final SessionUser user) {
        this.directory = directory;
        this.user = user;
        this.environment = new DesktopEnvironment(directory);
        environment.put("XDG_SESSION_TYPE", "wayland");
        environment.put("XDG_CURRENT_DESKTOP", "GNOME");
        environment.put("GDK_BACKEND", "wayland");
        environment.put("QT_QPA_PLATFORM", "wayland");
        environment.put("WAYLAND_DISPLAY", "wayland-0");
        environment.put("GSETTINGS_BACKEND", "keyfile");
    }

    /** gnome-shell is installed (scripts/install-deps installs it with mutter and pipewire). */
    public static boolean isInstalled() {
        return RequiredPrograms.isInstalled("gnome-shell") && RequiredPrograms.isInstalled("pipewire");
    }

    /**
     * Starts the session with one {@code width}×{@code height} monitor and returns once the
     * extension answers on the bus and the AT-SPI registry answers.
     *
     * @param layout    the XKB layout of the session's keyboard ({@code us}, {@code de}, ...)
     * @param uuid      the extension's uuid, its directory name
     * @param extension the extension's files by name (metadata.json, extension.js)
     */
    public static GnomeDesktop start(final int width, final int height, final String layout, final String uuid,
        final Map<String, String> extension) {
        if (!isInstalled()) {
            throw new TestDesktopException("gnome-shell or pipewire is not installed (scripts/install-deps installs them)");
        }
        final SessionUser user = SessionUser.resolve();
        final SessionDirectory directory;
        try {
            directory = SessionDirectory.create(Path.of("/tmp"));
            user.own(directory.root());
            for (final Path p : List.of(directory.runtime(), directory.cache(), directory.config(), directory.data(),
                directory.state(), directory.home())) {
                user.own(p);
            }
        } catch (final IOException e) {
            throw new TestDesktopException("cannot create the session directory", e);
        }
        final GnomeDesktop desktop = new GnomeDesktop(directory, user);
        try {
            desktop.lifeline = DesktopLifeline.arm(directory);
            desktop.writeFiles(layout, uuid, extension);
            desktop.startAll(width, height, Deadline.afterMs(START_TIMEOUT_MS));
            return desktop;
        } catch (final IOException e) {
            desktop.close();
            throw new TestDesktopException("cannot write the session's files", e);
        } catch (final RuntimeException e) {
            desktop.close();
            throw e;
        }
    }

    private void writeFiles(final String layout, final String uuid, final Map<String, String> extension)
        throws IOException {
        if (!layout.matches("[a-z]{2,8}") || !uuid.matches("[A-Za-z0-9@._-]+")) {
            throw new TestDesktopException("bad layout or extension uuid: " + layout + ", " + uuid);
        }
        final Path extensions = directory.data().resolve("gnome-shell").resolve("extensions");
        final Path target = extensions.resolve(uuid);
        Files.createDirectories(target);
        for (final Map.Entry<String, String> file : extension.entrySet()) {
            Files.writeString(target.resolve(file.getKey()), file.getValue(), StandardCharsets.UTF_8);
        }
        final Path settings = directory.config().resolve("glib-2.0").resolve("settings");
        Files.createDirectories(settings);
        Files.writeString(settings.resolve("keyfile"), String.join("\n",
            "[org/gnome/shell]",
            "enabled-extensions=['" + uuid + "']",
            "disable-user-extensions=false",
            "welcome-dialog-last-shown-version='999'",
            "[org/gnome/desktop/input-sources]",
            "sources=[('xkb', '" + layout + "')]",
            "[org/gnome/desktop/interface]",
            "enable-animations=false",
            "enable-hot-corners=false",
            "toolkit-accessibility=true",
            "[org/gnome/desktop/a11y]",
            "always-show-universal-access-status=false",
            ""), StandardCharsets.UTF_8);
        for (final Path p : List.of(directory.data().resolve("gnome-shell"), extensions, target,
            directory.config().resolve("glib-2.0"), settings, settings.resolve("keyfile"))) {
            user.own(p);
        }
        for (final String name : extension.keySet()) {
            user.own(target.resolve(name));
        }
    }

    private void startAll(final int width, final int height, final Deadline deadline) {
        final Path busConfig = directory.root().resolve("session-bus.conf");
        try {
            Files.writeString(busConfig, SessionBus.configurationAdmittingRoot(), StandardCharsets.UTF_8);
            user.own(busConfig);
        } catch (final IOException e) {
            throw new TestDesktopException("cannot write the bus configuration", e);
        }
        final LaunchedProcess bus = LaunchedProcess.start("dbus-daemon", user.command(List.of(
            "dbus-daemon", "--config-file=" + busConfig, "--nofork", "--nopidfile", "--nosyslog",
            "--print-address=1", "--address=unix:path=" + directory.runtime().resolve("bus"))),
            environment, Map.of(), directory.logs(), true);
        services.add(bus);
        final String address = ReadyLine.await(bus, deadline);
        if (address == null || !address.startsWith("unix:")) {
            throw new TestDesktopException("dbus-daemon printed no address: " + bus.describe());
        }
        busAddress = address.strip();
        environment.put(DesktopEnvironment.DBUS_SESSION_BUS_ADDRESS, busAddress);
        // No system bus in a container: gnome-shell's clients of logind, accounts and the like
        // find nothing on the session bus and carry on, where a missing bus would stop the shell.
        environment.put("DBUS_SYSTEM_BUS_ADDRESS", busAddress);

        final LaunchedProcess pipewire = LaunchedProcess.start("pipewire", user.command(List.of("pipewire")),
            environment, Map.of(), directory.logs(), false);
        services.add(pipewire);
        final LaunchedProcess shell = LaunchedProcess.start("gnome-shell", user.command(List.of(
            "gnome-shell", "--headless", "--wayland", "--no-x11", "--wayland-display", "wayland-0",
            "--virtual-monitor", width + "x" + height)),
            environment, Map.of(), directory.logs(), false);
        services.add(shell);
        while (!Files.exists(waylandSocket()) || !ToolCommand.succeeds(environment, gdbus("ListWindows"))) {
            if (!shell.process().isAlive()) {
                throw new TestDesktopException("gnome-shell exited: " + shell.describe());
            }
            if (deadline.isExpired()) {
                throw new TestDesktopException("gnome-shell's Saccade extension did not answer within "
                    + deadline.timeoutMs() + " ms: " + shell.describe());
            }
            deadline.pauseBeforeNextPoll("gnome-shell");
        }
        new AccessibilityRegistry(environment).start(deadline);
    }

    private List<String> gdbus(final String method, final String... arguments) {
        final List<String> command = new ArrayList<>(List.of("gdbus", "call", "--session", "--dest", "org.gnome.Shell",
            "--object-path", EXTENSION_PATH, "--method", EXTENSION_INTERFACE + "." + method));
        command.addAll(List.of(arguments));
        return command;
    }

    /** The extension's ListWindows answer as gdbus prints it (a JSON string in a tuple). */
    public String listWindows() {
        final ToolCommand.Result result = ToolCommand.run(environment, gdbus("ListWindows"));
        if (!result.succeeded()) {
            throw new TestDesktopException("ListWindows failed: " + result.stderr());
        }
        return result.stdout();
    }

    /** The compositor's Wayland socket, an absolute path. */
    public Path waylandSocket() {
        return directory.runtime().resolve("wayland-0");
    }

    /** The session bus address. */
    public String busAddress() {
        return busAddress;
    }

    /** Where the session's processes write stdout ({@code <name>-<n>.out}) and stderr ({@code .log}). */
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
     * absolute socket path), XDG_CURRENT_DESKTOP and DBUS_SESSION_BUS_ADDRESS.
     */
    public Map<String, String> environment() {
        final Map<String, String> env = new LinkedHashMap<>(environment.variables());
        env.put("WAYLAND_DISPLAY", waylandSocket().toString());
        return env;
    }

    /** The window id the extension gives the window of process {@code pid}, or -1 when it has none. */
    public long windowOf(final long pid) {
        final Matcher m = WINDOW.matcher(listWindows());
        while (m.find()) {
            if (Long.parseLong(m.group(2)) == pid) {
                return Long.parseLong(m.group(1));
            }
        }
        return -1;
    }

    private boolean isFocused(final long pid) {
        final Matcher m = WINDOW.matcher(listWindows());
        while (m.find()) {
            if (Long.parseLong(m.group(2)) == pid) {
                return "true".equals(m.group(3));
            }
        }
        return false;
    }

    /** Activates the window of process {@code pid} through the extension and returns once it has the focus. */
    public void focus(final long pid) {
        final Deadline deadline = Deadline.afterMs(10_000);
        while (!isFocused(pid)) {
            final long id = windowOf(pid);
            if (id >= 0) {
                ToolCommand.run(environment, gdbus("Activate", Long.toString(id)));
            }
            if (deadline.isExpired()) {
                throw new TestDesktopException("the window of pid " + pid + " did not take the focus");
            }
            deadline.pauseBeforeNextPoll("the focus");
        }
    }

    /** The app's AT-SPI objects read with dbus-send; empty while the app is not on the registry yet. */
    public List<SwayDesktop.Accessible> accessibleObjects(final long pid) {
        return AccessibleObjects.walk(environment, pid);
    }

    /**
     * Starts an app as the session user, its stdout in a file, and returns once the shell lists
     * a window of its process.
     */
    public SwayApp launch(final String name, final String... command) {
        return launch(name, Map.of(), command);
    }

    /** {@link #launch(String, String...)} with variables of the app's own (a Qt app's accessibility switch). */
    public synchronized SwayApp launch(final String name, final Map<String, String> extra, final String... command) {
        final LaunchedProcess app = LaunchedProcess.start(name + "-" + (apps.size() + 1),
            user.command(List.of(command)), environment, extra, directory.logs(), false);
        apps.add(app);
        final Deadline deadline = Deadline.afterMs(20_000);
        while (windowOf(app.pid()) < 0) {
            if (!app.process().isAlive()) {
                throw new TestDesktopException(name + " exited before its window appeared: " + app.describe());
            }
            if (deadline.isExpired()) {
                throw new TestDesktopException("no window of " + name + " within " + deadline.timeoutMs() + " ms: "
                    + app.describe());
            }
            deadline.pauseBeforeNextPoll("a window of " + name);
        }
        return new SwayApp(app);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        final List<ProcessHandle> appHandles = new ArrayList<>();
        for (final LaunchedProcess app : apps) {
            appHandles.add(app.process().toHandle());
        }
        ProcessStopper.stop("gnome-apps", appHandles, STOP_TIMEOUT_NS);
        for (int i = services.size() - 1; i >= 0; i--) {
            ProcessStopper.stop("gnome-" + services.get(i).name(), List.of(services.get(i).process().toHandle()),
                STOP_TIMEOUT_NS);
        }
        ProcessStopper.stop("gnome-activated", DesktopProcessScan.find(directory), STOP_TIMEOUT_NS);
        try {
            directory.delete();
        } catch (final IOException e) {
            throw new TestDesktopException("cannot delete " + directory.root(), e);
        }
        if (lifeline != null) {
            lifeline.close();
        }
    }
}
