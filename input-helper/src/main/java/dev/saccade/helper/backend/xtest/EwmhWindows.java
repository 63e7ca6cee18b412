package dev.saccade.helper.backend.xtest;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.saccade.protocol.ResultCode;
import dev.saccade.x11.Xlib;

/**
 * Window activation the EWMH way: a {@code _NET_ACTIVE_WINDOW} client message to the root window
 * with source indication 2 (a pager: the user's request, so the window manager's focus-stealing
 * prevention does not apply), and cycling through {@code _NET_CLIENT_LIST_STACKING}. The window
 * manager acts asynchronously; callers observe {@code _NET_ACTIVE_WINDOW}. One thread.
 */
final class EwmhWindows {
    /** Source indication of a pager or other direct user action (EWMH, _NET_ACTIVE_WINDOW). */
    static final long SOURCE_PAGER = 2;
    /** Windows read from _NET_CLIENT_LIST_STACKING at most. */
    static final int MAX_WINDOWS = 1024;

    private final long display;
    private final long root;
    private final long activeWindowAtom;
    private final long stackingAtom;
    private final Memory event = new Memory(Xlib.XEVENT_SIZE);
    private final long[] windows = new long[MAX_WINDOWS];
    private final long[] actualType = new long[1];
    private final int[] actualFormat = new int[1];
    private final long[] itemCount = new long[1];
    private final long[] bytesAfter = new long[1];
    private final long[] data = new long[1];

    EwmhWindows(final long display, final long root) {
        this.display = display;
        this.root = root;
        this.activeWindowAtom = Xlib.X11.XInternAtom(display, "_NET_ACTIVE_WINDOW", 0);
        this.stackingAtom = Xlib.X11.XInternAtom(display, "_NET_CLIENT_LIST_STACKING", 0);
    }

    /** Sends the activation request. */
    int activate(final long window, final long currentlyActive) {
        if (window == 0) {
            return ResultCode.PLATFORM_INVALID_ARGUMENT;
        }
        event.clear();
        event.setInt(Xlib.CLIENT_MESSAGE_TYPE_OFFSET, Xlib.CLIENT_MESSAGE);
        event.setInt(Xlib.CLIENT_MESSAGE_SEND_EVENT_OFFSET, 1);
        event.setLong(Xlib.CLIENT_MESSAGE_DISPLAY_OFFSET, display);
        event.setLong(Xlib.CLIENT_MESSAGE_WINDOW_OFFSET, window);
        event.setLong(Xlib.CLIENT_MESSAGE_ATOM_OFFSET, activeWindowAtom);
        event.setInt(Xlib.CLIENT_MESSAGE_FORMAT_OFFSET, 32);
        event.setLong(Xlib.CLIENT_MESSAGE_DATA_OFFSET, SOURCE_PAGER);
        event.setLong(Xlib.CLIENT_MESSAGE_DATA_OFFSET + 8, 0);               // CurrentTime
        event.setLong(Xlib.CLIENT_MESSAGE_DATA_OFFSET + 16, currentlyActive); // requestor's active window
        final int sent = Xlib.X11.XSendEvent(display, root, 0,
            Xlib.SUBSTRUCTURE_REDIRECT_MASK | Xlib.SUBSTRUCTURE_NOTIFY_MASK, Pointer.nativeValue(event));
        return sent != 0 ? ResultCode.PLATFORM_OK : ResultCode.PLATFORM_BACKEND;
    }

    /** The root's _NET_ACTIVE_WINDOW, 0 if none or no EWMH window manager. */
    long activeWindow() {
        return readWindows(activeWindowAtom, 1) == 1 ? windows[0] : 0;
    }

    /**
     * Activates the window just below the active one in stacking order (forward: the most
     * recently active other window under a window manager that raises on activation), or with
     * {@code backward} the one just above it, wrapping around; the topmost window if none is active.
     */
    int cycle(final boolean backward) {
        final long active = activeWindow();
        final int count = readWindows(stackingAtom, MAX_WINDOWS);
        if (count < 0) {
            return ResultCode.PLATFORM_UNSUPPORTED; // no EWMH window manager
        }
        if (count == 0) {
            return ResultCode.PLATFORM_NOT_FOUND;
        }
        int index = -1;
        for (int i = 0; i < count; i++) {
            if (windows[i] == active) {
                index = i;
                break;
            }
        }
        final int target;
        if (index < 0) {
            target = count - 1;
        } else if (count == 1) {
            return ResultCode.PLATFORM_OK; // the only window is already active
        } else {
            target = backward ? (index + 1) % count : (index - 1 + count) % count;
        }
        return activate(windows[target], active);
    }

    /** Reads a format-32 window list property of the root into {@link #windows}; -1 if it is absent. */
    private int readWindows(final long property, final int max) {
        data[0] = 0;
        final int status = Xlib.X11.XGetWindowProperty(display, root, property, 0, max, 0, Xlib.ANY_PROPERTY_TYPE,
            actualType, actualFormat, itemCount, bytesAfter, data);
        final long prop = data[0];
        try {
            if (status != Xlib.SUCCESS || actualType[0] == 0 || actualFormat[0] != 32) {
                return -1;
            }
            final int count = (int) Math.min(itemCount[0], max);
            if (count > 0) {
                new Pointer(prop).read(0, windows, 0, count); // format 32 items are C longs
            }
            return count;
        } finally {
            if (prop != 0) {
                Xlib.X11.XFree(prop);
            }
        }
    }
}
