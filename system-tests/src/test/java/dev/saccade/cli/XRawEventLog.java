package dev.saccade.cli;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.saccade.x11.Xlib;
import java.util.ArrayList;
import java.util.List;

/**
 * Records the pointer's raw XInput2 events (motion, button press and release) as the X server
 * stamps them, over a connection of the test's own: the server's clock, not ours, says when each
 * step of a paced motion reached it. Raw events reach every client that selects them on the root
 * window, whatever grab a toolkit holds during a drag.
 */
final class XRawEventLog implements AutoCloseable {
    static final int RAW_BUTTON_PRESS = Xlib.Xi.RAW_BUTTON_PRESS;
    static final int RAW_BUTTON_RELEASE = 16;
    static final int RAW_MOTION = Xlib.Xi.RAW_MOTION;
    private static final int MASK_BYTES = 4;
    private static final int POLL_MS = 20;

    /** One raw event: its XI2 type, the button (for presses and releases) and the server's time in ms. */
    record Event(int type, int detail, long serverTimeMs) {
    }

    private final long display;
    private final int xiOpcode;
    private final List<Event> events = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    XRawEventLog(final String displayName) {
        display = Xlib.X11.XOpenDisplay(displayName);
        if (display == 0) {
            throw new IllegalStateException("cannot open " + displayName);
        }
        final int[] opcode = new int[1];
        final int[] firstEvent = new int[1];
        final int[] firstError = new int[1];
        if (Xlib.X11.XQueryExtension(display, "XInputExtension", opcode, firstEvent, firstError) == 0) {
            Xlib.X11.XCloseDisplay(display);
            throw new IllegalStateException("no XInputExtension on " + displayName);
        }
        xiOpcode = opcode[0];
        final int[] major = {2};
        final int[] minor = {2};
        Xlib.Xi.XIQueryVersion(display, major, minor);
        final Memory masks = new Memory(Xlib.Xi.EVENT_MASK_SIZE + MASK_BYTES);
        masks.clear();
        final long base = Pointer.nativeValue(masks);
        masks.setInt(Xlib.Xi.EVENT_MASK_DEVICE_OFFSET, Xlib.Xi.ALL_MASTER_DEVICES);
        masks.setInt(Xlib.Xi.EVENT_MASK_LENGTH_OFFSET, MASK_BYTES);
        masks.setLong(Xlib.Xi.EVENT_MASK_POINTER_OFFSET, base + Xlib.Xi.EVENT_MASK_SIZE);
        for (final int type : new int[] {RAW_BUTTON_PRESS, RAW_BUTTON_RELEASE, RAW_MOTION}) {
            final long at = Xlib.Xi.EVENT_MASK_SIZE + (type >>> 3);
            masks.setByte(at, (byte) (masks.getByte(at) | 1 << (type & 7)));
        }
        Xlib.Xi.XISelectEvents(display, Xlib.X11.XDefaultRootWindow(display), base, 1);
        Xlib.X11.XSync(display, 0); // selected before the constructor returns: nothing later is missed
        thread = new Thread(this::run, "x-raw-event-log");
        thread.setDaemon(true);
        thread.start();
    }

    /** The events so far, oldest first. */
    synchronized List<Event> events() {
        return new ArrayList<>(events);
    }

    private void run() {
        final Memory event = new Memory(Xlib.XEVENT_SIZE);
        final Memory pollFd = new Memory(Xlib.Libc.POLLFD_SIZE);
        pollFd.setInt(0, Xlib.X11.XConnectionNumber(display));
        pollFd.setShort(Xlib.Libc.POLLFD_EVENTS_OFFSET, Xlib.Libc.POLLIN);
        while (running) {
            while (Xlib.X11.XPending(display) > 0) {
                Xlib.X11.XNextEvent(display, Pointer.nativeValue(event));
                record(event);
            }
            pollFd.setShort(Xlib.Libc.POLLFD_REVENTS_OFFSET, (short) 0);
            Xlib.Libc.poll(Pointer.nativeValue(pollFd), 1, POLL_MS); // wakes for events, or to look at running
        }
    }

    private void record(final Memory event) {
        if (event.getInt(0) != Xlib.GENERIC_EVENT || event.getInt(Xlib.Xi.COOKIE_EXTENSION_OFFSET) != xiOpcode) {
            return;
        }
        final long cookie = Pointer.nativeValue(event);
        if (Xlib.X11.XGetEventData(display, cookie) == 0) {
            return;
        }
        try {
            final int type = event.getInt(Xlib.Xi.COOKIE_EVTYPE_OFFSET);
            final Pointer raw = new Pointer(event.getLong(Xlib.Xi.COOKIE_DATA_OFFSET));
            synchronized (this) {
                events.add(new Event(type, raw.getInt(Xlib.Xi.RAW_DETAIL_OFFSET), raw.getLong(Xlib.Xi.RAW_TIME_OFFSET)));
            }
        } finally {
            Xlib.X11.XFreeEventData(display, cookie);
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join(2_000);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!thread.isAlive()) {
            Xlib.X11.XCloseDisplay(display);
        }
    }
}
