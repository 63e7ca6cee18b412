package dev.saccade.cli;

import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.supervisor.InputHelperMode;
import dev.saccade.supervisor.SupervisorContext;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code saccade up}: the main job. On a machine with a display it serves that desktop; without
 * one it first starts a headless demo desktop (Xvfb, openbox, D-Bus with AT-SPI2 and real GTK3,
 * zenity and Qt5 apps). The owner and the input helper run under a supervisor (restarts with
 * backoff, the endpoint kept listening); Ctrl-C stops the supervisor, its children (the helper
 * releases any held input) and the demo desktop.
 */
@Command(name = "up", mixinStandardHelpOptions = true,
    header = "Start Saccade: on this display, or on a headless demo desktop when there is none.",
    description = {
        "With DISPLAY set, serves that desktop. Without it (or with --headless), starts a headless demo desktop "
            + "with real apps first. Prints the endpoint and a first command to try; Ctrl-C stops everything."},
    footer = {"", "Examples:", "  saccade up", "  saccade up --headless --apps gtk3-demo,qt-calculator"})
final class UpCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    OwnerOptions owner;

    @Option(names = "--headless", description = "Start a headless demo desktop even when DISPLAY is set.")
    boolean headless;

    @Option(names = "--wayland", description = "Start a headless sway (Wayland) demo desktop as a dedicated user "
        + "(" + "saccade-wl, created when run as root) with native GTK apps and an XWayland one.")
    boolean wayland;

    @Option(names = "--kde", description = "Start a headless KDE Plasma demo desktop (kwin_wayland --virtual) with "
        + "native GTK and Qt apps; the apps run as saccade-wl when run as root.")
    boolean kde;

    @Option(names = "--gnome", description = "Start a headless GNOME Shell (Wayland) demo desktop as a dedicated user "
        + "(" + "saccade-wl, created when run as root) with Saccade's Shell extension and native GTK and Qt apps.")
    boolean gnome;

    @Option(names = "--apps", paramLabel = "APP[,APP]", split = ",",
        description = "Demo apps on a headless desktop: gtk3-demo, zenity-entry, qt-calculator, or none "
            + "(default: all three).")
    List<String> apps;

    /** The supervisor starts the input helper, which outlives owners and attaches to each. */
    static final InputHelperMode HELPER_MODE = InputHelperMode.SUPERVISED;

    @Override
    public Integer call() throws Exception {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final String display = System.getenv("DISPLAY");
        final DemoApp[] demoApps = demoApps(err);
        if (demoApps == null) {
            return ExitCodes.USAGE;
        }
        if (kde) {
            return KdeDemo.run(apps == null ? KdeDemo.DEFAULT_APPS : demoApps, err, (kdeDisplay, bus, demo) ->
                supervise(kdeDisplay, bus, out, err, null, demo));
        }
        if (gnome) {
            return GnomeDemo.run(apps == null ? GnomeDemo.DEFAULT_APPS : demoApps, err, (gnomeDisplay, bus, demo) ->
                supervise(gnomeDisplay, bus, out, err, null, demo));
        }
        if (wayland) {
            return WaylandDemo.run(apps == null ? WaylandDemo.DEFAULT_APPS : demoApps, err, (waylandDisplay, bus, demo) -> supervise(waylandDisplay, bus, out, err,
                null, demo));
        }
        final String session = headless ? null : WaylandSession.displayToServe(null);
        if (session != null && WaylandSession.listsWindows(session.substring(WaylandSession.PREFIX.length()))) {
            return supervise(session, null, out, err, null);
        }
        if (!headless && display != null && !display.isEmpty()) {
            return supervise(display, null, out, err, null);
        }
        err.println("saccade: starting a headless demo desktop (Xvfb, openbox, AT-SPI2" + names(demoApps) + ")...");
        err.flush();
        final TestDesktop desktop = TestDesktop.start(demoApps);
        // The supervisor's shutdown hook and this one both run on Ctrl-C; each close is idempotent.
        Runtime.getRuntime().addShutdownHook(new Thread(desktop::close, "saccade-desktop-shutdown"));
        try {
            return supervise(desktop.display(), desktop.sessionBusAddress(), out, err, desktop);
        } finally {
            desktop.close();
        }
    }

    /** The whole system under a supervisor: owner and helper as its children, until Ctrl-C. */
    private int supervise(final String display, final String sessionBus, final PrintWriter out, final PrintWriter err,
        final TestDesktop desktop) throws Exception {
        return supervise(display, sessionBus, out, err, desktop, null);
    }

    private int supervise(final String display, final String sessionBus, final PrintWriter out, final PrintWriter err,
        final TestDesktop desktop, final String demoNote) throws Exception {
        final SupervisorContext context = new SupervisorContext().display(display).inputHelper(HELPER_MODE)
            .ownerArgs(owner.ownerRunArgs());
        if (sessionBus != null) {
            context.sessionBusAddress(sessionBus);
        }
        if (desktop != null) {
            // the demo desktop is ours: when its X server is gone, so is the point of serving it
            context.xAuthority(desktop.xAuthority()).stopWhenDisplayGone(true);
        }
        if (owner.runtimeDirectory != null) {
            context.runtimeDirectory(owner.runtimeDirectory);
        }
        if (owner.endpoint != null) {
            context.endpoint(owner.endpoint.toAbsolutePath());
        }
        final java.util.concurrent.atomic.AtomicBoolean announced = new java.util.concurrent.atomic.AtomicBoolean();
        // "up" only once an action would be accepted: an owner serves and its helper is attached
        context.onReady(pid -> {
            if (announced.compareAndSet(false, true)) {
                ready(out, context.endpoint(), display, desktop, demoNote);
            }
        });
        return SupervisorRunCommand.superviseUntilStopped(context, err);
    }

    private DemoApp[] demoApps(final PrintWriter err) {
        if (apps == null) {
            return DemoApp.values();
        }
        final List<DemoApp> chosen = new ArrayList<>();
        for (final String name : apps) {
            final String n = name.trim().toLowerCase(Locale.ROOT);
            if (n.equals("none")) {
                continue;
            }
            DemoApp match = null;
            for (final DemoApp app : DemoApp.values()) {
                if (app.name().toLowerCase(Locale.ROOT).replace('_', '-').equals(n) || app.command().get(0).endsWith(n)) {
                    match = app;
                }
            }
            if (match == null) {
                err.println("saccade: --apps: unknown app '" + name + "'; choose from gtk3-demo, zenity-entry, qt-calculator, none");
                return null;
            }
            chosen.add(match);
        }
        return chosen.toArray(new DemoApp[0]);
    }

    private static String names(final DemoApp[] apps) {
        final StringBuilder b = new StringBuilder();
        for (final DemoApp app : apps) {
            b.append(", ").append(app.name().toLowerCase(Locale.ROOT).replace('_', '-'));
        }
        return b.toString();
    }

    private static void ready(final PrintWriter out, final java.nio.file.Path endpoint, final String display,
        final TestDesktop desktop, final String demoNote) {
        out.println("Saccade is up.");
        out.println("  display:  " + display + (desktop != null ? " (headless demo desktop)" : "")
            + (demoNote != null ? " (" + demoNote + ")" : ""));
        out.println("  endpoint: " + endpoint);
        out.println("Try, in another terminal:");
        out.println("  saccade observe --scope active-window --json");
        out.println("  saccade query --role window --json");
        if (desktop != null) {
            out.println("To see it or drive it with X tools: DISPLAY=" + display + " xwininfo -root -tree");
        }
        out.println("Ctrl-C stops Saccade" + (desktop != null || demoNote != null ? " and the demo desktop." : "."));
        out.flush();
    }
}
