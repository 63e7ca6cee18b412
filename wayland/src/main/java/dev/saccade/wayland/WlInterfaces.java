package dev.saccade.wayland;

import com.sun.jna.Memory;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code struct wl_interface} tables of the protocols we speak. The core ones (wl_registry,
 * wl_seat, wl_output, wl_shm, wl_shm_pool, wl_buffer) are the library's own exported symbols; the
 * wlroots and unstable ones are built here in native memory from their XML's requests and events
 * (names, signatures and the interface of every object and new_id argument), which is all
 * libwayland needs to marshal a request and demarshal an event. Opcodes are the order of the
 * requests in the XML; each constant below names one.
 *
 * <p>Layouts (LP64): {@code wl_message} is {name, signature, types} = 24 bytes; {@code wl_interface}
 * is {name, version, method_count, methods, event_count, events} = 40 bytes. Built once per JVM
 * and never freed (the tables must outlive every proxy).
 */
public final class WlInterfaces {
    private static final int MESSAGE_SIZE = 24;
    private static final int INTERFACE_SIZE = 40;

    private static final Map<String, Pointer> BY_NAME = new HashMap<>();
    /** Keeps every native string and table reachable, so none is freed while libwayland uses it. */
    private static final List<Memory> KEEP = new ArrayList<>();

    public static final Pointer WL_REGISTRY;
    public static final Pointer WL_SEAT;
    public static final Pointer WL_OUTPUT;
    public static final Pointer WL_SHM;
    public static final Pointer WL_SHM_POOL;
    public static final Pointer WL_BUFFER;
    public static final Pointer VIRTUAL_KEYBOARD_MANAGER;
    public static final Pointer VIRTUAL_KEYBOARD;
    public static final Pointer VIRTUAL_POINTER_MANAGER;
    public static final Pointer VIRTUAL_POINTER;
    public static final Pointer SCREENCOPY_MANAGER;
    public static final Pointer SCREENCOPY_FRAME;
    public static final Pointer FOREIGN_TOPLEVEL_MANAGER;
    public static final Pointer FOREIGN_TOPLEVEL_HANDLE;
    public static final Pointer WL_KEYBOARD;
    public static final Pointer FAKE_INPUT;

