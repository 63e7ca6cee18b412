package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.GnomeDesktop;
import dev.saccade.demodesktop.SwayApp;
import dev.saccade.demodesktop.SwayDesktop.Accessible;
import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.WindowInfo;
import dev.saccade.gnome.GnomeBackend;
import dev.saccade.gnome.ShellExtension;
import dev.saccade.helper.backend.mutter.MutterBackend;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testsupport.Await;
import dev.saccade.wayland.Keymap;
import java.io.BufferedReader;
import java.io.IOException;
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
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Saccade on a real headless GNOME Shell 43 (mutter 43) with a German keyboard layout, one
 * session for the class: the windows and their bounds from Saccade's Shell extension, input
 * through mutter's RemoteDesktop session, and the release of a killed holder's key by mutter.
 * Proof comes from what zenity prints and how it exits. The GTK click runs first: run after the
 * Qt test it did not reach zenity's button although the point was inside it and zenity was on
 * top (cause not found yet, docs/desktops/gnome.md).
 */
@Tag("desktop")
@Timeout(300)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
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

    private static String display() {
        return "wayland:" + gnome.waylandSocket();
    }

    private static WindowInfo windowOf(final long pid) throws Exception {
        final GnomeBackend backend = new GnomeBackend(gnome::busAddress);
        return Await.probe(() -> {
            final DesktopSnapshot snapshot = backend.readOnce(display());
            return snapshot.windows().stream().filter(w -> w.pid() == pid && w.width() > 0).findFirst().orElse(null);
        }, w -> w != null, Duration.ofSeconds(10), Duration.ofMillis(100), w -> "a window of pid " + pid);
    }

    /**
     * The desktop point of zenity's Yes button, or null while its extents and the window's frame
     * disagree or another window lies above it (windows of the class's earlier tests stay open).
     */
    private static int[] yesPoint(final long pid) throws Exception {
        final Accessible yes = gnome.accessibleObjects(pid).stream()
            .filter(a -> a.isButton() && "Yes".equals(a.name()) && a.width() > 0).findFirst().orElse(null);
        final DesktopSnapshot snapshot = new GnomeBackend(gnome::busAddress).readOnce(display());
        final WindowInfo placed = snapshot.windows().stream().filter(w -> w.pid() == pid).findFirst().orElse(null);
        if (yes == null || placed == null) {
            return null;
        }
        final Accessible frame = frameOf(pid);
        final int x = snapshot.contentX(placed, frame.width(), frame.height()) + yes.x() + yes.width() / 2;
        final int y = snapshot.contentY(placed, frame.width(), frame.height()) + yes.y() + yes.height() / 2;
        final boolean inside = x >= placed.x() && x < placed.x() + placed.width() && y >= placed.y()
            && y < placed.y() + placed.height();
        final boolean onTop = snapshot.windows().get(snapshot.windows().size() - 1).xid() == placed.xid();
        return inside && onTop ? new int[] {x, y} : null;
    }

    /** The app's top-level accessible (its window's frame), the first object below the application with a size. */
    private static Accessible frameOf(final long pid) {
        return gnome.accessibleObjects(pid).stream().filter(a -> a.role() != 75 && a.width() > 0).findFirst()
            .orElseThrow();
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
        } catch (final DBusException | IOException e) {
            throw new IllegalStateException("cannot ask the session bus", e);
        }
        return pids;
    }

    /**
     * Before any RemoteDesktop session the headless seat has no keyboard, and mutter 43 dies
     * (NULL keymap file) when a client asks such a seat for one: the keymap read must wait for
     * the capability and leave the shell running.
     */
    @Test
    @Order(0)
    void aKeymapReadOfASeatWithoutAKeyboardLeavesTheShellRunning() throws Exception {
        final IOException refused = assertThrows(IOException.class,
            () -> Keymap.ofCompositor(gnome.waylandSocket().toString(), 300));
        assertTrue(refused.getMessage().contains("keyboard"), refused.getMessage());
        assertTrue(gnome.shellProcess().isAlive(), "gnome-shell died of the keymap read");
        gnome.listWindows();
        try (MutterBackend mutter = MutterBackend.open(gnome.busAddress())) {
            assertNotNull(mutter, "a RemoteDesktop session gives the seat its virtual keyboard");
            try (Keymap keymap = Keymap.ofCompositor(gnome.waylandSocket().toString(), 10_000)) {
                assertTrue(keymap.hasKeysym(0xfc), "the German layout's ü, read once the seat has a keyboard");
            }
        }
        assertTrue(gnome.shellProcess().isAlive());
    }

    @Test
    @Order(2)
    void textTypedThroughRemoteDesktopFollowsTheGermanLayout() throws Exception {
        final SwayApp zenity = gnome.launch("zenity", "zenity", "--entry", "--title=Gnome entry");
        gnome.focus(zenity.pid());
        try (MutterBackend input = MutterBackend.open(gnome.busAddress()).checkingLayoutOf(gnome.waylandSocket().toString())) {
            // Cyrillic is on no key of the German layout: mutter would drop it and type the rest; the
            // whole text is refused instead, and zenity's line shows none of it
            final byte[] refused = "ab жx".getBytes(StandardCharsets.UTF_8);
            assertEquals(ResultCode.PLATFORM_UNSUPPORTED, input.typeText(refused, 0, refused.length));
            final byte[] text = "Grüße yz@ 1\n".getBytes(StandardCharsets.UTF_8);
            assertEquals(ResultCode.PLATFORM_OK, input.typeText(text, 0, text.length));
        }
        assertEquals(0, zenity.awaitExit(10_000), zenity.toString());
        assertEquals("Grüße yz@ 1\n", zenity.stdout());
    }

    @Test
    @Order(1)
    void theExtensionsBoundsPlaceTheButtonThatAClickPresses() throws Exception {
        final SwayApp zenity = gnome.launch("zenity", "zenity", "--question", "--title=Gnome question",
            "--text=Proceed?");
        final WindowInfo window = windowOf(zenity.pid());
        assertTrue(window.width() > 50 && window.x() >= 0 && window.x() + window.width() <= 1280, window.toString());
        gnome.focus(zenity.pid());
        // A native window's accessible extents are relative to the window (docs/desktops/gnome.md,
        // "What works"); GTK's first ones may predate its layout, so read until window and button agree.
        final int[] point = Await.probe(() -> yesPoint(zenity.pid()), p -> p != null, Duration.ofSeconds(15),
            Duration.ofMillis(100), p -> "zenity's Yes button inside its window, on top: " + gnome.listWindows());
        final int x = point[0];
        final int y = point[1];
        try (MutterBackend input = MutterBackend.open(gnome.busAddress())) {
            assertEquals(ResultCode.PLATFORM_OK, input.movePointer(x, y));
            assertEquals(ResultCode.PLATFORM_OK, input.button(Button.LEFT, true));
            assertEquals(ResultCode.PLATFORM_OK, input.button(Button.LEFT, false));
        }
        assertEquals(0, zenity.awaitExit(10_000), "Yes was clicked at " + x + "," + y + " in " + window + ": "
            + zenity);
    }

    @Test
    @Order(3)
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

    /**
     * The owner on GNOME (windows from the extension) with its real helper (mutter's
     * RemoteDesktop): the helper holding the left button is killed with SIGKILL, mutter closes its
     * session and lets go, the replacement attaches and types into zenity, which prints it.
     */
    @Test
    @Order(5)
    void anOwnersKilledHelperIsReplacedAndTypesOnGnome() throws Exception {
        final SwayApp zenity = gnome.launch("zenity", "zenity", "--entry", "--title=Gnome helper kill");
        try (DesktopOwner owner = DesktopOwner.onDisplay(display(), gnome.busAddress(), "saccade-gnome-kill")) {
            showingHelperLog(owner, () -> holdKillAndType(owner, zenity));
        }
        assertEquals(0, zenity.awaitExit(10_000), zenity.toString());
        assertEquals("ok\n", zenity.stdout());
    }

    private static void holdKillAndType(final DesktopOwner owner, final SwayApp zenity) throws Exception {
        {
            final Process first = owner.service.inputHelper().process();
            try (AgentClient client = owner.connect()) {
                // Inside zenity's window: a long press on GNOME's desktop background opens its
                // menu, whose grab would then take the keys.
                final WindowInfo window = windowOf(zenity.pid());
                final long cell = HeldInputReleaseDesktopTest.gridCellNear(client, window.x() + window.width() / 2,
                    window.y() + window.height() / 2);
                final ActionCompletionFlyweight held = HeldInputReleaseDesktopTest.batchOnceAdopted(client,
                    a -> a.kind(ActionKind.HOLD).targetId(cell).buttonBits(Button.LEFT), Capability.POINTER,
                    Duration.ofSeconds(10));
                assertEquals(ResultCode.OK, held.result(), ResultCode.name(held.result()));
                assertEquals(Button.LEFT, held.physicalState().buttons());
                first.destroyForcibly();
                assertTrue(first.waitFor(10, TimeUnit.SECONDS));
                HeldInputReleaseDesktopTest.awaitReplacementHelper(owner.service, 0, Duration.ofSeconds(30));
                assertNotEquals(first.pid(), owner.service.inputHelper().process().pid(), "a new helper process");
                gnome.focus(zenity.pid());
                for (final int usage : new int[] {0x12, 0x0E, 0x28}) { // o, k, Enter
                    final ActionCompletionFlyweight done = HeldInputReleaseDesktopTest.batchOnceAdopted(client,
                        a -> a.kind(ActionKind.KEY).keyUsage(usage), Capability.KEYBOARD, Duration.ofSeconds(10));
                    assertEquals(ResultCode.OK, done.result(), ResultCode.name(done.result()));
                    assertEquals(0, done.physicalState().buttons(), "nothing held after the replacement's release");
                }
            }
        }
    }

    /** A step that may fail; its failure carries the helpers' log. */
    private interface Step {
        void run() throws Exception;
    }

    private static void showingHelperLog(final DesktopOwner owner, final Step step) throws Exception {
        try {
            step.run();
        } catch (final AssertionError e) {
            final java.nio.file.Path log = owner.runtime.resolve("saccade-input-helper.log");
            throw new AssertionError(e.getMessage() + "; helper log:\n"
                + (java.nio.file.Files.exists(log) ? java.nio.file.Files.readString(log) : "(none)"), e);
        }
    }

    /** A Qt app natively on GNOME: listed by the extension, its buttons 4 and 2 placed by AT-SPI and clicked through mutter. */
    @Test
    @Order(4)
    void theQtCalculatorsButtonsAreClickedAtTheirDesktopCoordinates() throws Exception {
        final SwayApp calculator = gnome.launch("qt-calculator", DemoApp.QT_CALCULATOR.environment(),
            DemoApp.QT_CALCULATOR.command().toArray(new String[0]));
        final WindowInfo window = windowOf(calculator.pid());
        assertEquals("Calculator", window.title());
        gnome.focus(calculator.pid());
        try (MutterBackend input = MutterBackend.open(gnome.busAddress())) {
            for (final String key : new String[] {"4", "2"}) {
                final Accessible button = Await.value(() -> gnome.accessibleObjects(calculator.pid()).stream()
                    .filter(a -> a.isButton() && key.equals(a.name()) && a.width() > 0).findFirst().orElse(null),
                    a -> a != null, Duration.ofSeconds(15), Duration.ofMillis(100), a -> "the calculator's " + key);
                // Where the window is now: mutter may still move a window just mapped.
                final DesktopSnapshot snapshot = new GnomeBackend(gnome::busAddress).readOnce(display());
                final WindowInfo placed = snapshot.windows().stream().filter(w -> w.pid() == calculator.pid())
                    .findFirst().orElseThrow();
                final Accessible frame = frameOf(calculator.pid());
                final int x = snapshot.contentX(placed, frame.width(), frame.height()) + button.x() + button.width() / 2;
                final int y = snapshot.contentY(placed, frame.width(), frame.height()) + button.y() + button.height() / 2;
                assertEquals(ResultCode.PLATFORM_OK, input.movePointer(x, y));
                assertEquals(ResultCode.PLATFORM_OK, input.button(Button.LEFT, true));
                assertEquals(ResultCode.PLATFORM_OK, input.button(Button.LEFT, false));
            }
        }
        Await.value(() -> gnome.accessibleObjects(calculator.pid()).stream().anyMatch(a -> "42".equals(a.text())
            || "42".equals(a.name())), found -> found, Duration.ofSeconds(10), Duration.ofMillis(100),
            found -> "the calculator's display shows 42: " + gnome.listWindows() + " "
                + gnome.accessibleObjects(calculator.pid()).subList(0, 4));
    }

    /** {@code saccade doctor} names the GNOME backend, the consent it needs (none) and the extension's windows. */
    @Test
    @Order(6)
    void doctorNamesTheGnomeBackend() throws Exception {
        final CliRun run = CliRun.run("doctor", "--display", display(), "--session-bus", gnome.busAddress(),
            "--endpoint", gnome.runtimeDirectory().resolve("no-such.sock").toString());
        assertTrue(run.out.contains("ok       desktop backend: GNOME"), run.out);
        assertTrue(run.out.contains("without a dialog"), run.out);
        assertTrue(run.out.contains("GNOME Shell extension saccade@saccade.dev: "), run.out);
    }
}
