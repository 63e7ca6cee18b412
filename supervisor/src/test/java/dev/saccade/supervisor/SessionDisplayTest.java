package dev.saccade.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
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

    /**
     * A local display answers only while something accepts on its socket: a socket file left by
     * a killed server refuses, a number nobody uses has no file; forms that cannot be checked
     * locally count as answering.
     */
    @Test
    void aLocalDisplayAnswersOnlyWhileItsSocketAccepts() throws Exception {
        final Path dir = Path.of("/tmp/.X11-unix");
        Files.createDirectories(dir);
        int n = 60_000 + (int) (ProcessHandle.current().pid() % 5_000);
        while (Files.exists(dir.resolve("X" + n), LinkOption.NOFOLLOW_LINKS)) {
            n++;
        }
        final Path socket = dir.resolve("X" + n);
        assertFalse(SessionDisplay.answers(":" + n), "no socket");
        try (ServerSocketChannel server =
                 ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            assertTrue(SessionDisplay.answers(":" + n), "listening");
            assertTrue(SessionDisplay.answers(":" + n + ".0"), "a screen of it");
        }
        try {
            assertTrue(Files.exists(socket), "the file outlives the server");
            assertFalse(SessionDisplay.answers(":" + n), "a dead server's socket refuses");
        } finally {
            Files.deleteIfExists(socket);
        }
        assertTrue(SessionDisplay.answers(":stub"));
        assertTrue(SessionDisplay.answers("remote:0"));
    }
}
