package dev.saccade.wayland;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.Pointer;
import dev.saccade.testdesktop.SwayApp;
import dev.saccade.testdesktop.SwayDesktop;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The binding against a real headless sway: the globals it offers, its output, and keys typed
 * through a virtual keyboard into a native GTK entry, read back from what zenity prints.
 */
@Timeout(60)
class VirtualInputTest {
    private static SwayDesktop desktop;

    @BeforeAll
    static void start() {
        desktop = SwayDesktop.start(1024, 768, false);
    }

    @AfterAll
    static void stop() {
        desktop.close();
    }

    @Test
    void listsTheWlrootsProtocolsAndTheOutput() throws Exception {
        try (WaylandConnection connection = WaylandConnection.connect(desktop.waylandSocket().toString())) {
            for (final String name : List.of(VirtualKeyboard.MANAGER, VirtualPointer.MANAGER,
                "zwlr_screencopy_manager_v1", "zwlr_foreign_toplevel_manager_v1", "wl_seat", "wl_output")) {
                assertNotNull(connection.global(name), name + " in " + connection.globals());
            }
            final Outputs outputs = Outputs.read(connection);
            assertEquals(1, outputs.list().size(), outputs.list().toString());
            assertEquals(1024, outputs.layoutWidth());
            assertEquals(768, outputs.layoutHeight());
            assertEquals("HEADLESS-1", outputs.list().get(0).name());
        }
    }

    @Test
    void typesIntoANativeGtkEntry() throws Exception {
        final SwayApp zenity = desktop.launch("zenity", false, "zenity", "--entry", "--title=Typed");
        desktop.focus(zenity.pid()); // mapped is not yet focused: keys typed before would go nowhere
        try (WaylandConnection connection = WaylandConnection.connect(desktop.waylandSocket().toString());
             Keymap keymap = Keymap.standard()) {
            final Pointer seat = connection.bind("wl_seat", WlInterfaces.WL_SEAT, 1);
            final VirtualKeyboard keyboard = VirtualKeyboard.create(connection, seat, keymap);
            connection.roundtrip();
            final String text = "Hello, Wayland!";
            final int shift = keymap.keyFor(0xffe1) & 0xffff;
            for (final char c : (text + "\n").toCharArray()) {
                final int found = keymap.keyFor(c == '\n' ? 0xff0d : Keymap.keysymOf(c));
                assertTrue(found > 0, "no key for " + c);
                final boolean shifted = found >> 16 == 1;
                if (shifted) {
                    keyboard.key(0, shift, true);
                }
                keyboard.key(0, found & 0xffff, true);
                keyboard.key(0, found & 0xffff, false);
                if (shifted) {
                    keyboard.key(0, shift, false);
                }
            }
            connection.roundtrip();
            assertEquals(0, zenity.awaitExit(10_000), zenity.toString());
            assertEquals(text + "\n", zenity.stdout());
            keyboard.close();
        }
    }
}
