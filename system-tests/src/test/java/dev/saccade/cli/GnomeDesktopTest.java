package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.GnomeDesktop;
import dev.saccade.demodesktop.SwayApp;
import dev.saccade.demodesktop.SwayDesktop.Accessible;
import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.WindowInfo;
import dev.saccade.gnome.GnomeBackend;
import dev.saccade.gnome.ShellExtension;
import dev.saccade.helper.backend.mutter.MutterBackend;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testsupport.Await;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.exceptions.DBusExecutionException;
import org.freedesktop.dbus.interfaces.DBus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Saccade on a real headless GNOME Shell 43 (mutter 43) with a German keyboard layout, one
 * session for the class: the windows and their bounds from Saccade's Shell extension, input
 * through mutter's RemoteDesktop session, and the release of a killed holder's key by mutter.
 * Proof comes from what zenity prints and how it exits.
 */
@Tag("desktop")
@Timeout(300)
class GnomeDesktopTest {
    private static final int SHIFT_L = 42 + 8;
    private static GnomeDesktop gnome;

    @BeforeAll
    static void startGnome() {
        gnome = GnomeDesktop.start(1280, 800, "de", ShellExtension.UUID, ShellExtension.files());
    }

    @AfterAll
    static void stopGnome() {
        if (gnome != null) {
            gnome.close();
        }
    }

    private static WindowInfo windowOf(final long pid) throws Exception {
        final GnomeBackend backend = new GnomeBackend(gnome::busAddress);
        return Await.probe(() -> {
            final DesktopSnapshot snapshot = backend.readOnce();
            return snapshot.windows().stream().filter(w -> w.pid() == pid && w.width() > 0).findFirst().orElse(null);
        }, w -> w != null, Duration.ofSeconds(10), Duration.ofMillis(100), w -> "a window of pid " + pid);
    }

    /** The pids of the processes connected to the session bus now. */
    private static Set<Long> connectedPids() {
        final Set<Long> pids = new HashSet<>();
        try (DBusConnection bus = DBusConnectionBuilder.forAddress(gnome.busAddress()).withShared(false).build()) {
            final DBus daemon = bus.getRemoteObject("org.freedesktop.DBus", "/org/freedesktop/DBus", DBus.class);
            for (final String name : daemon.ListNames()) {
                if (name.startsWith(":")) {
                    try {
                        pids.add(daemon.GetConnectionUnixProcessID(name).longValue());
                    } catch (final DBusExecutionException e) {
                        // reason: the name left between the two calls
                    }
                }
            }
        } catch (final DBusException | java.io.IOException e) {
            throw new IllegalStateException("cannot ask the session bus", e);
        }
        return pids;
    }

    @Test
    void textTypedThroughRemoteDesktopFollowsTheGermanLayout() throws Exception {
        final SwayApp zenity = gnome.launch("zenity", "zenity", "--entry", "--title=Gnome entry");
        gnome.focus(zenity.pid());
        try (MutterBackend input = MutterBackend.open(gnome.busAddress())) {
            final byte[] text = "Grüße yz@ 1\n".getBytes(StandardCharsets.UTF_8);
            assertEquals(ResultCode.PLATFORM_OK, input.typeText(text, 0, text.length));
        }
        assertEquals(0, zenity.awaitExit(10_000), zenity.toString());
        assertEquals("Grüße yz@ 1\n", zenity.stdout());
    }

    @Test
    void theExtensionsBoundsPlaceTheButtonThatAClickPresses() throws Exception {
        final SwayApp zenity = gnome.launch("zenity", "zenity", "--question", "--title=Gnome question",
            "--text=Proceed?");
        final WindowInfo window = windowOf(zenity.pid());
        assertTrue(window.width() > 50 && window.x() >= 0 && window.x() + window.width() <= 1280, window.toString());
        final Accessible yes = Await.value(() -> gnome.accessibleObjects(zenity.pid()).stream()
            .filter(a -> a.isButton() && "Yes".equals(a.name()) && a.width() > 0).findFirst().orElse(null),
            a -> a != null, Duration.ofSeconds(15), Duration.ofMillis(100), a -> "zenity's Yes button with extents");
        // A native window's accessible extents are relative to its surface (docs/desktops/gnome.md §2).
        final DesktopSnapshot snapshot = new GnomeBackend(gnome::busAddress).readOnce();
        final int x = snapshot.surfaceX(window) + yes.x() + yes.width() / 2;
        final int y = snapshot.surfaceY(window) + yes.y() + yes.height() / 2;
        assertTrue(x >= window.x() && x < window.x() + window.width() && y >= window.y()
            && y < window.y() + window.height(), "the button lies inside the window's frame: " + x + "," + y);
        gnome.focus(zenity.pid());
        try (MutterBackend input = MutterBackend.open(gnome.busAddress())) {
            assertEquals(ResultCode.PLATFORM_OK, input.movePointer(x, y));
            assertEquals(ResultCode.PLATFORM_OK, input.button(Button.LEFT, true));
            assertEquals(ResultCode.PLATFORM_OK, input.button(Button.LEFT, false));
        }
        assertEquals(0, zenity.awaitExit(10_000), "Yes was clicked at " + x + "," + y + " in " + window + ": "
            + zenity);
    }

    @Test
    void aKilledHoldersShiftIsReleasedByMutter() throws Exception {
        final SwayApp zenity = gnome.launch("zenity", "zenity", "--entry", "--title=Gnome hold");
        gnome.focus(zenity.pid());
        final ProcessBuilder builder = new ProcessBuilder(List.of(
            ProcessHandle.current().info().command().orElse("java"), "-cp", System.getProperty("java.class.path"),
            MutterHoldMain.class.getName(), gnome.busAddress(), Integer.toString(SHIFT_L)))
            .redirectError(ProcessBuilder.Redirect.INHERIT);
        final Process holder = builder.start();
        try (MutterBackend input = MutterBackend.open(gnome.busAddress())) {
            final BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(),
                StandardCharsets.UTF_8));
            assertEquals("held", out.readLine());
            final byte[] shifted = "a".getBytes(StandardCharsets.UTF_8);
            assertEquals(ResultCode.PLATFORM_OK, input.typeText(shifted, 0, shifted.length)); // "A": Shift is down
            holder.destroyForcibly(); // SIGKILL: the holder releases nothing itself
            assertTrue(holder.waitFor(10, TimeUnit.SECONDS));
            // Once the bus has dropped the holder's connection it has told mutter, before it routes
            // our next call there; mutter closes the holder's session on that news.
            Await.until(() -> !connectedPids().contains(holder.pid()), Duration.ofSeconds(10),
                "the bus dropped the killed holder's connection");
            final byte[] rest = "bc\n".getBytes(StandardCharsets.UTF_8);
            assertEquals(ResultCode.PLATFORM_OK, input.typeText(rest, 0, rest.length));
        } finally {
            holder.destroyForcibly();
        }
        assertEquals(0, zenity.awaitExit(10_000), zenity.toString());
        assertEquals("Abc\n", zenity.stdout(), "Shift held while the holder lived, released once it was killed");
    }
}
