package dev.saccade.helper.backend.xtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@WithTestDesktop
class TextTypingTest {
    private static final int ENTER = 0x28;

    @Test
    @Timeout(60)
    void typesAsciiAccentedSymbolAndEmojiIntoZenityEntry(final TestDesktop desktop) throws Exception {
        final String text = "héllo wörld ✓ 😀";
        final String keymapBefore = DesktopTool.run(desktop, "xmodmap", "-pke");
        final AppHandle zenity = desktop.startApp(DemoApp.ZENITY_ENTRY);
        try (XTestBackend backend = XTestBackend.open(desktop.display())) {
            focus(desktop, backend, zenity);
            final byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
            assertEquals(ResultCode.PLATFORM_OK, backend.typeText(utf8, 0, utf8.length));
            assertEquals(4, backend.boundKeyCodeCount(), "é, ö, ✓ and 😀 are not in the US keymap");
            assertEquals(ResultCode.PLATFORM_OK, backend.key(ENTER, true));
            assertEquals(ResultCode.PLATFORM_OK, backend.key(ENTER, false));
            assertEquals(ResultCode.PLATFORM_OK, backend.sync());

            assertEquals(0, zenity.awaitExit(10_000), "zenity exits 0 on Enter");
            assertEquals(text + "\n", Files.readString(zenity.stdoutFile(), StandardCharsets.UTF_8));

            Await.until(() -> backend.restoreKeymap(System.nanoTime(), false, dev.saccade.helper.backend.HeldInputRecorder.NONE) == 0,
                Duration.ofSeconds(5), () -> "bindings restored after the grace period");
            assertEquals(ResultCode.PLATFORM_OK, backend.sync());
            assertEquals(keymapBefore, DesktopTool.run(desktop, "xmodmap", "-pke"), "keymap restored");
        }
    }

    /**
     * 48 distinct letters the US keymap lacks, more than its ~19 empty key codes: bindings are
     * reused once their grace period has passed, and every character still arrives intact.
     */
    @Test
    @Timeout(60)
    void typesMoreDistinctMissingCharactersThanThereAreSpareKeyCodes(final TestDesktop desktop) throws Exception {
        final String text = "αβγδεζηθικλμνξοπρστυφχψω абвгдежзийклмнопрстуфхцчшщ";
        final AppHandle zenity = desktop.startApp(DemoApp.ZENITY_ENTRY);
        try (XTestBackend backend = XTestBackend.open(desktop.display(), TimeUnit.MILLISECONDS.toNanos(100))) {
            focus(desktop, backend, zenity);
            final byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
            final long startNs = System.nanoTime();
            assertEquals(ResultCode.PLATFORM_OK, backend.typeText(utf8, 0, utf8.length));
            final long typedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
            backend.key(ENTER, true);
            backend.key(ENTER, false);
            backend.sync();
            assertEquals(0, zenity.awaitExit(10_000));
            assertEquals(text + "\n", Files.readString(zenity.stdoutFile(), StandardCharsets.UTF_8));
            assertTrue(typedMs >= 100, "one wait for a grace period at least: " + typedMs + " ms");
        }
    }

    @Test
    @Timeout(60)
    void refusesMalformedUtf8AndControlCharactersBeforeAnyEvent(final TestDesktop desktop) throws Exception {
        final AppHandle zenity = desktop.startApp(DemoApp.ZENITY_ENTRY);
        try (XTestBackend backend = XTestBackend.open(desktop.display())) {
            focus(desktop, backend, zenity);
            final byte[][] refused = {
                {'a', 'b', 0x01},                            // a control character
                {'a', (byte) 0xC3},                          // truncated sequence
                {'a', (byte) 0xC0, (byte) 0x80},             // overlong NUL
                {'a', (byte) 0xED, (byte) 0xA0, (byte) 0x80}, // a UTF-16 surrogate
                {'a', (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // above U+10FFFF
                {'a', (byte) 0xC2, (byte) 0x85},             // C1 control NEL
            };
            for (final byte[] text : refused) {
                assertEquals(ResultCode.PLATFORM_UNSUPPORTED, backend.typeText(text, 0, text.length));
            }
            assertEquals(ResultCode.PLATFORM_INVALID_ARGUMENT, backend.typeText(new byte[2], 1, 2));
            final byte[] ok = "xyz".getBytes(StandardCharsets.UTF_8);
            assertEquals(ResultCode.PLATFORM_OK, backend.typeText(ok, 1, 2));
            backend.key(ENTER, true);
            backend.key(ENTER, false);
            backend.sync();
            assertEquals(0, zenity.awaitExit(10_000));
            assertEquals("yz\n", Files.readString(zenity.stdoutFile(), StandardCharsets.UTF_8), "nothing else typed");
        }
    }

    /** Activates the app's window and waits until the window manager says it is active. */
    static void focus(final TestDesktop desktop, final XTestBackend backend, final AppHandle app) {
        assertEquals(ResultCode.PLATFORM_OK, backend.activateWindow(app.windowId()));
        Await.until(() -> backend.activeWindow() == app.windowId(), Duration.ofSeconds(5),
            () -> "window 0x" + Long.toHexString(app.windowId()) + " active");
        assertTrue(app.isRunning());
    }
}
