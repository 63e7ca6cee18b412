package dev.saccade.gnome;

import dev.saccade.desktop.DesktopBackend;
import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.ScreenCapture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.freedesktop.dbus.exceptions.DBusException;

/**
 * A {@code wayland:<socket>} display whose session is GNOME's: XDG_CURRENT_DESKTOP names GNOME,
 * or the session bus has mutter's RemoteDesktop and GNOME Shell (checked once per display, since
 * a test JVM may serve a GNOME session whose variables it does not carry). Windows and monitors
 * come from Saccade's Shell extension ({@link GnomeDesktopReader}), pixels from its screenshot
 * ({@link ShellCapture}). The owner asks this backend before the wlroots one.
 */
public final class GnomeBackend implements DesktopBackend {
    public static final String PREFIX = "wayland:";

    private final Supplier<String> busAddress;

    /** A backend for the session bus {@code busAddress} names when asked (the owner's setting). */
    public GnomeBackend(final Supplier<String> busAddress) {
        this.busAddress = busAddress;
    }

    /**
     * The session's runtime directory, where the shell may write a screenshot for us: the
     * directory of an absolute socket path, else XDG_RUNTIME_DIR.
     */
    static Path runtimeDirectory(final String display) {
        final String socket = display.substring(PREFIX.length());
        if (socket.startsWith("/")) {
            return Path.of(socket).getParent();
        }
        final String variable = System.getenv("XDG_RUNTIME_DIR");
        return variable == null || variable.isEmpty() ? Path.of(System.getProperty("java.io.tmpdir")) : Path.of(variable);
    }

    /** Whether the session at {@code busAddress} is GNOME's: mutter's RemoteDesktop and GNOME Shell are on its bus. */
    public static boolean isGnomeSession(final String busAddress) {
        if (busAddress == null || busAddress.isEmpty()) {
            return false;
        }
        try (ShellClient shell = ShellClient.connect(busAddress)) {
            return shell.hasName(ShellClient.REMOTE_DESKTOP_NAME) && shell.hasName(ShellClient.SHELL_NAME);
        } catch (final DBusException e) {
            return false; // no bus there
        }
    }

    /**
     * The session bus of {@code display}: for an absolute socket path, the {@code bus} socket
     * beside it when there is one ({@code $XDG_RUNTIME_DIR/bus}, systemd's user bus and the
     * headless sessions'), else the configured one. The input helper finds it the same way.
     */
    String busOf(final String display) {
        final String socket = display.substring(PREFIX.length());
        if (socket.startsWith("/")) {
            final Path bus = Path.of(socket).resolveSibling("bus");
            if (Files.exists(bus)) {
                return "unix:path=" + bus;
            }
        }
        return busAddress.get();
    }

    @Override
    public boolean reads(final String display) {
        if (display == null || !display.startsWith(PREFIX)) {
            return false;
        }
        return isGnomeSession(busOf(display));
    }

    @Override
    public Runnable start(final String display, final Consumer<DesktopSnapshot> listener) throws IOException {
        return new GnomeDesktopReader(busOf(display), listener).start()::close;
    }

    /** One snapshot for {@code saccade doctor}; IOException when the extension does not answer. */
    public DesktopSnapshot readOnce(final String display) throws IOException {
        return GnomeDesktopReader.readOnce(busOf(display));
    }

    @Override
    public ScreenCapture openCapture(final String display) {
        return ShellCapture.open(busOf(display), runtimeDirectory(display));
    }
}
