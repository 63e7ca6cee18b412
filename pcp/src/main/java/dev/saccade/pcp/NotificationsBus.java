package dev.saccade.pcp;

import java.util.List;
import java.util.Map;
import org.freedesktop.dbus.annotations.DBusInterfaceName;
import org.freedesktop.dbus.interfaces.DBusInterface;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.Variant;

/**
 * The methods of the Desktop Notifications Specification's {@code org.freedesktop.Notifications}
 * that {@link NotificationPrompt} calls, as a dbus-java remote interface. Its method names are the
 * bus's.
 */
@DBusInterfaceName("org.freedesktop.Notifications")
public interface NotificationsBus extends DBusInterface {
    /** The optional features of the server; {@code actions} means it shows buttons. */
    List<String> GetCapabilities();

    /** Shows a notification; returns its id, which the signals carry. */
    UInt32 Notify(String appName, UInt32 replacesId, String appIcon, String summary, String body, List<String> actions,
        Map<String, Variant<?>> hints, int expireTimeout);

    void CloseNotification(UInt32 id);
}
