package dev.saccade.helper.backend.xtest;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.saccade.helper.backend.BackendUnavailableException;
import dev.saccade.helper.backend.UserInputListener;
import dev.saccade.x11.Xlib;

/**
 * Detects real user input with XInput2: raw key presses, button presses, motion and touch
 * begins, selected on the root window for all master devices, each carrying the {@code sourceid}
 * of the slave device that produced it. Events from the "XTEST" slave devices (every master has
 * one pointer and one keyboard, e.g. "Virtual core XTEST pointer") are synthetic: ours, or
 * another XTest client's such as xdotool. Everything else is the user and goes to the
 * {@link UserInputListener}. The device list is re-read when the hierarchy changes (hotplug, a new
 * master).
 *
 * <p>Raw events are delivered regardless of grabs and of which window has focus (XI 2.1+;
 * version 2.2 is requested). The loop runs on its own thread with its own Display connection and
 * blocks in poll(2) on the X socket and a self-pipe; {@link #close()} writes the pipe, so the
 * thread stops at once.
 *
 * <p>Counters are written by the monitor thread only and read from any thread.
 */
public final class UserInputMonitor implements AutoCloseable {
    private static final long STOP_TIMEOUT_MS = 2_000;
    private static final int MASK_BYTES = 4;
    private static final String SYNTHETIC_DEVICE_MARK = "XTEST";

    private final long display;
    private final long root;
    private final int trapSlot;
    private final int xiOpcode;
    private final UserInputListener listener;
    private final Memory masks = new Memory(2L * Xlib.Xi.EVENT_MASK_SIZE + 2 * MASK_BYTES);
    private final Memory event = new Memory(Xlib.XEVENT_SIZE);
    private final Memory pollFds = new Memory(2L * Xlib.Libc.POLLFD_SIZE);
    private final Address raw = new Address();
    private final int[] pipe = new int[2];
    private final byte[] wakeByte = new byte[1];
    /** Bit d set: device id d is an XTEST device. Written by the monitor thread (and the constructor). */
    private final long[] syntheticDevices = new long[4];
    private final Thread thread;

    private volatile boolean running = true;
    private volatile long userEvents;
    private volatile long syntheticEvents;
    private volatile long lastUserEventNs;
    private volatile int lastUserSourceId;
    private volatile long listenerFailures;
    private volatile Throwable failure;
    private boolean closed;

    private UserInputMonitor(final long display, final int trapSlot, final int xiOpcode, final UserInputListener listener) {
        this.display = display;
        this.trapSlot = trapSlot;
        this.xiOpcode = xiOpcode;
        this.listener = listener;
        this.root = Xlib.X11.XDefaultRootWindow(display);
        this.thread = new Thread(this::run, "saccade-user-input-monitor");
        thread.setDaemon(true);
    }

    /**
     * Connects to {@code displayName} (null: $DISPLAY), selects the raw events and starts the
     * thread. Events that happen after this returns are reported.
     */
    public static UserInputMonitor start(final String displayName, final UserInputListener listener)
        throws BackendUnavailableException {
        final long display;
        try {
            XErrorTrap.install();
            display = Xlib.X11.XOpenDisplay(displayName);
        } catch (final UnsatisfiedLinkError e) {
            throw new BackendUnavailableException("libX11 or libXi is missing", e);
        }
        if (display == 0) {
            throw new BackendUnavailableException("cannot open X display " + displayName);
        }
        final int slot = XErrorTrap.register(display);
        UserInputMonitor monitor = null;
        try {
            final int[] opcode = new int[1];
            final int[] firstEvent = new int[1];
            final int[] firstError = new int[1];
            if (Xlib.X11.XQueryExtension(display, "XInputExtension", opcode, firstEvent, firstError) == 0) {
                throw new BackendUnavailableException("X display " + displayName + " has no XInputExtension");
            }
            final int[] major = {2};
            final int[] minor = {2};
            if (Xlib.Xi.XIQueryVersion(display, major, minor) != Xlib.SUCCESS || major[0] < 2
                || major[0] == 2 && minor[0] < 1) {
                throw new BackendUnavailableException("X display " + displayName + " lacks XInput 2.1 raw events: "
                    + major[0] + "." + minor[0]);
            }
            monitor = new UserInputMonitor(display, slot, opcode[0], listener);
            monitor.readDevices();
            monitor.selectEvents();
            Xlib.X11.XSync(display, 0);
            if (XErrorTrap.errors(slot) != 0) {
                throw new BackendUnavailableException("XISelectEvents failed: X error 0x"
                    + Integer.toHexString(XErrorTrap.lastError(slot)));
            }
            if (Xlib.Libc.pipe2(monitor.pipe, Xlib.Libc.O_CLOEXEC) != 0) {
                throw new BackendUnavailableException("pipe2 failed");
            }
            monitor.thread.start();
            return monitor;
        } catch (final BackendUnavailableException | RuntimeException | UnsatisfiedLinkError e) {
            if (monitor != null && monitor.pipe[0] > 0) {
                Xlib.Libc.close(monitor.pipe[0]);
                Xlib.Libc.close(monitor.pipe[1]);
            }
            XErrorTrap.unregister(slot);
            Xlib.X11.XCloseDisplay(display);
            if (e instanceof UnsatisfiedLinkError) {
                throw new BackendUnavailableException("libXi is missing", e);
            }
            throw e;
        }
    }

