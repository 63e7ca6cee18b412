package dev.saccade.cli;

import dev.saccade.atspi.AtspiDiagnostics;
import dev.saccade.atspi.AtspiSource;
import dev.saccade.atspi.AtspiSourceContext;
import dev.saccade.client.AgentClient;
import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.desktop.AccessibilitySnapshot;
import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.MonitorInfo;
import dev.saccade.desktop.WindowInfo;
import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.Role;
import dev.saccade.wayland.KwinDetection;
import dev.saccade.x11.X11DesktopReader;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code saccade doctor}: checks what Saccade needs from this session, one line per check, and
 * for each problem the fix in one line. Reads only; starts nothing that outlives it.
 */
@Command(name = "doctor", mixinStandardHelpOptions = true,
    header = "Check the display, window manager, accessibility bus, applications and endpoint.",
    description = "Prints one line per check: `ok`, `info` or `PROBLEM`, and after each problem a line `fix:`.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:every check passed", "4:at least one check found a problem"},
    footer = {"", "Examples:", "  saccade doctor", "  saccade doctor --display :1"})
final class DoctorCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--display", paramLabel = "DISPLAY", description = "X display, or wayland:SOCKET, to check (default: $DISPLAY; WAYLAND_DISPLAY in a Wayland session).")
    String display;

    @Option(names = "--session-bus", paramLabel = "ADDRESS",
        description = "D-Bus session bus address (default: $DBUS_SESSION_BUS_ADDRESS).")
    String sessionBus;

    @Option(names = "--endpoint", paramLabel = "PATH", description = "Agent endpoint to check (default: the standard path).")
    Path endpoint;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "5000",
        description = "Longest wait for the accessibility bus or the service (default: ${DEFAULT-VALUE}).")
    long timeoutMs;

    private PrintWriter out;
    private int problems;
    /** The owner's pixel source can serve windows without a tree (OCR and capture work). */
    private boolean pixelsServe;

    @Override
    public Integer call() throws Exception {
        out = spec.commandLine().getOut();
        final String wayland = WaylandSession.displayToServe(display);
        final DesktopSnapshot desktop = wayland == null ? checkDisplay()
            : KwinDetection.isKwin(wayland.substring(WaylandSession.PREFIX.length()))
            ? KdeSession.check(wayland, sessionBus != null ? sessionBus : System.getenv("DBUS_SESSION_BUS_ADDRESS"),
                this::ok, this::info, this::problem)
            : WaylandSession.check(wayland, this::ok, this::info, this::problem);
        if (desktop != null && wayland == null) {
            checkWindowManager();
        }
        pixelsServe = OcrCheck.report(desktop != null && wayland == null ? display : null, this::ok, this::problem);
        checkAccessibility(desktop);
        checkEndpoint();
        checkSupervisor();
        out.println(problems == 0 ? "All checks passed." : problems + (problems == 1 ? " problem." : " problems."));
        out.flush();
        return problems == 0 ? ExitCodes.SUCCESS : ExitCodes.REQUEST_REJECTED;
    }

    private DesktopSnapshot checkDisplay() {
        final String x11 = display != null ? display : System.getenv("DISPLAY");
        display = x11;
        if (x11 == null || x11.isEmpty()) {
            problem("display: DISPLAY is not set", "run `saccade up` for a headless demo desktop, or set DISPLAY=:N");
            return null;
        }
        try {
            final DesktopSnapshot s = X11DesktopReader.readOnce(x11);
            final StringBuilder monitors = new StringBuilder();
            for (final MonitorInfo m : s.monitors()) {
                monitors.append(monitors.length() == 0 ? "" : ", ").append(m.name()).append(' ')
                    .append(m.width()).append('x').append(m.height()).append('+').append(m.x()).append('+').append(m.y());
            }
            ok("display " + x11 + ": " + s.windows().size() + " windows, monitors " + monitors);
            return s;
        } catch (final RuntimeException e) {
            problem("display " + x11 + ": cannot read it (" + e.getMessage() + ")",
                "start the X server, or point DISPLAY at a running one (check with `xdpyinfo -display " + x11 + "`)");
            return null;
        }
    }

    private void checkWindowManager() {
        try {
            final String wm = X11DesktopReader.windowManager(display);
            if (wm == null) {
                problem("window manager: none with EWMH on " + display
                    + " (no client list, no active window, no activation)", "start one, e.g. `openbox &`");
            } else {
                ok("window manager: " + wm + " (EWMH)");
            }
        } catch (final RuntimeException e) {
            problem("window manager: " + e.getMessage(), "check the display first");
        }
    }

    private void checkAccessibility(final DesktopSnapshot desktop) {
        final String bus = sessionBus != null ? sessionBus : System.getenv("DBUS_SESSION_BUS_ADDRESS");
        if (bus == null || bus.isEmpty()) {
            problem("accessibility: no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS unset): only windows and grid cells",
                "run inside a desktop session, or start one with `dbus-run-session -- saccade up`");
            return;
        }
        try (AtspiSource source = new AtspiSource(new AtspiSourceContext().sessionBusAddress(bus)
            .enableAccessibility(false), s -> { })) {
            source.start();
            AccessibilitySnapshot snapshot = null;
            try {
                snapshot = source.requestRefresh().get(timeoutMs, TimeUnit.MILLISECONDS);
            } catch (final Exception e) {
                // reported below from the diagnostics, which say why
            }
            final AtspiDiagnostics d = source.diagnostics();
            if (!d.connected() || snapshot == null) {
                problem("accessibility bus: not reachable" + (d.connectionError() != null ? " (" + d.connectionError() + ")" : ""),
                    "install and start at-spi2-core (at-spi-bus-launcher), e.g. `apt-get install at-spi2-core`");
                return;
            }
            ok("accessibility bus: " + d.busAddress() + ", " + d.applications().size() + " applications");
            reportStatus(bus);
            final Set<Long> withTree = new HashSet<>();
            for (final AtspiDiagnostics.App app : d.applications()) {
                final String what = "application " + (app.name().isEmpty() ? app.busName() : app.name()) + " (pid "
                    + app.pid() + "): " + app.nodeCount() + " nodes" + (app.collection() ? "" : ", walked (no Collection)")
                    + String.format(", %.1f ms", app.lastRefreshNs() / 1e6)
                    + (app.timeouts() > 0 ? ", " + app.timeouts() + " reads cut by the deadline" : "");
                if (app.lastError() != null) {
                    problem(what + ", incomplete: " + app.lastError(),
                        "a slow or hung application: its tree is bounded; restart it if it stays incomplete");
                } else {
                    info(what);
                }
                if (app.nodeCount() > 0) {
                    withTree.add(app.pid());
                }
            }
            if (desktop != null) {
                // A window has a tree when its process has one, or (no _NET_WM_PID) when an
                // accessible frame carries its title.
                final Set<String> frameTitles = new HashSet<>();
                for (final AccessibilityNode node : snapshot.nodes()) {
                    if (node.role() == Role.WINDOW) {
                        frameTitles.add(node.name());
                    }
                }
                for (final WindowInfo w : desktop.windows()) {
                    final boolean hasTree = w.pid() != 0 ? withTree.contains(w.pid()) : frameTitles.contains(w.title());
                    if (!hasTree && pixelsServe) {
                        info("window \"" + w.title() + "\" (" + (w.pid() != 0 ? "pid " + w.pid() : "no _NET_WM_PID")
                            + ") exposes no accessibility tree: PIXEL targets serve it (its pixels read by OCR)");
                    } else if (!hasTree) {
                        problem("window \"" + w.title() + "\" (" + (w.pid() != 0 ? "pid " + w.pid() : "no _NET_WM_PID")
                            + ") exposes no accessibility tree: only the window and grid cells are targets",
                            "Chromium, Electron and Firefox read org.a11y.Status when they start: restart them while "
                                + "Saccade runs; Qt apps: start with QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1; GTK apps: unset NO_AT_BRIDGE; "
                                + "Tk apps have no AT-SPI support; for PIXEL targets install libtesseract5 tesseract-ocr-eng");
                    }
                }
            }
        }
    }

    /** org.a11y.Status.IsEnabled: what tells Chromium, Electron and Firefox to build their trees (D50). */
    private void reportStatus(final String bus) {
        try {
            final Boolean enabled = AtspiSource.accessibilityEnabled(bus, timeoutMs);
            if (Boolean.TRUE.equals(enabled)) {
                ok("accessibility status: org.a11y.Status.IsEnabled is true");
            } else {
                problem("accessibility status: org.a11y.Status.IsEnabled is " + enabled
                    + ": Chromium, Electron and Firefox expose no tree", "start the owner (it sets it), or turn on the "
                    + "desktop's accessibility: `gsettings set org.gnome.desktop.interface toolkit-accessibility true`");
            }
        } catch (final Exception e) {
            problem("accessibility status: " + e.getMessage(), "check the session bus");
        }
    }

    private void checkEndpoint() throws Exception {
        final Path path = endpoint != null ? endpoint
            : RuntimeDirectory.resolve(System.getenv()).resolve(RuntimeDirectory.AGENT_SOCKET_NAME);
        final Path dir = path.getParent();
        if (dir != null && Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            final String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS));
            if (!"rwx------".equals(mode)) {
                problem("runtime directory " + dir + " has mode " + mode + ", not rwx------", "chmod 700 " + dir);
            } else {
                ok("runtime directory " + dir + " (rwx------)");
            }
        }
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            problem("endpoint " + path + ": no socket, the service is not running", "start it with `saccade up` (or `saccade owner run`)");
            return;
        }
        final String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
        if (!"rw-------".equals(mode)) {
            problem("endpoint " + path + " has mode " + mode + ", not rw-------", "restart the service; it creates the socket 0600");
        }
        try (AgentClient client = AgentClient.connect(path, Duration.ofMillis(timeoutMs))) {
            final int granted = client.hello(1, Capability.OBSERVE);
            ok("endpoint " + path + ": service answering (granted 0x" + Integer.toHexString(granted) + ")");
        } catch (final Exception e) {
            problem("endpoint " + path + ": " + e.getMessage(),
                "a stale socket: start the service with `saccade up`, it replaces it");
        }
    }

    /**
     * The supervisor (the login item's process), if one runs for this runtime directory: its pid
     * and where its display came from, or that it waits for one and what to do about it.
     */
    private void checkSupervisor() throws Exception {
        final Path dir = endpoint != null && endpoint.getParent() != null ? endpoint.getParent()
            : RuntimeDirectory.resolve(System.getenv());
        final Path socket = dir.resolve(RuntimeDirectory.SUPERVISOR_SOCKET_NAME);
        if (!Files.exists(socket, LinkOption.NOFOLLOW_LINKS)) {
            info("supervisor: none runs for " + dir + " (the login item, `saccade up` or `saccade supervisor run` starts one)");
            return;
        }
        final java.util.Map<String, String> status;
        try {
            status = SupervisorStatusFields.of(dev.saccade.supervisor.SupervisorClient.request(socket,
                dev.saccade.supervisor.ControlRequest.status(), (int) timeoutMs));
        } catch (final Exception e) {
            problem("supervisor " + socket + ": no answer (" + e.getMessage() + ")",
                "a stale socket of a supervisor that died: start a new one, it replaces it");
            return;
        }
        final String source = status.getOrDefault("display_source", "");
        if ("waiting".equals(source)) {
            problem("supervisor pid " + status.get("pid") + ": waiting " + status.get("waiting_for_display_ms")
                + " ms for a display; " + status.get("display_hint"),
                "from the graphical session: systemctl --user import-environment DISPLAY XAUTHORITY");
        } else {
            ok("supervisor pid " + status.get("pid") + ": display " + status.get("display") + " (from its " + source + ")");
        }
    }

    private void ok(final String line) {
        out.println("ok       " + line);
    }

    private void info(final String line) {
        out.println("info     " + line);
    }

    private void problem(final String line, final String fix) {
        problems++;
        out.println("PROBLEM  " + line);
        out.println("  fix:   " + fix);
    }
}
