package dev.saccade.cli;

import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.KdeDesktop;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code saccade up --kde}: a headless KWin 5.27 session ({@link KdeDesktop}: kwin_wayland
 * --virtual, its own session bus and AT-SPI registry) with native Wayland demo apps, served
 * like {@code --wayland}'s sway session until Ctrl-C.
 */
final class KdeDemo {
    /** The demo apps of {@code up --kde} without --apps: all three run natively (Qt through qtwayland5). */
    static final DemoApp[] DEFAULT_APPS = {DemoApp.GTK3_DEMO, DemoApp.ZENITY_ENTRY, DemoApp.QT_CALCULATOR};

    private KdeDemo() {
    }

    static int run(final DemoApp[] apps, final PrintWriter err, final WaylandDemo.Serve serve) throws Exception {
        err.println("saccade: starting a headless KDE Plasma demo desktop (kwin_wayland --virtual, AT-SPI2)...");
        err.flush();
        final KdeDesktop desktop = KdeDesktop.start(1280, 800, "us");
        Runtime.getRuntime().addShutdownHook(new Thread(desktop::close, "saccade-kde-shutdown"));
        try {
            final List<String> started = new ArrayList<>();
            for (final DemoApp app : apps) {
                final String name = app.name().toLowerCase(Locale.ROOT).replace('_', '-');
                desktop.launch(name, app.command().toArray(new String[0]));
                started.add(name);
            }
            err.println("saccade: KWin session, WAYLAND_DISPLAY=" + desktop.waylandSocket() + "; apps: "
                + String.join(", ", started) + "; logs " + desktop.logDirectory());
            err.flush();
            return serve.serve("wayland:" + desktop.waylandSocket(), desktop.busAddress(), "headless KWin demo desktop");
        } finally {
            desktop.close();
        }
    }
}