    /** Raw events from devices other than XTEST devices, so far. */
    public long userInputCount() {
        return userEvents;
    }

    /** Raw events from XTEST devices (ours, xdotool's), so far. */
    public long syntheticInputCount() {
        return syntheticEvents;
    }

    /** System.nanoTime() when the last user event was read, 0 if none. */
    public long lastUserInputNanos() {
        return lastUserEventNs;
    }

    /** XI2 device id of the device that produced the last user event, 0 if none. */
    public int lastUserSourceId() {
        return lastUserSourceId;
    }

    /** Whether device {@code deviceId} is one of the XTEST devices, as last read. */
    public boolean isSyntheticDevice(final int deviceId) {
        return deviceId >= 0 && deviceId < 256 && (syntheticDevices[deviceId >>> 6] & 1L << (deviceId & 63)) != 0;
    }

    /** The listener threw this many times (it must not). */
    public long listenerFailures() {
        return listenerFailures;
    }

    /** Whether the thread still runs; false after close, a lost X connection, or a failure ({@link #failure()}). */
    public boolean isRunning() {
        return thread.isAlive();
    }

    /** What stopped the thread, null if nothing did or it was closed. */
    public Throwable failure() {
        return failure;
    }

    /** Stops the thread (at once: it is woken through the pipe), which disconnects. Idempotent; any thread. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        running = false;
        Xlib.Libc.write(pipe[1], wakeByte, 1);
        try {
            thread.join(STOP_TIMEOUT_MS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            // The thread may still use the pipe: leaking it beats closing a descriptor in use.
            throw new IllegalStateException("the user input monitor did not stop within " + STOP_TIMEOUT_MS + " ms");
        }
        Xlib.Libc.close(pipe[0]);
        Xlib.Libc.close(pipe[1]);
    }

    private void run() {
        final int xFd = Xlib.X11.XConnectionNumber(display);
        final long fds = Pointer.nativeValue(pollFds);
        pollFds.setInt(0, xFd);
        pollFds.setShort(Xlib.Libc.POLLFD_EVENTS_OFFSET, Xlib.Libc.POLLIN);
        pollFds.setInt(Xlib.Libc.POLLFD_SIZE, pipe[0]);
        pollFds.setShort(Xlib.Libc.POLLFD_SIZE + Xlib.Libc.POLLFD_EVENTS_OFFSET, Xlib.Libc.POLLIN);
        try {
            while (running) {
                while (Xlib.X11.XPending(display) > 0) {
                    Xlib.X11.XNextEvent(display, Pointer.nativeValue(event));
                    handle();
                }
                if (XErrorTrap.isLost(trapSlot)) {
                    failure = new IllegalStateException("the X connection was lost");
                    return;
                }
                pollFds.setShort(Xlib.Libc.POLLFD_REVENTS_OFFSET, (short) 0);
                pollFds.setShort(Xlib.Libc.POLLFD_SIZE + Xlib.Libc.POLLFD_REVENTS_OFFSET, (short) 0);
                if (Xlib.Libc.poll(fds, 2, -1) > 0
                    && pollFds.getShort(Xlib.Libc.POLLFD_SIZE + Xlib.Libc.POLLFD_REVENTS_OFFSET) != 0) {
                    return; // woken by close()
                }
            }
        } catch (final RuntimeException | Error e) {
            failure = e;
        } finally {
            // The display is this thread's alone: it closes it, also after the server went away.
            XErrorTrap.unregister(trapSlot);
            Xlib.X11.XCloseDisplay(display);
        }
    }

    private void handle() {
        if (event.getInt(0) != Xlib.GENERIC_EVENT || event.getInt(Xlib.Xi.COOKIE_EXTENSION_OFFSET) != xiOpcode) {
            return;
        }
        final long cookie = Pointer.nativeValue(event);
        if (Xlib.X11.XGetEventData(display, cookie) == 0) {
            return;
        }
        try {
            final int kind;
            switch (event.getInt(Xlib.Xi.COOKIE_EVTYPE_OFFSET)) {
                case Xlib.Xi.RAW_KEY_PRESS: kind = UserInputListener.KEY; break;
                case Xlib.Xi.RAW_BUTTON_PRESS: kind = UserInputListener.BUTTON; break;
                case Xlib.Xi.RAW_MOTION: kind = UserInputListener.MOTION; break;
                case Xlib.Xi.RAW_TOUCH_BEGIN: kind = UserInputListener.TOUCH; break;
                case Xlib.Xi.HIERARCHY_CHANGED:
                    readDevices();
                    return;
                default:
                    return;
            }
            raw.at(event.getLong(Xlib.Xi.COOKIE_DATA_OFFSET));
            final int source = raw.getInt(Xlib.Xi.RAW_SOURCE_OFFSET);
            if (isSyntheticDevice(source)) {
                syntheticEvents++;
                return;
            }
            lastUserEventNs = System.nanoTime();
            lastUserSourceId = source;
            userEvents++;
            try {
                listener.onUserInput(kind, source, raw.getInt(Xlib.Xi.RAW_DETAIL_OFFSET), raw.getLong(Xlib.Xi.RAW_TIME_OFFSET));
            } catch (final RuntimeException e) {
                listenerFailures++;
            }
        } finally {
            Xlib.X11.XFreeEventData(display, cookie);
        }
    }

    /** Re-reads which devices are XTEST devices (by name, as the X server names them). */
    private void readDevices() {
        final int[] count = new int[1];
        final long info = Xlib.Xi.XIQueryDevice(display, Xlib.Xi.ALL_DEVICES, count);
        if (info == 0) {
            return;
        }
        try {
            final long[] found = new long[4];
            for (int i = 0; i < count[0]; i++) {
                raw.at(info + (long) i * Xlib.Xi.DEVICE_INFO_SIZE);
                final int id = raw.getInt(Xlib.Xi.DEVICE_INFO_ID_OFFSET);
                final Pointer name = raw.getPointer(Xlib.Xi.DEVICE_INFO_NAME_OFFSET);
                if (id >= 0 && id < 256 && name != null && name.getString(0).contains(SYNTHETIC_DEVICE_MARK)) {
                    found[id >>> 6] |= 1L << (id & 63);
                }
            }
            System.arraycopy(found, 0, syntheticDevices, 0, found.length);
        } finally {
            Xlib.Xi.XIFreeDeviceInfo(info);
        }
    }

