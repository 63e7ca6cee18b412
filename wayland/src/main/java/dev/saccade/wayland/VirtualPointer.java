package dev.saccade.wayland;

import com.sun.jna.Pointer;
import java.io.IOException;

/**
 * A {@code zwlr_virtual_pointer_v1} (wlr-virtual-pointer-unstable-v1: motion 0, motion_absolute 1,
 * button 2, axis 3, frame 4, axis_source 5, axis_stop 6, axis_discrete 7, destroy 8). Absolute
 * motion is in layout coordinates: (x, y) out of the layout's extent. Every event ends with a
 * frame, so the compositor hands it to the client at once.
 */
public final class VirtualPointer implements PointerDevice {
    public static final String MANAGER = "zwlr_virtual_pointer_manager_v1";
    /** linux/input-event-codes.h */
    public static final int BTN_LEFT = 0x110;
    public static final int BTN_RIGHT = 0x111;
    public static final int BTN_MIDDLE = 0x112;
    public static final int AXIS_VERTICAL = 0;
    public static final int AXIS_HORIZONTAL = 1;
    private static final int AXIS_SOURCE_WHEEL = 0;
    /** What one wheel notch scrolls in wl_pointer's axis units (libinput's and wlroots' convention). */
    private static final int AXIS_UNITS_PER_STEP = 15;

    private final WaylandConnection connection;
    private final Pointer manager;
    private final Pointer pointer;
    private boolean destroyed;

    private VirtualPointer(final WaylandConnection connection, final Pointer manager, final Pointer pointer) {
        this.connection = connection;
        this.manager = manager;
        this.pointer = pointer;
    }

    public static VirtualPointer create(final WaylandConnection connection, final Pointer seat) throws IOException {
        final Pointer manager = connection.bind(MANAGER, WlInterfaces.VIRTUAL_POINTER_MANAGER, 1);
        if (manager == null) {
            throw new IOException("the compositor offers no " + MANAGER);
        }
        return new VirtualPointer(connection, manager,
            connection.request(manager, 0, WlInterfaces.VIRTUAL_POINTER, 1, 0, seat, null));
    }

    @Override
    public void moveTo(final int timeMs, final int x, final int y, final int extentX, final int extentY) {
        connection.send(pointer, 1, timeMs, x, y, extentX, extentY);
        connection.send(pointer, 4);
    }

    @Override
    public void button(final int timeMs, final int button, final boolean down) {
        connection.send(pointer, 2, timeMs, button, down ? 1 : 0);
        connection.send(pointer, 4);
    }

    @Override
    public void wheel(final int timeMs, final int axis, final int steps) {
        connection.send(pointer, 5, AXIS_SOURCE_WHEEL);
        connection.send(pointer, 7, timeMs, axis, steps * AXIS_UNITS_PER_STEP * 256, steps);
        connection.send(pointer, 4);
    }

    @Override
    public void close() {
        if (destroyed) {
            return;
        }
        destroyed = true;
        connection.destroy(pointer, 8);
        connection.forget(manager); // bound at version 1, where the manager has no destructor
        connection.flush();
    }
}
