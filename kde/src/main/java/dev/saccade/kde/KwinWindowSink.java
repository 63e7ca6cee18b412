package dev.saccade.kde;

import org.freedesktop.dbus.annotations.DBusInterfaceName;
import org.freedesktop.dbus.annotations.DBusMemberName;
import org.freedesktop.dbus.interfaces.DBusInterface;

/** The D-Bus object the KWin script reports to: one call per change, the whole window list as JSON. */
@DBusInterfaceName(KwinWindowSink.INTERFACE)
public interface KwinWindowSink extends DBusInterface {
    String INTERFACE = "dev.saccade.KwinWindows";
    String PATH = "/dev/saccade/KwinWindows";

    @DBusMemberName("Windows")
    void windows(String json);
}