    static {
        final NativeLibrary lib = NativeLibrary.getInstance("wayland-client");
        for (final String core : List.of("wl_registry", "wl_seat", "wl_output", "wl_shm", "wl_shm_pool", "wl_buffer",
            "wl_callback", "wl_surface", "wl_keyboard")) {
            BY_NAME.put(core, lib.getGlobalVariableAddress(core + "_interface"));
        }
        WL_REGISTRY = BY_NAME.get("wl_registry");
        WL_SEAT = BY_NAME.get("wl_seat");
        WL_OUTPUT = BY_NAME.get("wl_output");
        WL_SHM = BY_NAME.get("wl_shm");
        WL_SHM_POOL = BY_NAME.get("wl_shm_pool");
        WL_BUFFER = BY_NAME.get("wl_buffer");
        WL_KEYBOARD = BY_NAME.get("wl_keyboard");
        // Allocate every table first: messages may name interfaces defined after them.
        final String[] names = {
            "zwp_virtual_keyboard_manager_v1", "zwp_virtual_keyboard_v1",
            "zwlr_virtual_pointer_manager_v1", "zwlr_virtual_pointer_v1",
            "zwlr_screencopy_manager_v1", "zwlr_screencopy_frame_v1",
            "zwlr_foreign_toplevel_manager_v1", "zwlr_foreign_toplevel_handle_v1", "org_kde_kwin_fake_input"};
        for (final String name : names) {
            final Memory table = new Memory(INTERFACE_SIZE);
            table.clear();
            KEEP.add(table);
            BY_NAME.put(name, table);
        }
        // virtual-keyboard-unstable-v1.xml
        define("zwp_virtual_keyboard_manager_v1", 1,
            List.of(m("create_virtual_keyboard", "on", "wl_seat", "zwp_virtual_keyboard_v1")), List.of());
        define("zwp_virtual_keyboard_v1", 1, List.of(
            m("keymap", "uhu", null, null, null),
            m("key", "uuu", null, null, null),
            m("modifiers", "uuuu", null, null, null, null),
            m("destroy", "")), List.of());
        // wlr-virtual-pointer-unstable-v1.xml (version 2)
        define("zwlr_virtual_pointer_manager_v1", 2, List.of(
            m("create_virtual_pointer", "?on", "wl_seat", "zwlr_virtual_pointer_v1"),
            m("destroy", ""),
            m("create_virtual_pointer_with_output", "2?o?on", "wl_seat", "wl_output", "zwlr_virtual_pointer_v1")),
            List.of());
        define("zwlr_virtual_pointer_v1", 2, List.of(
            m("motion", "uff", null, null, null),
            m("motion_absolute", "uuuuu", null, null, null, null, null),
            m("button", "uuu", null, null, null),
            m("axis", "uuf", null, null, null),
            m("frame", ""),
            m("axis_source", "u", (String) null),
            m("axis_stop", "uu", null, null),
            m("axis_discrete", "uufi", null, null, null, null),
            m("destroy", "")), List.of());
        // wlr-screencopy-unstable-v1.xml (version 3)
        define("zwlr_screencopy_manager_v1", 3, List.of(
            m("capture_output", "nio", "zwlr_screencopy_frame_v1", null, "wl_output"),
            m("capture_output_region", "nioiiii", "zwlr_screencopy_frame_v1", null, "wl_output", null, null, null,
                null),
            m("destroy", "")), List.of());
        define("zwlr_screencopy_frame_v1", 3, List.of(
            m("copy", "o", "wl_buffer"),
            m("destroy", ""),
            m("copy_with_damage", "2o", "wl_buffer")), List.of(
            m("buffer", "uuuu", null, null, null, null),
            m("flags", "u", (String) null),
            m("ready", "uuu", null, null, null),
            m("failed", ""),
            m("damage", "2uuuu", null, null, null, null),
            m("linux_dmabuf", "3uuu", null, null, null),
            m("buffer_done", "3")));
        // wlr-foreign-toplevel-management-unstable-v1.xml (version 3)
        define("zwlr_foreign_toplevel_manager_v1", 3, List.of(m("stop", "")), List.of(
            m("toplevel", "n", "zwlr_foreign_toplevel_handle_v1"),
            m("finished", "")));
        define("zwlr_foreign_toplevel_handle_v1", 3, List.of(
            m("set_maximized", ""),
            m("unset_maximized", ""),
            m("set_minimized", ""),
            m("unset_minimized", ""),
            m("activate", "o", "wl_seat"),
            m("close", ""),
            m("set_rectangle", "oiiii", "wl_surface", null, null, null, null),
            m("destroy", ""),
            m("set_fullscreen", "2?o", "wl_output"),
            m("unset_fullscreen", "2")), List.of(
            m("title", "s", (String) null),
            m("app_id", "s", (String) null),
            m("output_enter", "o", "wl_output"),
            m("output_leave", "o", "wl_output"),
            m("state", "a", (String) null),
            m("done", ""),
            m("closed", ""),
            m("parent", "3?o", "zwlr_foreign_toplevel_handle_v1")));
        // KWin's fake-input.xml (version 4, Plasma 5.27): requests only.
        define("org_kde_kwin_fake_input", 4, List.of(
            m("authenticate", "ss", null, null),
            m("pointer_motion", "ff", null, null),
            m("button", "uu", null, null),
            m("axis", "uf", null, null),
            m("touch_down", "2uff", null, null, null),
            m("touch_motion", "2uff", null, null, null),
            m("touch_up", "2u", (String) null),
            m("touch_cancel", "2"),
            m("touch_frame", "2"),
            m("pointer_motion_absolute", "3ff", null, null),
            m("keyboard_key", "4uu", null, null)), List.of());
        VIRTUAL_KEYBOARD_MANAGER = BY_NAME.get(names[0]);
        VIRTUAL_KEYBOARD = BY_NAME.get(names[1]);
        VIRTUAL_POINTER_MANAGER = BY_NAME.get(names[2]);
        VIRTUAL_POINTER = BY_NAME.get(names[3]);
        SCREENCOPY_MANAGER = BY_NAME.get(names[4]);
        SCREENCOPY_FRAME = BY_NAME.get(names[5]);
        FOREIGN_TOPLEVEL_MANAGER = BY_NAME.get(names[6]);
        FOREIGN_TOPLEVEL_HANDLE = BY_NAME.get(names[7]);
        FAKE_INPUT = BY_NAME.get(names[8]);
    }

    private WlInterfaces() {
    }

    /** One message: its name, signature and the interface name of each argument (null for plain values). */
    private record Message(String name, String signature, String[] types) {
    }

    private static Message m(final String name, final String signature, final String... types) {
        return new Message(name, signature, types == null ? new String[0] : types);
    }

    private static void define(final String name, final int version, final List<Message> requests,
        final List<Message> events) {
        final Pointer table = BY_NAME.get(name);
        table.setPointer(0, string(name));
        table.setInt(8, version);
        table.setInt(12, requests.size());
        table.setPointer(16, messages(requests));
        table.setInt(24, events.size());
        table.setPointer(32, messages(events));
    }

    private static Pointer messages(final List<Message> messages) {
        if (messages.isEmpty()) {
            return Pointer.NULL;
        }
        final Memory array = keep(new Memory((long) MESSAGE_SIZE * messages.size()));
        for (int i = 0; i < messages.size(); i++) {
            final Message message = messages.get(i);
            array.setPointer((long) i * MESSAGE_SIZE, string(message.name()));
            array.setPointer((long) i * MESSAGE_SIZE + 8, string(message.signature()));
            final Memory types = keep(new Memory(8L * Math.max(1, message.types().length)));
            types.clear();
            for (int t = 0; t < message.types().length; t++) {
                final String type = message.types()[t];
                if (type != null) {
                    final Pointer target = BY_NAME.get(type);
                    if (target == null) {
                        throw new IllegalStateException("unknown interface " + type);
                    }
                    types.setPointer(8L * t, target);
                }
            }
            array.setPointer((long) i * MESSAGE_SIZE + 16, types);
        }
        return array;
    }

    private static Memory string(final String value) {
        final byte[] bytes = value.getBytes(StandardCharsets.US_ASCII);
        final Memory memory = keep(new Memory(bytes.length + 1));
        memory.write(0, bytes, 0, bytes.length);
        memory.setByte(bytes.length, (byte) 0);
        return memory;
    }

    private static Memory keep(final Memory memory) {
        KEEP.add(memory);
        return memory;
    }
}
