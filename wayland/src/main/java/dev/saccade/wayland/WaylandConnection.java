package dev.saccade.wayland;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.saccade.wayland.WaylandNative.Client;
import dev.saccade.wayland.WaylandNative.Dispatcher;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One connection to a Wayland compositor: the registry's globals, binding them, requests by
 * opcode and events through a dispatcher per object. {@link #request} marshals a request from up
 * to eight 64-bit argument slots ({@code union wl_argument}); ints, fixed values and fds go in
 * the low 32 bits, objects as their proxy address.
 *
 * <p>Confined to one thread: the requests, {@link #roundtrip()}, {@link #pump()} (which runs
 * the event handlers) and {@link #close()} all happen on the thread that owns the connection.
 */
public final class WaylandConnection implements AutoCloseable {
    /** One event of one object: its opcode and arguments. */
    public interface EventHandler {
        void onEvent(int opcode, Arguments args);
    }

    /** The {@code union wl_argument[]} of one event. */
    public static final class Arguments {
        private Pointer args;

        public int intAt(final int index) {
            return args.getInt(8L * index);
        }

        public String stringAt(final int index) {
            final Pointer p = args.getPointer(8L * index);
            return p == null ? null : p.getString(0, "UTF-8");
        }

        public Pointer pointerAt(final int index) {
            return args.getPointer(8L * index);
        }

        /** An {@code a} argument ({@code struct wl_array *}: size, alloc, data) read as 32-bit values. */
        public int[] intArrayAt(final int index) {
            final Pointer array = args.getPointer(8L * index);
            if (array == null) {
                return new int[0];
            }
            final int count = (int) (array.getLong(0) / 4);
            final Pointer data = array.getPointer(16);
            return count == 0 || data == null ? new int[0] : data.getIntArray(0, count);
        }
    }

    /** A global the registry announced. */
    public record Global(int name, String interfaceName, int version) {
    }

    private static final Client WL = Client.LIB;

    private final Pointer display;
    private final Pointer registry;
    private final List<Global> globals = new ArrayList<>();
    private final Map<Long, EventHandler> handlers = new HashMap<>();
    private final Arguments arguments = new Arguments();
    private final Memory slots = new Memory(8 * 8);
    private final Memory implementation = new Memory(8);
    /** Referenced from native code: must stay reachable as long as the connection. */
    private final Dispatcher dispatcher = this::dispatch;
    private final byte[] pollFd = new byte[8];
    private boolean closed;

    private WaylandConnection(final Pointer display) {
        this.display = display;
        implementation.clear();
        registry = request(display, 1, WlInterfaces.WL_REGISTRY, WL.wl_proxy_get_version(display), 0);
        listen(registry, (opcode, args) -> {
            if (opcode == 0) {
                globals.add(new Global(args.intAt(0), args.stringAt(1), args.intAt(2)));
            }
        });
    }

    /**
     * Connects to {@code name} (a socket name in XDG_RUNTIME_DIR or an absolute path; null for
     * WAYLAND_DISPLAY) and reads the registry's globals.
     */
    public static WaylandConnection connect(final String name) throws IOException {
        final Pointer display = WL.wl_display_connect(name);
        if (display == null) {
            throw new IOException("cannot connect to the Wayland display " + (name == null ? "(WAYLAND_DISPLAY)" : name));
        }
        final WaylandConnection connection = new WaylandConnection(display);
        connection.roundtrip();
        return connection;
    }

    /** Every global announced so far. */
    public List<Global> globals() {
        return List.copyOf(globals);
    }

    /** The first global of this interface, or null. */
    public Global global(final String interfaceName) {
        for (final Global g : globals) {
            if (g.interfaceName().equals(interfaceName)) {
                return g;
            }
        }
        return null;
    }

    /** Binds a global at min(its version, {@code maxVersion}); null when the compositor lacks it. */
    public Pointer bind(final String interfaceName, final Pointer iface, final int maxVersion) {
        final Global g = global(interfaceName);
        return g == null ? null : bind(g, iface, maxVersion);
    }

    public Pointer bind(final Global g, final Pointer iface, final int maxVersion) {
        final int version = Math.min(g.version(), maxVersion);
        slots.clear();
        slots.setInt(0, g.name());
        final Memory interfaceName = new Memory(g.interfaceName().length() + 1);
        interfaceName.setString(0, g.interfaceName(), "US-ASCII");
        slots.setPointer(8, interfaceName);
        slots.setInt(16, version);
        return WL.wl_proxy_marshal_array_flags(registry, 0, iface, version, 0, slots);
    }

    /**
     * Sends request {@code opcode} on {@code proxy}. {@code newInterface} is the interface of the
     * request's new_id (null if it has none; the call then returns null). Arguments: Integer for
     * u/i/f/h, Pointer for o (null for a nullable object), anything for the n slot.
     */
    public Pointer request(final Pointer proxy, final int opcode, final Pointer newInterface, final int version,
        final int flags, final Object... args) {
        slots.clear();
        for (int i = 0; i < args.length; i++) {
            final Object a = args[i];
            if (a instanceof Integer value) {
                slots.setInt(8L * i, value);
            } else if (a instanceof Pointer p) {
                slots.setPointer(8L * i, p);
            }
        }
        return WL.wl_proxy_marshal_array_flags(proxy, opcode, newInterface, version, flags, slots);
    }

    /** A request without new_id at the proxy's own version. */
    public void send(final Pointer proxy, final int opcode, final Object... args) {
        request(proxy, opcode, null, WL.wl_proxy_get_version(proxy), 0, args);
    }

    /** A destructor request: sends it and frees the proxy. */
    public void destroy(final Pointer proxy, final int opcode) {
        handlers.remove(Pointer.nativeValue(proxy));
        request(proxy, opcode, null, WL.wl_proxy_get_version(proxy), WaylandNative.MARSHAL_FLAG_DESTROY);
    }

    /** Frees a proxy whose interface has no destructor request (wl_registry). */
    public void forget(final Pointer proxy) {
        handlers.remove(Pointer.nativeValue(proxy));
        WL.wl_proxy_destroy(proxy);
    }

    /** Routes the events of {@code proxy} to {@code handler}. */
    public void listen(final Pointer proxy, final EventHandler handler) {
        handlers.put(Pointer.nativeValue(proxy), handler);
        if (WL.wl_proxy_add_dispatcher(proxy, dispatcher, implementation, Pointer.NULL) != 0) {
            throw new IllegalStateException("the proxy already has a listener");
        }
    }

    private int dispatch(final Pointer impl, final Pointer proxy, final int opcode, final Pointer message,
        final Pointer args) {
        final EventHandler handler = handlers.get(Pointer.nativeValue(proxy));
        if (handler != null) {
            arguments.args = args;
            handler.onEvent(opcode, arguments);
        }
        return 0;
    }

    /** Sends everything and waits until the compositor has processed it, running the event handlers. */
    public void roundtrip() throws IOException {
        if (WL.wl_display_roundtrip(display) < 0) {
            throw new IOException("the Wayland connection failed (error " + WL.wl_display_get_error(display) + ")");
        }
    }

    /**
     * Hands buffered requests to the compositor without blocking; false when the connection is
     * broken. A full socket buffer (EAGAIN) leaves the rest buffered for the next call.
     */
    public boolean flush() {
        return WL.wl_display_flush(display) >= 0 || WL.wl_display_get_error(display) == 0;
    }

    /**
     * Reads and handles whatever events have arrived, without blocking, so the compositor's
     * queue towards us never fills; false when the connection is broken.
     */
    public boolean pump() {
        return pump(0);
    }

    /**
     * {@link #pump()} that waits up to {@code timeoutMs} for the first event to arrive; false when
     * the connection is broken.
     */
    public boolean pump(final int timeoutMs) {
        while (WL.wl_display_prepare_read(display) != 0) {
            if (WL.wl_display_dispatch_pending(display) < 0) {
                return false;
            }
        }
        WL.wl_display_flush(display);
        final int fd = WL.wl_display_get_fd(display);
        pollFd[0] = (byte) fd;
        pollFd[1] = (byte) (fd >> 8);
        pollFd[2] = (byte) (fd >> 16);
        pollFd[3] = (byte) (fd >> 24);
        pollFd[4] = 1; // POLLIN
        pollFd[5] = 0;
        pollFd[6] = 0;
        pollFd[7] = 0;
        if (WaylandNative.LibC.LIB.poll(pollFd, 1, timeoutMs) > 0) {
            if (WL.wl_display_read_events(display) < 0) {
                return false;
            }
        } else {
            WL.wl_display_cancel_read(display);
        }
        return WL.wl_display_dispatch_pending(display) >= 0;
    }

    /** The compositor's protocol error on this connection, 0 while it is healthy. */
    public int error() {
        return WL.wl_display_get_error(display);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        WL.wl_display_flush(display);
        WL.wl_display_disconnect(display);
    }
}
