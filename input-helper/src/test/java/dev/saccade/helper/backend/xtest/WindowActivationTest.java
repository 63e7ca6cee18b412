package dev.saccade.helper.backend.xtest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@WithTestDesktop(apps = {DemoApp.ZENITY_ENTRY, DemoApp.ZENITY_ENTRY, DemoApp.ZENITY_ENTRY})
class WindowActivationTest {
    private static final Pattern WINDOW = Pattern.compile("window id # (0x[0-9a-fA-F]+)");

    /** What {@code xprop -root _NET_ACTIVE_WINDOW} says, 0 for none. */
    private static long activeWindow(final TestDesktop desktop) {
        final Matcher m = WINDOW.matcher(DesktopTool.run(desktop, "xprop", "-root", "_NET_ACTIVE_WINDOW"));
        return m.find() ? Long.parseLong(m.group(1).substring(2), 16) : 0;
    }

    private static void awaitActive(final TestDesktop desktop, final long window) {
        Await.until(() -> activeWindow(desktop) == window, Duration.ofSeconds(5),
            () -> "active 0x" + Long.toHexString(window) + ", xprop says 0x" + Long.toHexString(activeWindow(desktop)));
    }

    @Test
    @Timeout(60)
    void activatesTheRequestedWindowAndCyclesInAltTabOrder(final TestDesktop desktop) throws Exception {
        final List<AppHandle> apps = desktop.apps();
        final long first = apps.get(0).windowId();
        final long second = apps.get(1).windowId();
        final long third = apps.get(2).windowId();
        try (XTestBackend backend = XTestBackend.open(desktop.display())) {
            for (final long window : new long[] {first, second, third}) {
                assertEquals(ResultCode.PLATFORM_OK, backend.activateWindow(window));
                awaitActive(desktop, window);
            }
            // Stacking, bottom to top: first, second, third (openbox raises what it activates).
            assertEquals(ResultCode.PLATFORM_OK, backend.cycleWindow(false));
            awaitActive(desktop, second); // forward: the most recent other window
            assertEquals(ResultCode.PLATFORM_OK, backend.cycleWindow(false));
            awaitActive(desktop, third); // and back, like alt-tab
            assertEquals(ResultCode.PLATFORM_OK, backend.cycleWindow(true));
            awaitActive(desktop, first); // backward: the least recent
            assertEquals(first, backend.activeWindow());
            assertEquals(ResultCode.PLATFORM_INVALID_ARGUMENT, backend.activateWindow(0));
        }
    }
}
