package dev.saccade.kde;

import org.freedesktop.dbus.annotations.DBusInterfaceName;
import org.freedesktop.dbus.interfaces.DBusInterface;

/** KWin's {@code org.kde.kwin.Scripting} at {@code /Scripting} on {@code org.kde.KWin} (Plasma 5.27). */
@DBusInterfaceName("org.kde.kwin.Scripting")
public interface KwinScripting extends DBusInterface {
    String SERVICE = "org.kde.KWin";
    String PATH = "/Scripting";

    /** Loads the script file {@code filePath} as {@code pluginName}; its id, or -1 if that name is loaded already. */
    int loadScript(String filePath, String pluginName);

    /** Runs every loaded script that is not running yet. */
    void start();

    boolean unloadScript(String pluginName);

    boolean isScriptLoaded(String pluginName);
}
