package dev.saccade.helper.backend.xtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.helper.InputBackend;
import dev.saccade.helper.PointerState;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testdesktop.TestDesktop;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@WithTestDesktop
class XTestBackendPointerTest {
    private static final String XTEST_POINTER = "Virtual core XTEST pointer";
    private static final Pattern RAW_PRESS = Pattern.compile("\\(RawButtonPress\\)\\s+device: \\d+ \\(\\d+\\)\\s+detail: (\\d+)");

    @Test
    @Timeout(30)
    void movedPointerIsReportedByAnotherConnection(final TestDesktop desktop) throws Exception {
        try (XTestBackend backend = XTestBackend.open(desktop.display());
             XTestBackend observer = XTestBackend.open(desktop.display())) {
            final PointerState state = new PointerState();
            for (final int[] point : List.of(new int[] {10, 20}, new int[] {1000, 700}, new int[] {0, 0},
                new int[] {desktop.screenWidth() - 1, desktop.screenHeight() - 1})) {
                assertEquals(ResultCode.PLATFORM_OK, backend.movePointer(point[0], point[1]));
                assertEquals(ResultCode.PLATFORM_OK, backend.sync());
                assertEquals(ResultCode.PLATFORM_OK, observer.queryPointer(state));
                assertEquals(point[0], state.x(), "x of " + state);
                assertEquals(point[1], state.y(), "y of " + state);
            }
        }
    }

    @Test
    @Timeout(30)
    void heldButtonShowsOnXtestDeviceUntilReleased(final TestDesktop desktop) throws Exception {
        try (XTestBackend backend = XTestBackend.open(desktop.display())) {
            final PointerState state = new PointerState();
            backend.movePointer(5, 5); // the bare desktop: nothing reacts to the buttons
            for (final int[] button : new int[][] {{Button.LEFT, 1}, {Button.MIDDLE, 2}, {Button.RIGHT, 3}}) {
                assertEquals(ResultCode.PLATFORM_OK, backend.button(button[0], true));
                assertEquals(ResultCode.PLATFORM_OK, backend.sync());
                assertTrue(DesktopTool.buttonDown(desktop, XTEST_POINTER, button[1]), "button " + button[1] + " held");
                backend.queryPointer(state);
                assertEquals(button[0], state.buttons(), "XQueryPointer mask of " + state);

                assertEquals(ResultCode.PLATFORM_OK, backend.button(button[0], false));
                assertEquals(ResultCode.PLATFORM_OK, backend.sync());
                assertFalse(DesktopTool.buttonDown(desktop, XTEST_POINTER, button[1]), "button " + button[1] + " released");
                backend.queryPointer(state);
                assertEquals(0, state.buttons(), "XQueryPointer mask of " + state);
            }
        }
    }

    /** Wheel notches seen as raw button presses 4..7 by an independent XInput2 client. */
    @Test
    @Timeout(30)
    void scrollPressesWheelButtonsOncePerNotch(final TestDesktop desktop, @TempDir final Path dir) throws Exception {
        final Path log = dir.resolve("xi2.log");
        final Process xinput = desktop.configure(new ProcessBuilder("xinput", "test-xi2", "--root"))
            .redirectOutput(log.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (XTestBackend backend = XTestBackend.open(desktop.display())) {
            // Ready once it reports our motion: its selection is in place.
            final int[] x = {100};
            Await.until(() -> {
                backend.movePointer(++x[0], 100);
                backend.sync();
                return read(log).contains("RawMotion");
            }, Duration.ofSeconds(10), () -> "xinput test-xi2 ready");
            assertEquals(ResultCode.PLATFORM_OK, backend.scroll(-256, 3 * 256 + 100));
            assertEquals(ResultCode.PLATFORM_OK, backend.scroll(0, -1));
            assertEquals(ResultCode.PLATFORM_OK, backend.scroll(2 * 256, 0));
            assertEquals(ResultCode.PLATFORM_OK, backend.sync());
            final String expected = "5,5,5,6,4,7,7";
            Await.until(() -> wheelPresses(read(log)).equals(expected), Duration.ofSeconds(10),
                () -> "wheel presses " + expected + ", saw " + wheelPresses(read(log)));
        } finally {
            xinput.destroy();
            xinput.waitFor(5, TimeUnit.SECONDS);
        }
    }

    private static String read(final Path file) {
        try {
            return Files.readString(file);
        } catch (final IOException e) {
            return "";
        }
    }

    private static String wheelPresses(final String xi2Log) {
        final Matcher m = RAW_PRESS.matcher(xi2Log);
        final StringBuilder buttons = new StringBuilder();
        while (m.find()) {
            if (Integer.parseInt(m.group(1)) >= 4) {
                buttons.append(buttons.length() == 0 ? "" : ",").append(m.group(1));
            }
        }
        return buttons.toString();
    }

    @Test
    @Timeout(10)
    void refusesAnythingButOneKnownButton(final TestDesktop desktop) throws Exception {
        try (XTestBackend backend = XTestBackend.open(desktop.display())) {
            assertEquals(ResultCode.PLATFORM_INVALID_ARGUMENT, backend.button(Button.LEFT | Button.RIGHT, true));
            assertEquals(ResultCode.PLATFORM_INVALID_ARGUMENT, backend.button(0, true));
            assertEquals(ResultCode.PLATFORM_INVALID_ARGUMENT, backend.button(0x8, true));
            assertEquals(ResultCode.PLATFORM_INVALID_ARGUMENT,
                backend.scroll(0, (InputBackend.MAX_WHEEL_STEPS + 1) * InputBackend.Q8_PER_WHEEL_STEP));
        }
    }
}
