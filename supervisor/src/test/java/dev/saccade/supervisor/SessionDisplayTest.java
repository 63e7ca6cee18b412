package dev.saccade.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Where the display comes from: pure look-up logic (the supervisor's use of it is in cli's SessionDisplayIT). */
class SessionDisplayTest {
    @Test
    void ourOwnDisplayWinsAndTheManagerIsNotAsked() {
        final AtomicInteger asked = new AtomicInteger();
        final SessionDisplay d = SessionDisplay.lookUp(Map.of("DISPLAY", ":3", "INVOCATION_ID", "x"), () -> {
            asked.incrementAndGet();
            return Map.of("DISPLAY", ":9");
        });
        assertEquals(":3", d.display);
        assertEquals(SessionDisplay.Source.ENVIRONMENT, d.source);
        assertEquals(0, asked.get());
    }

    @Test
    void underSystemdTheUserManagersDisplayIsTakenWithItsXauthority() {
        final SessionDisplay d = SessionDisplay.lookUp(Map.of("INVOCATION_ID", "x"),
            () -> Map.of("DISPLAY", ":1", "XAUTHORITY", "/run/user/1000/xauth", "PATH", "/usr/bin"));
        assertEquals(":1", d.display);
        assertEquals(SessionDisplay.Source.USER_MANAGER, d.source);
        assertEquals(Map.of("XAUTHORITY", "/run/user/1000/xauth"), d.environment);
    }

    @Test
    void withoutSystemdOrWithoutADisplayAnywhereItWaitsAndSaysWhatToDo() {
        final AtomicInteger asked = new AtomicInteger();
        final SessionDisplay outside = SessionDisplay.lookUp(Map.of(), () -> {
            asked.incrementAndGet();
            return Map.of("DISPLAY", ":1");
        });
        assertFalse(outside.known());
        assertEquals(0, asked.get(), "the user manager is asked only by a service it started");
        assertFalse(SessionDisplay.lookUp(Map.of("MANAGERPID", "1"), Map::of).known());
        final String hint = SessionDisplay.waitingHint(Map.of("INVOCATION_ID", "x", "WAYLAND_DISPLAY", "wayland-0"));
        assertTrue(hint.contains("nor in the systemd user manager's"), hint);
        assertTrue(hint.contains("WAYLAND_DISPLAY=wayland-0"), hint);
        assertTrue(hint.contains("systemctl --user import-environment DISPLAY XAUTHORITY"), hint);
    }
}
