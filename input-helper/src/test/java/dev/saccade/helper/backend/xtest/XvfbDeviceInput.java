package dev.saccade.helper.backend.xtest;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import dev.saccade.x11.Xlib;

/**
 * Input through a device other than the XTEST ones, standing in for a real user: XTEST can also
 * inject through a named slave device (XTestFakeDevice*Event on a device opened with the XInput 1
 * XOpenDevice), and the X server then reports that device as the raw events' sourceid. Here the
 * Xvfb keyboard and mouse, which nothing else drives. Test-only native calls (libXi, libXtst).
 */
public final class XvfbDeviceInput implements AutoCloseable {
    private final long display;
    private final long device;

    private XvfbDeviceInput(final long display, final long device) {
        this.display = display;
        this.device = device;
    }

    public static XvfbDeviceInput open(final String displayName, final long deviceId) {
        final long display = Xlib.X11.XOpenDisplay(displayName);
        if (display == 0) {
            throw new IllegalStateException("cannot open " + displayName);
        }
        final long device = Xi1.XOpenDevice(display, deviceId);
        if (device == 0) {
            Xlib.X11.XCloseDisplay(display);
            throw new IllegalStateException("cannot open device " + deviceId);
        }
        return new XvfbDeviceInput(display, device);
    }

    public void key(final int keyCode, final boolean down) {
        DeviceXtest.XTestFakeDeviceKeyEvent(display, device, keyCode, down ? 1 : 0, null, 0, 0);
        Xlib.X11.XSync(display, 0);
    }

    public void button(final int button, final boolean down) {
        DeviceXtest.XTestFakeDeviceButtonEvent(display, device, button, down ? 1 : 0, null, 0, 0);
        Xlib.X11.XSync(display, 0);
    }

    public void moveBy(final int dx, final int dy) {
        DeviceXtest.XTestFakeDeviceMotionEvent(display, device, 1, 0, new int[] {dx, dy}, 2, 0);
        Xlib.X11.XSync(display, 0);
    }

    @Override
    public void close() {
        Xi1.XCloseDevice(display, device);
        Xlib.X11.XCloseDisplay(display);
    }

    private static final class Xi1 {
        static {
            Native.register(NativeLibrary.getInstance("Xi"));
        }

        static native long XOpenDevice(long display, long deviceId);

        static native int XCloseDevice(long display, long device);
    }

    private static final class DeviceXtest {
        static {
            Native.register(NativeLibrary.getInstance("Xtst"));
        }

        static native int XTestFakeDeviceKeyEvent(long display, long device, int keyCode, int isPress, int[] axes,
            int axisCount, long delayMs);

        static native int XTestFakeDeviceButtonEvent(long display, long device, int button, int isPress, int[] axes,
            int axisCount, long delayMs);

        static native int XTestFakeDeviceMotionEvent(long display, long device, int isRelative, int firstAxis,
            int[] axes, int axisCount, long delayMs);
    }
}
