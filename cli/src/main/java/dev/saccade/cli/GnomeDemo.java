package dev.saccade.cli;

import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.GnomeDesktop;
import dev.saccade.gnome.ShellExtension;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code saccade up --gnome}: a headless GNOME Shell 43 session (demo-desktop's
 * {@link GnomeDesktop}) with Saccade's Shell extension enabled and the demo apps natively on
 * Wayland; served through the GNOME backend (docs/desktops/gnome.md).
 */
final class GnomeDemo {
    /** The demo apps of {@code up --gnome} without --apps. */
    static final DemoApp[] DEFAULT_APPS = DemoApp.values();

    private GnomeDemo() {
    }

    static int run(final DemoApp[] apps, final PrintWriter err, final WaylandDemo.Serve serve) throws Exception {
        err.println("saccade: starting a headless GNOME Shell demo desktop (Wayland, AT-SPI2, Saccade's extension)...");
        err.flush();
        final GnomeDesktop desktop = GnomeDesktop.start(1280, 800, "us", ShellExtension.UUID, ShellExtension.files());
        Runtime.getRuntime().addShutdownHook(new Thread(desktop::close, "saccade-gnome-shutdown"));
        try {
            final List<String> started = new ArrayList<>();
            for (final DemoApp app : apps) {
                final String name = app.name().toLowerCase(Locale.ROOT).replace('_', '-');
                desktop.launch(name, app.environment(), app.command().toArray(new String[0]));
                started.add(name);
            }
            err.println("saccade: GNOME session as uid " + desktop.uid() + ", WAYLAND_DISPLAY=" + desktop.waylandSocket()
                + "; apps: " + String.join(", ", started) + "; logs " + desktop.logDirectory());
            err.flush();
            return serve.serve("wayland:" + desktop.waylandSocket(), desktop.busAddress(), "headless GNOME demo desktop");
        } finally {
            desktop.close();
        }
    }
}
