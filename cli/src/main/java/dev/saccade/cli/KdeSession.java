package dev.saccade.cli;

import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.kde.KwinWindowReader;
import dev.saccade.wayland.FakeInput;
import dev.saccade.wayland.WaylandConnection;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * {@code saccade doctor} on a KDE Plasma session (docs/desktops/kde.md): names the backend, says
 * whether KWin grants this program fake input (and the exact step when it does not), reads the
 * windows once through the KWin script, and says that pixels are not served on KWin yet.
 */
final class KdeSession {
    /** The desktop file that grants Saccade's executable KWin's restricted interfaces (docs/desktops/kde.md §3). */
    static final String DESKTOP_FILE = "~/.local/share/applications/dev.saccade.Saccade.desktop";

    private KdeSession() {
    }

    /** The Java executable that runs Saccade's processes: the one KWin identifies them by. */
    static String executable() {
        return ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
    }

    /** The desktop file's text for {@code executable}. */
    static String desktopFile(final String executable) {
        return String.join("\n", "[Desktop Entry]", "Type=Application", "Name=Saccade", "NoDisplay=true",
            "Exec=" + executable, "X-KDE-Wayland-Interfaces=" + FakeInput.GLOBAL,
            "X-KDE-DBUS-Restricted-Interfaces=org.kde.KWin.ScreenShot2", "");
    }

    static DesktopSnapshot check(final String display, final String sessionBus, final Consumer<String> ok,
        final Consumer<String> info, final BiConsumer<String, String> problem) {
        final String socket = display.substring(WaylandSession.PREFIX.length());
        ok.accept("backend: KDE Plasma (KWin) on " + display + ": windows from a KWin script, input through KWin's"
            + " fake input");
        try (WaylandConnection connection = WaylandConnection.connect(socket)) {
            if (FakeInput.offered(connection)) {
                ok.accept("wayland protocol " + FakeInput.GLOBAL + ": granted to " + executable() + " (input helper)");
            } else {
                problem.accept("wayland protocol " + FakeInput.GLOBAL + " is not granted to " + executable()
                    + ": no input", "write " + DESKTOP_FILE + " with the lines `" + desktopFile(executable())
                    .strip().replace("\n", "` `") + "`, run kbuildsycoca5, and restart the Plasma session");
            }
        } catch (final IOException | UnsatisfiedLinkError e) {
            problem.accept("wayland display " + socket + ": cannot connect (" + e.getMessage() + ")",
                "run inside the Plasma session, or set WAYLAND_DISPLAY");
            return null;
        }
        info.accept("pixels: not served on KWin yet (its ScreenShot2 interface needs OpenGL compositing and the"
            + " desktop file's X-KDE-DBUS-Restricted-Interfaces); PIXEL targets are off");
        final AtomicReference<DesktopSnapshot> first = new AtomicReference<>();
        try {
            new KwinWindowReader(socket, sessionBus, s -> first.compareAndSet(null, s)).start().close();
        } catch (final IOException e) {
            problem.accept("windows: " + e.getMessage(), "run inside the Plasma session (DBUS_SESSION_BUS_ADDRESS),"
                + " with KWin's scripting enabled");
            return null;
        }
        final DesktopSnapshot s = first.get();
        ok.accept("display " + display + ": " + s.windows().size() + " windows, " + s.monitors().size() + " outputs");
        return s;
    }
}
