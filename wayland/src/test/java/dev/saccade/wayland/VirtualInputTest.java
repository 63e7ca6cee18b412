package dev.saccade.wayland;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.Pointer;
import dev.saccade.demodesktop.SwayApp;
import dev.saccade.demodesktop.SwayDesktop;
import dev.saccade.testsupport.Await;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The binding against a real headless sway: the globals it offers, its output, and keys typed
 * through a virtual keyboard into a native GTK entry, read back from what zenity prints.
 */
@Tag("desktop")
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
            awaitKeyboardServesTheEntry(connection, keyboard, keymap, zenity);
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

    /**
     * A new virtual keyboard's first keys can reach nothing while sway hands the focused client
     * its keymap (docs/wayland.md): tap 'x' until the entry shows it, then BackSpace until it is
     * empty again. What the entry holds, read over AT-SPI, is the synchronisation; a late 'x'
     * only means one more BackSpace.
     */
    private static void awaitKeyboardServesTheEntry(final WaylandConnection connection, final VirtualKeyboard keyboard,
        final Keymap keymap, final SwayApp zenity) throws Exception {
        final int x = keymap.keyFor(Keymap.keysymOf('x')) & 0xffff;
        final int backSpace = keymap.keyFor(0xff08) & 0xffff;
        final long deadline = System.nanoTime() + 20_000_000_000L;
        while (entryText(zenity).isEmpty()) {
            assertTrue(Await.before(deadline), "no key typed by the new virtual keyboard reached the entry");
            tap(connection, keyboard, x);
            final long tapped = System.nanoTime();
            while (entryText(zenity).isEmpty() && System.nanoTime() - tapped < 500_000_000L) {
                Thread.onSpinWait();
            }
        }
        while (!entryText(zenity).isEmpty()) {
            assertTrue(Await.before(deadline), "the entry was not emptied: " + entryText(zenity));
            tap(connection, keyboard, backSpace);
        }
    }

    private static void tap(final WaylandConnection connection, final VirtualKeyboard keyboard, final int key)
        throws java.io.IOException {
        keyboard.key(0, key, true);
        keyboard.key(0, key, false);
        connection.roundtrip();
    }

    private static String entryText(final SwayApp zenity) {
        return desktop.accessibleObjects(zenity.pid()).stream().filter(SwayDesktop.Accessible::isEntry)
            .map(a -> a.text() == null ? "" : a.text()).findFirst().orElse("");
    }
}
