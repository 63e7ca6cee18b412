package dev.saccade.demodesktop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real, private, headless Wayland session for the tests and the demo: sway 1.7 on wlroots'
 * headless backend with the pixman renderer and no input devices, a D-Bus session bus with the
 * AT-SPI2 bus and registry, and native Wayland GTK apps (XWayland ones with {@code x11 = true}
 * when Xwayland is installed). Everything runs as the {@link SessionUser} in a private
 * {@link SessionDirectory} whose {@code run/} is the session's {@code XDG_RUNTIME_DIR} (0700,
 * owned by that user), so the compositor's sockets are {@code run/wayland-1} and
 * {@code run/sway-ipc.*.sock}.
 *
 * <p>Who may connect: the Wayland and sway IPC sockets are the user's (0755 in a 0700
 * directory); a test JVM running as root reaches them through its file access override, and the
 * session bus is started with a configuration that also admits root (the AT-SPI bus's own
 * configuration already does), so a root test JVM reads the apps' accessibility trees like the
 * session's own services would. Outside the tests, Saccade's processes run as the session user.
 *
 * <p>{@link #close()} stops the apps, then the bus, then sway (SIGTERM, SIGKILL after 2 s), then
 * whatever the bus activated (found by the session's {@code XDG_RUNTIME_DIR} in their
 * environment, {@link DesktopProcessScan}), and deletes the directory. A {@link DesktopLifeline}
 * watchdog does the same if the JVM dies without closing it.
 */
public final class SwayDesktop implements AutoCloseable {
    private static final long STOP_TIMEOUT_NS = 2_000_000_000L;
    private static final Pattern RECT = Pattern.compile(
        "\"x\": (-?\\d+),\\s*\"y\": (-?\\d+),\\s*\"width\": (\\d+),\\s*\"height\": (\\d+)");
    private static final Pattern IPC_SOCKET = Pattern.compile("sway-ipc\\..*\\.sock");

    private final SessionDirectory directory;
    private final SessionUser user;
    private final DesktopEnvironment environment;
    private final List<LaunchedProcess> apps = new ArrayList<>();
    private final List<LaunchedProcess> services = new ArrayList<>();
    /** Cleans up (kills the session's processes, deletes the directory) if this JVM dies unclosed. */
    private DesktopLifeline lifeline;
    private Path swaySocket;
    private String xDisplay;
    private String busAddress;
    private boolean closed;

    private SwayDesktop(final SessionDirectory directory, final SessionUser user) {
        this.directory = directory;
        this.user = user;
        this.environment = new DesktopEnvironment(directory);
        environment.put("XDG_SESSION_TYPE", "wayland");
        environment.put("GDK_BACKEND", "wayland");
        environment.put("QT_QPA_PLATFORM", "wayland");
        environment.put("WAYLAND_DISPLAY", "wayland-1");
    }

    /**
     * Starts sway with one output of {@code width}×{@code height} at (0, 0), the session bus and
     * the AT-SPI registry; returns once sway answers on its IPC socket and the registry answers.
     *
     * @param xwayland start XWayland for X11 clients (needs the xwayland package)
     */
    public static SwayDesktop start(final int width, final int height, final boolean xwayland) {
        if (!RequiredPrograms.isInstalled("sway")) {
            throw new TestDesktopException("sway is not installed (scripts/install-deps installs it)");
        }
        if (xwayland && !RequiredPrograms.isInstalled("Xwayland")) {
            throw new TestDesktopException("Xwayland is not installed (scripts/install-deps installs xwayland)");
        }
        final SessionUser user = SessionUser.resolve();
        final SessionDirectory directory = user.createDirectory();
        final SwayDesktop desktop = new SwayDesktop(directory, user);
        try {
            desktop.lifeline = DesktopLifeline.arm(directory);
            desktop.startAll(width, height, xwayland, Deadline.afterMs(20_000));
            return desktop;
        } catch (final RuntimeException e) {
            desktop.close();
            throw e;
        }
    }

    /** sway is installed (scripts/install-deps installs it). */
    public static boolean isSwayInstalled() {
        return RequiredPrograms.isInstalled("sway");
    }

    /** Xwayland is installed: {@link #start} can serve X11 apps too. */
    public static boolean isXwaylandInstalled() {
        return RequiredPrograms.isInstalled("Xwayland");
    }

    private void startAll(final int width, final int height, final boolean xwayland, final Deadline deadline) {
        final Path config = directory.root().resolve("sway.conf");
        try {
            Files.writeString(config, String.join("\n",
                "output HEADLESS-1 resolution " + width + "x" + height + " position 0 0",
                "default_border none",
                "default_floating_border none",
                "focus_follows_mouse no",
                "xwayland " + (xwayland ? "enable" : "disable"),
                ""), StandardCharsets.UTF_8);
            // Read by the session user through the directory it owns.
            user.own(config);
        } catch (final IOException e) {
            throw new TestDesktopException("cannot write the sway configuration", e);
        }
        busAddress = SessionBus.startForUser(directory, user, environment, services, deadline);
        environment.put(DesktopEnvironment.DBUS_SESSION_BUS_ADDRESS, busAddress);

        final LaunchedProcess sway = LaunchedProcess.start("sway", user.command(List.of("sway", "-c", config.toString())),
            environment, Map.of("WLR_BACKENDS", "headless", "WLR_LIBINPUT_NO_DEVICES", "1", "WLR_RENDERER", "pixman"),
            directory.logs(), false);
        services.add(sway);
        while ((swaySocket = findIpcSocket()) == null || !Files.exists(waylandSocket())
            || !ToolCommand.succeeds(environment, List.of("swaymsg", "-s", swaySocket.toString(), "-t", "get_version"))) {
            if (!sway.process().isAlive()) {
                throw new TestDesktopException("sway exited: " + sway.describe());
            }
            if (deadline.isExpired()) {
                throw new TestDesktopException("sway did not answer within " + deadline.timeoutMs() + " ms: "
                    + sway.describe());
            }
            deadline.pauseBeforeNextPoll("sway");
        }
        environment.put("SWAYSOCK", swaySocket.toString());
        if (xwayland) {
            xDisplay = readXDisplay(deadline);
        }
        new AccessibilityRegistry(environment).start(deadline);
    }

    /**
     * sway hands its own children DISPLAY; one exec of ours writes it where we can read it. The
     * same exec first closes XWayland to every uid but the session user's and root's (D29): sway
     * starts it without a cookie, open to any local process, so xhost admits those two users by
     * uid ({@code si:localuser}) and removes the blanket local entry. Root is admitted as the
     * session bus admits it (docs/wayland.md §3): a root test JVM's owner reads XWayland windows'
     * child windows for the pixel source. The file appears only after xhost succeeded.
     */
    private String readXDisplay(final Deadline deadline) {
        final Path file = directory.runtime().resolve("display");
        swaymsg("exec", String.join(" ", XAuthority.admitUsersCommand(List.of("root", user.name())))
            + " -local: >/dev/null 2>&1 && printenv DISPLAY > " + file + ".tmp && mv " + file + ".tmp " + file);
        while (true) {
            try {
                if (Files.exists(file)) {
                    final String display = Files.readString(file, StandardCharsets.UTF_8).strip();
                    if (!display.isEmpty()) {
                        return display;
                    }
                }
            } catch (final IOException e) {
                throw new TestDesktopException("cannot read " + file, e);
            }
            if (deadline.isExpired()) {
                throw new TestDesktopException("sway reported no XWayland DISPLAY within " + deadline.timeoutMs() + " ms");
            }
            deadline.pauseBeforeNextPoll("the XWayland display");
        }
    }

    private Path findIpcSocket() {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory.runtime())) {
            for (final Path entry : entries) {
                if (IPC_SOCKET.matcher(entry.getFileName().toString()).matches()) {
                    return entry;
                }
            }
            return null;
        } catch (final IOException e) {
            throw new TestDesktopException("cannot list " + directory.runtime(), e);
        }
    }

    /** The compositor's Wayland socket, an absolute path (libwayland accepts one as WAYLAND_DISPLAY). */
    public Path waylandSocket() {
        return directory.runtime().resolve("wayland-1");
    }

    /** sway's IPC socket (SWAYSOCK). */
    public Path swaySocket() {
        return swaySocket;
    }

    /** XWayland's DISPLAY, or null when started without XWayland. */
    public String xDisplay() {
        return xDisplay;
    }

    /** The session bus address. */
    public String busAddress() {
        return busAddress;
    }

    DesktopEnvironment desktopEnvironment() {
        return environment;
    }

    SessionDirectory directory() {
        return directory;
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

    /** {@code command} run as the session's user. */
    List<String> asSessionUser(final List<String> command) {
        return user.command(command);
    }

    /**
     * The environment a client of this session needs: XDG_RUNTIME_DIR, WAYLAND_DISPLAY (the
     * absolute socket path), SWAYSOCK, DBUS_SESSION_BUS_ADDRESS and, with XWayland, DISPLAY.
     */
    public Map<String, String> environment() {
        final Map<String, String> env = new LinkedHashMap<>(environment.variables());
        env.put("WAYLAND_DISPLAY", waylandSocket().toString());
        if (xDisplay != null) {
            env.put(DesktopEnvironment.DISPLAY, xDisplay);
        }
        return env;
    }

    /**
     * Focuses the window of process {@code pid} ({@code [pid=N] focus}) and returns once sway's
     * tree shows it focused: a new window takes the focus when it maps, but not before the test
     * may already type.
     */
    public void focus(final long pid) {
        swaymsg("[pid=" + pid + "] focus");
        final Deadline deadline = Deadline.afterMs(10_000);
        while (!isFocused(pid)) {
            if (deadline.isExpired()) {
                throw new TestDesktopException("the window of pid " + pid + " did not take the focus");
            }
            deadline.pauseBeforeNextPoll("the focus");
        }
    }

    private boolean isFocused(final long pid) {
        final String tree = swaymsg("-t", "get_tree");
        final Matcher pidAt = Pattern.compile("\"pid\": " + pid + ",").matcher(tree);
        if (!pidAt.find()) {
            return false;
        }
        final String before = tree.substring(0, pidAt.start());
        return before.substring(before.lastIndexOf("\"focused\": ")).startsWith("\"focused\": true");
    }

    /** One object of an app's AT-SPI tree as dbus-send reads it; {@code text} only for entries. */
    public record Accessible(int role, String name, String text, int x, int y, int width, int height) {
        public boolean isButton() {
            return role == AccessibleObjects.ROLE_PUSH_BUTTON;
        }

        public boolean isEntry() {
            return role == AccessibleObjects.ROLE_ENTRY || role == AccessibleObjects.ROLE_TEXT;
        }
    }

    /** The app's AT-SPI objects read with dbus-send; empty while the app is not on the registry yet. */
    public List<Accessible> accessibleObjects(final long pid) {
        return AccessibleObjects.walk(environment, pid);
    }

    /**
     * Where sway shows the content of the window of process {@code pid}: {x, y, width, height} in
     * layout coordinates (the container's rect plus its window_rect offset), from get_tree.
     */
    public int[] windowContent(final long pid) {
        final String tree = swaymsg("-t", "get_tree");
        final Matcher pidAt = Pattern.compile("\"pid\": " + pid + ",").matcher(tree);
        if (!pidAt.find()) {
            throw new TestDesktopException("no window of pid " + pid);
        }
        // A view's "rect" and "window_rect" are the last ones before its "pid" (its nodes are empty).
        final String before = tree.substring(0, pidAt.start());
        final int[] rect = rectAt(before, before.lastIndexOf("\"rect\": {"));
        final int[] window = rectAt(before, before.lastIndexOf("\"window_rect\": {"));
        return new int[] {rect[0] + window[0], rect[1] + window[1], window[2], window[3]};
    }

    private static int[] rectAt(final String text, final int at) {
        final Matcher m = RECT.matcher(text);
        if (at < 0 || !m.find(at)) {
            throw new TestDesktopException("no rect in sway's tree");
        }
        return new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
            Integer.parseInt(m.group(4))};
    }

    /** Runs {@code swaymsg -s <socket> args...} and returns what it printed; throws when it fails. */
    public String swaymsg(final String... arguments) {
        final List<String> command = new ArrayList<>(List.of("swaymsg", "-s", swaySocket.toString()));
        command.addAll(List.of(arguments));
        final ToolCommand.Result result = ToolCommand.run(environment, command);
        if (!result.succeeded()) {
            throw new TestDesktopException("swaymsg " + String.join(" ", arguments) + " failed: " + result.stderr()
                + result.stdout());
        }
        return result.stdout();
    }

    /**
     * Starts an app as the session user, its stdout in a file ({@link SwayApp#stdout()}), and
     * returns once sway shows a window of its process.
     *
     * @param x11 run it as an X11 client on XWayland (GDK_BACKEND=x11) instead of natively
     */
    public synchronized SwayApp launch(final String name, final boolean x11, final String... command) {
        final Map<String, String> extra = new LinkedHashMap<>();
        if (x11) {
            if (xDisplay == null) {
                throw new TestDesktopException("this session runs without XWayland");
            }
            extra.put("GDK_BACKEND", "x11");
            extra.put(DesktopEnvironment.DISPLAY, xDisplay);
        }
        final LaunchedProcess app = LaunchedProcess.start(name + "-" + (apps.size() + 1),
            user.command(List.of(command)), environment, extra, directory.logs(), false);
        apps.add(app);
        final SwayApp handle = new SwayApp(app);
        final Deadline deadline = Deadline.afterMs(15_000);
        final Pattern pid = Pattern.compile("\"pid\":\\s*" + app.pid() + "\\b");
        while (!pid.matcher(swaymsg("-t", "get_tree")).find()) {
            if (!app.process().isAlive()) {
                throw new TestDesktopException(name + " exited before its window appeared: " + app.describe());
            }
            if (deadline.isExpired()) {
                throw new TestDesktopException("no window of " + name + " within " + deadline.timeoutMs() + " ms: "
                    + app.describe());
            }
            deadline.pauseBeforeNextPoll("a window of " + name);
        }
        return handle;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        ProcessStopper.stopSession("wayland", apps, services, directory, lifeline, STOP_TIMEOUT_NS);
    }
}