    /** Raw presses, motion and touch begins of every master device (with sourceid); hierarchy changes. */
    private void selectEvents() {
        final long base = Pointer.nativeValue(masks);
        final long rawMask = base + 2L * Xlib.Xi.EVENT_MASK_SIZE;
        final long hierarchyMask = rawMask + MASK_BYTES;
        masks.clear();
        masks.setInt(Xlib.Xi.EVENT_MASK_DEVICE_OFFSET, Xlib.Xi.ALL_MASTER_DEVICES);
        masks.setInt(Xlib.Xi.EVENT_MASK_LENGTH_OFFSET, MASK_BYTES);
        masks.setLong(Xlib.Xi.EVENT_MASK_POINTER_OFFSET, rawMask);
        setBit(rawMask - base, Xlib.Xi.RAW_KEY_PRESS);
        setBit(rawMask - base, Xlib.Xi.RAW_BUTTON_PRESS);
        setBit(rawMask - base, Xlib.Xi.RAW_MOTION);
        setBit(rawMask - base, Xlib.Xi.RAW_TOUCH_BEGIN);
        masks.setInt(Xlib.Xi.EVENT_MASK_SIZE + Xlib.Xi.EVENT_MASK_DEVICE_OFFSET, Xlib.Xi.ALL_DEVICES);
        masks.setInt(Xlib.Xi.EVENT_MASK_SIZE + Xlib.Xi.EVENT_MASK_LENGTH_OFFSET, MASK_BYTES);
        masks.setLong(Xlib.Xi.EVENT_MASK_SIZE + Xlib.Xi.EVENT_MASK_POINTER_OFFSET, hierarchyMask);
        setBit(hierarchyMask - base, Xlib.Xi.HIERARCHY_CHANGED);
        Xlib.Xi.XISelectEvents(display, root, base, 2);
    }

    private void setBit(final long maskOffset, final int eventType) {
        final long at = maskOffset + (eventType >>> 3);
        masks.setByte(at, (byte) (masks.getByte(at) | 1 << (eventType & 7)));
    }

    /** A pointer re-aimed in place, so reading native structs allocates nothing. */
    private static final class Address extends Pointer {
        Address() {
            super(0);
        }

        void at(final long address) {
            peer = address;
        }
    }
}
