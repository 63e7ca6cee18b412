package dev.saccade.helper.backend.mutter;

import java.util.Map;
import org.freedesktop.dbus.DBusPath;
import org.freedesktop.dbus.annotations.DBusInterfaceName;
import org.freedesktop.dbus.annotations.DBusMemberName;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.interfaces.DBusInterface;
import org.freedesktop.dbus.messages.DBusSignal;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.Variant;

/**
 * The D-Bus interfaces of mutter 43 that {@link MutterBackend} calls, as dbus-java proxies:
 * RemoteDesktop and its session (the input), ScreenCast and its session (the stream absolute
 * motion is expressed in), and the window activation of Saccade's Shell extension.
 */
final class MutterBus {
    static final String REMOTE_DESKTOP_NAME = "org.gnome.Mutter.RemoteDesktop";
    static final String REMOTE_DESKTOP_PATH = "/org/gnome/Mutter/RemoteDesktop";
    static final String REMOTE_DESKTOP_SESSION = "org.gnome.Mutter.RemoteDesktop.Session";
    static final String SCREEN_CAST_NAME = "org.gnome.Mutter.ScreenCast";
    static final String SCREEN_CAST_PATH = "/org/gnome/Mutter/ScreenCast";
    static final String SHELL_NAME = "org.gnome.Shell";
    static final String EXTENSION_PATH = "/dev/saccade/Shell";

    private MutterBus() {
    }

    @DBusInterfaceName("org.gnome.Mutter.RemoteDesktop")
    public interface RemoteDesktop extends DBusInterface {
        @DBusMemberName("CreateSession")
        DBusPath createSession();
    }

    @DBusInterfaceName("org.gnome.Mutter.RemoteDesktop.Session")
    public interface RemoteDesktopSession extends DBusInterface {
        @DBusMemberName("Start")
        void start();

        @DBusMemberName("Stop")
        void stop();

        @DBusMemberName("NotifyKeyboardKeycode")
        void keycode(UInt32 keycode, boolean pressed);

        @DBusMemberName("NotifyKeyboardKeysym")
        void keysym(UInt32 keysym, boolean pressed);

        @DBusMemberName("NotifyPointerButton")
        void button(int button, boolean pressed);

        @DBusMemberName("NotifyPointerAxisDiscrete")
        void axisDiscrete(UInt32 axis, int steps);

        @DBusMemberName("NotifyPointerMotionAbsolute")
        void motionAbsolute(String stream, double x, double y);
    }

    @DBusInterfaceName("org.gnome.Mutter.ScreenCast")
    public interface ScreenCast extends DBusInterface {
        @DBusMemberName("CreateSession")
        DBusPath createSession(Map<String, Variant<?>> properties);
    }

    @DBusInterfaceName("org.gnome.Mutter.ScreenCast.Session")
    public interface ScreenCastSession extends DBusInterface {
        @DBusMemberName("RecordMonitor")
        DBusPath recordMonitor(String connector, Map<String, Variant<?>> properties);
    }

    @DBusInterfaceName("org.gnome.Mutter.ScreenCast.Stream")
    public interface Stream extends DBusInterface {
        /** The stream is ready: absolute motion in it is accepted from now on. */
        class PipeWireStreamAdded extends DBusSignal {
            public PipeWireStreamAdded(final String path, final UInt32 nodeId) throws DBusException {
                super(path, nodeId);
            }
        }
    }

    @DBusInterfaceName("dev.saccade.Shell1")
    public interface SaccadeShell extends DBusInterface {
        @DBusMemberName("ListWindows")
        String listWindows();

        @DBusMemberName("Activate")
        boolean activate(org.freedesktop.dbus.types.UInt64 id);
    }
}
