package dev.saccade.helper.backend.xtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.helper.backend.PointerState;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import dev.saccade.x11.Xlib;
import java.time.Duration;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/** Xlib's default handlers would exit the JVM on these; ours must turn them into platform codes. */
@WithTestDesktop
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class XConnectionLossTest {
    @Test
    @Order(1)
    @Timeout(30)
    void protocolErrorIsCountedNotFatal(final TestDesktop desktop) throws Exception {
        try (XTestBackend backend = XTestBackend.open(desktop.display())) {
            final long display = Xlib.X11.XOpenDisplay(desktop.display());
            final int slot = XErrorTrap.register(display);
            try {
                final long[] type = new long[1];
                final long[] items = new long[1];
                final long[] data = new long[1];
                Xlib.X11.XGetWindowProperty(display, 0x3fffffffL, Xlib.XA_WINDOW, 0, 1, 0, 0, type, new int[1], items,
                    new long[1], data); // no such window: BadWindow
                Xlib.X11.XSync(display, 0);
                assertEquals(1, XErrorTrap.errors(slot));
                assertEquals(3, XErrorTrap.lastError(slot) & 0xFF, "BadWindow");
            } finally {
                XErrorTrap.unregister(slot);
                Xlib.X11.XCloseDisplay(display);
            }
            assertEquals(ResultCode.PLATFORM_OK, backend.sync(), "another connection's error is not ours");
        }
    }

    /** Last test of the class: it stops the desktop's X server under an open backend and monitor. */
    @Test
    @Order(2)
    @Timeout(30)
    void lostServerAnswersBackendErrorsAndStopsTheMonitor(final TestDesktop desktop) throws Exception {
        final XTestBackend backend = XTestBackend.open(desktop.display());
        final UserInputMonitor monitor = UserInputMonitor.start(desktop.display(), (kind, source, detail, time) -> { });
        try {
            assertEquals(ResultCode.PLATFORM_OK, backend.sync());
            desktop.close(); // Xvfb gone
            Await.until(() -> !monitor.isRunning(), Duration.ofSeconds(10), () -> "monitor stopped");
            assertNotNull(monitor.failure());
            backend.movePointer(1, 1);
            assertEquals(ResultCode.PLATFORM_BACKEND, backend.sync());
            assertEquals(ResultCode.PLATFORM_BACKEND, backend.movePointer(2, 2));
            assertEquals(ResultCode.PLATFORM_BACKEND, backend.queryPointer(new PointerState()));
            assertFalse(monitor.isRunning());
        } finally {
            backend.close();
            monitor.close();
        }
    }
}
