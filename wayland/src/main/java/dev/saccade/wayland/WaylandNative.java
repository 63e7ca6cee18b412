package dev.saccade.wayland;

import com.sun.jna.Callback;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/**
 * The C entry points this binding calls: libwayland-client 1.20+ (for the non-variadic
 * {@code wl_proxy_marshal_array_flags}) and the few libc calls the keymap's file needs.
 * Requests are marshalled by opcode against the message tables of {@link WlInterfaces}; events
 * arrive through one {@link Dispatcher} per object ({@code wl_proxy_add_dispatcher}), which is
 * what lets Java handle a protocol without generated C glue.
 */
final class WaylandNative {
    private WaylandNative() {
    }

    /** {@code WL_MARSHAL_FLAG_DESTROY}: the request is the object's destructor. */
    static final int MARSHAL_FLAG_DESTROY = 1;

    interface Client extends Library {
        Client LIB = Native.load("wayland-client", Client.class);

        Pointer wl_display_connect(String name);

        void wl_display_disconnect(Pointer display);

        int wl_display_roundtrip(Pointer display);

        int wl_display_flush(Pointer display);

        int wl_display_dispatch_pending(Pointer display);

        int wl_display_prepare_read(Pointer display);

        int wl_display_read_events(Pointer display);

        void wl_display_cancel_read(Pointer display);

        int wl_display_get_fd(Pointer display);

        int wl_display_get_error(Pointer display);

        Pointer wl_proxy_marshal_array_flags(Pointer proxy, int opcode, Pointer iface, int version, int flags,
            Pointer args);

        int wl_proxy_add_dispatcher(Pointer proxy, Dispatcher dispatcher, Pointer implementation, Pointer data);

        int wl_proxy_get_version(Pointer proxy);

        void wl_proxy_destroy(Pointer proxy);
    }

    /** {@code wl_dispatcher_func_t}: every event of one object, its arguments a {@code union wl_argument[]}. */
    interface Dispatcher extends Callback {
        int invoke(Pointer implementation, Pointer proxy, int opcode, Pointer message, Pointer args);
    }

    interface LibC extends Library {
        LibC LIB = Native.load("c", LibC.class);

        int memfd_create(String name, int flags);

        long write(int fd, byte[] buffer, long count);

        int ftruncate(int fd, long length);

        int close(int fd);

        /** One {@code struct pollfd} (fd, events, revents) as 8 bytes. */
        int poll(byte[] fds, long count, int timeoutMs);

        Pointer mmap(Pointer address, long length, int protection, int flags, int fd, long offset);

        int munmap(Pointer address, long length);
    }
}
