package dev.saccade.cli;

import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.SwayDesktop;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code saccade up --wayland}: a headless sway session (test-desktop's {@link SwayDesktop}) with
 * the demo apps that run natively on Wayland (gtk3-demo, the zenity entry) and, when Xwayland is
 * installed, the zenity entry once more on XWayland; the Qt calculator needs the Qt Wayland
 * plugin (qtwayland5), which install-deps does not install, so it is left out with a note.
 */
final class WaylandDemo {
    /** What runs once the session is up: supervise it until Ctrl-C. */
    interface Serve {
        int serve(String display, String sessionBus, String note) throws Exception;
    }

    /** The demo apps of {@code up --wayland} without --apps: the ones that run natively. */
    static final DemoApp[] DEFAULT_APPS = {DemoApp.GTK3_DEMO, DemoApp.ZENITY_ENTRY};

    private WaylandDemo() {
    }

    static int run(final DemoApp[] apps, final PrintWriter err, final Serve serve) throws Exception {
        final boolean xwayland = SwayDesktop.isXwaylandInstalled();
        err.println("saccade: starting a headless sway demo desktop (Wayland, AT-SPI2"
            + (xwayland ? ", XWayland" : ", no XWayland: install xwayland") + ")...");
        err.flush();
        final SwayDesktop desktop = SwayDesktop.start(1280, 800, xwayland);
        Runtime.getRuntime().addShutdownHook(new Thread(desktop::close, "saccade-sway-shutdown"));
        try {
            final List<String> started = new ArrayList<>();
            for (final DemoApp app : apps) {
                switch (app) {
                    case GTK3_DEMO, ZENITY_ENTRY -> {
                        desktop.launch(app.name().toLowerCase(java.util.Locale.ROOT), false,
                            app.command().toArray(new String[0]));
                        started.add(app.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
                    }
                    default -> err.println("saccade: " + app.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')
                        + " is left out on Wayland (its toolkit's Wayland plugin is not installed)");
                }
            }
            if (xwayland) {
                desktop.launch("zenity-xwayland", true, "zenity", "--entry", "--title=Saccade entry (XWayland)",
                    "--text=An X11 app on XWayland");
                started.add("zenity-entry on XWayland");
            }
            err.println("saccade: sway session as uid " + desktop.uid() + ", WAYLAND_DISPLAY=" + desktop.waylandSocket()
                + " SWAYSOCK=" + desktop.swaySocket() + (desktop.xDisplay() != null ? " DISPLAY=" + desktop.xDisplay() : "")
                + "; apps: " + String.join(", ", started) + "; logs " + desktop.logDirectory());
            err.flush();
            return serve.serve("wayland:" + desktop.waylandSocket(), desktop.busAddress(), "headless sway demo desktop");
        } finally {
            desktop.close();
        }
    }
}
