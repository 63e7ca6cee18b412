package dev.saccade.helper.backend.xtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.helper.backend.UserInputListener;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@WithTestDesktop
class UserInputMonitorTest {
    private static final Duration WAIT = Duration.ofSeconds(5);

    /** One reported event, as the listener saw it. */
    record Seen(int kind, int source, int detail) {
    }

    private static int deviceId(final TestDesktop desktop, final String name) {
        return Integer.parseInt(DesktopTool.run(desktop, "xinput", "list", "--id-only", name).trim());
    }

    @Test
    @Timeout(30)
    void reportsKeysButtonsAndMotionOfANonXtestDeviceAsUserInput(final TestDesktop desktop) throws Exception {
        final List<Seen> seen = new CopyOnWriteArrayList<>();
        final int keyboard = deviceId(desktop, "Xvfb keyboard");
        final int mouse = deviceId(desktop, "Xvfb mouse");
        try (UserInputMonitor monitor = UserInputMonitor.start(desktop.display(),
                 (kind, source, detail, time) -> seen.add(new Seen(kind, source, detail)));
             XvfbDeviceInput keys = XvfbDeviceInput.open(desktop.display(), keyboard);
             XvfbDeviceInput pointer = XvfbDeviceInput.open(desktop.display(), mouse)) {
            assertTrue(monitor.isSyntheticDevice(deviceId(desktop, "Virtual core XTEST pointer")));
            assertTrue(monitor.isSyntheticDevice(deviceId(desktop, "Virtual core XTEST keyboard")));
            assertFalse(monitor.isSyntheticDevice(keyboard));

            keys.key(38, true);
            keys.key(38, false);
            Await.until(() -> seen.size() == 1, WAIT, () -> "the key press: " + seen);
            assertEquals(new Seen(UserInputListener.KEY, keyboard, 38), seen.get(0));
            assertEquals(keyboard, monitor.lastUserSourceId());

            pointer.moveBy(7, 3);
            Await.until(() -> seen.size() == 2, WAIT, () -> "the motion: " + seen);
            assertEquals(new Seen(UserInputListener.MOTION, mouse, 0), seen.get(1));

            pointer.button(1, true);
            pointer.button(1, false);
            Await.until(() -> seen.size() == 3, WAIT, () -> "the button press: " + seen);
            assertEquals(new Seen(UserInputListener.BUTTON, mouse, 1), seen.get(2));
            assertEquals(3, monitor.userInputCount());
            assertTrue(monitor.lastUserInputNanos() != 0);
        }
    }

    /** Ours and xdotool's input both come through XTEST: counted as synthetic, never reported. */
    @Test
    @Timeout(30)
    void ignoresOurInputAndXdotoolsButNotTheUserInputAfterIt(final TestDesktop desktop) throws Exception {
        final List<Seen> seen = new CopyOnWriteArrayList<>();
        final int keyboard = deviceId(desktop, "Xvfb keyboard");
        try (UserInputMonitor monitor = UserInputMonitor.start(desktop.display(),
                 (kind, source, detail, time) -> seen.add(new Seen(kind, source, detail)));
             XTestBackend backend = XTestBackend.open(desktop.display());
             XvfbDeviceInput user = XvfbDeviceInput.open(desktop.display(), keyboard)) {
            backend.movePointer(20, 20);
            backend.button(Button.LEFT, true);
            backend.button(Button.LEFT, false);
            backend.key(0x04, true);
            backend.key(0x04, false);
            assertEquals(ResultCode.PLATFORM_OK, backend.sync());
            Await.until(() -> monitor.syntheticInputCount() >= 3, WAIT,
                () -> "our motion, button and key press, saw " + monitor.syntheticInputCount());
            final long ours = monitor.syntheticInputCount();
            DesktopTool.run(desktop, "xdotool", "click", "1", "key", "b");
            Await.until(() -> monitor.syntheticInputCount() >= ours + 2, WAIT,
                () -> "xdotool's button and key press, saw " + (monitor.syntheticInputCount() - ours));

            // A fence: the X server delivers in order, so once the user's key is seen, every
            // synthetic event before it was seen too; none of them may have been reported.
            user.key(39, true);
            user.key(39, false);
            Await.until(() -> !seen.isEmpty(), WAIT, () -> "the user's key");
            assertEquals(List.of(new Seen(UserInputListener.KEY, keyboard, 39)), seen);
            assertEquals(1, monitor.userInputCount());
        }
    }

    @Test
    @Timeout(10)
    void closeStopsTheEventThreadAtOnce(final TestDesktop desktop) throws Exception {
        final UserInputMonitor monitor = UserInputMonitor.start(desktop.display(), (kind, source, detail, time) -> { });
        assertTrue(monitor.isRunning());
        // The event thread blocks in poll(2) without a timeout: only close()'s self-pipe wakes it,
        // and close() throws when the thread has not stopped within its join timeout, so returning
        // at all is the proof (no wall-clock bound, which a loaded machine would break).
        monitor.close();
        assertFalse(monitor.isRunning());
        assertNull(monitor.failure());
        monitor.close(); // idempotent
    }
}
