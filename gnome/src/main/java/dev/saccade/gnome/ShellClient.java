package dev.saccade.gnome;

import java.nio.file.Path;
import org.freedesktop.dbus.annotations.DBusInterfaceName;
import org.freedesktop.dbus.annotations.DBusMemberName;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.exceptions.DBusExecutionException;
import org.freedesktop.dbus.interfaces.DBus;
import org.freedesktop.dbus.interfaces.DBusInterface;

/**
 * A session bus connection to Saccade's Shell extension ({@link ShellExtension}): the window
 * list and the screenshot. Used by one thread at a time (the reader's, or the pixel source's).
 */
final class ShellClient implements AutoCloseable {
    static final String SHELL_NAME = "org.gnome.Shell";
    static final String REMOTE_DESKTOP_NAME = "org.gnome.Mutter.RemoteDesktop";

    private final DBusConnection bus;
    private final Shell shell;

    private ShellClient(final DBusConnection bus) throws DBusException {
        this.bus = bus;
        this.shell = bus.getRemoteObject(SHELL_NAME, ShellExtension.OBJECT_PATH, Shell.class);
    }

    static ShellClient connect(final String address) throws DBusException {
        final DBusConnection bus = DBusConnectionBuilder.forAddress(address).withShared(false).build();
        try {
            return new ShellClient(bus);
        } catch (final DBusException e) {
            bus.disconnect();
            throw e;
        }
    }

    /** Whether {@code name} has an owner on this bus. */
    boolean hasName(final String name) {
        try {
            return bus.getRemoteObject("org.freedesktop.DBus", "/org/freedesktop/DBus", DBus.class).NameHasOwner(name);
        } catch (final DBusException | DBusExecutionException e) {
            return false; // the bus did not answer: treated as absent
        }
    }

    /** The extension's window list (JSON); throws DBusExecutionException when the extension is not enabled. */
    String listWindows() {
        return shell.listWindows();
    }

    /** A PNG of the whole stage written by the shell to {@code file} (inside XDG_RUNTIME_DIR). */
    boolean screenshot(final Path file) {
        return shell.screenshot(file.toString());
    }

    @Override
    public void close() {
        bus.disconnect();
    }

    /** The extension's interface. */
    @DBusInterfaceName("dev.saccade.Shell1")
    public interface Shell extends DBusInterface {
        @DBusMemberName("ListWindows")
        String listWindows();

        @DBusMemberName("Screenshot")
        boolean screenshot(String path);
    }
}
