package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * A drag and the release paths of held input on a real headless GNOME Shell 43, one session for
 * the class. A drag through mutter's RemoteDesktop takes a GTK slider to its end, which zenity
 * prints. A Qt button clicks on release, so a calculator key held by HOLD shows its digit only
 * once a release path let it go: the agent's disconnect, and the owner killed with SIGKILL while
 * its agent's timed hold runs (the helper sees its owner gone and releases). Last, gnome-shell
 * itself is killed mid-hold: the next batch is answered with a typed error, not OK and not a
 * hang, nothing stays held (D56), and the owner and its helper then stop.
 */
@Tag("desktop")
@Timeout(240)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GnomeReleaseDesktopTest {
    private static final int ROLE_SLIDER = 51;
    private static final long LEASE_NS = TimeUnit.SECONDS.toNanos(10);
    private static GnomeDesktop gnome;
    private static SwayApp calculator;
    private static DesktopOwner owner;

    @BeforeAll
    static void start() throws Exception {
        gnome = GnomeDesktop.start(1280, 800, "us", ShellExtension.UUID, ShellExtension.files());
        calculator = gnome.launch("qt-calculator", DemoApp.QT_CALCULATOR.environment(),
            DemoApp.QT_CALCULATOR.command().toArray(new String[0]));
        owner = DesktopOwner.onDisplay(display(), gnome.busAddress(), "saccade-gnome-release");
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (owner != null) {
                owner.close();
            }
        } finally {
            if (gnome != null) {
                gnome.close();
            }
        }
    }

    private static String display() {
        return "wayland:" + gnome.waylandSocket();
    }

    /** The calculator's display, read over AT-SPI from the app. */
    private static String calculatorDisplay() {
        for (final Accessible a : gnome.accessibleObjects(calculator.pid())) {
            if (a.isEntry()) {
                return a.text();
            }
        }
        return null;
    }

    /**
     * The desktop points {x of the slider's left end, y of its middle, its width} of zenity's
     * scale, or null while its extents and the window disagree or another window lies above it.
     */
    private static int[] slider(final long pid) throws Exception {
        final Accessible slider = gnome.accessibleObjects(pid).stream()
            .filter(a -> a.role() == ROLE_SLIDER && a.width() > 0).findFirst().orElse(null);
        final DesktopSnapshot snapshot = new GnomeBackend(gnome::busAddress).readOnce(display());
        final WindowInfo placed = snapshot.windows().stream().filter(w -> w.pid() == pid).findFirst().orElse(null);
        final Accessible frame = gnome.accessibleObjects(pid).stream().filter(a -> a.role() != 75 && a.width() > 0)
            .findFirst().orElse(null);
        if (slider == null || placed == null || frame == null) {
            return null;
        }
        // Extents are relative to the window's buffer (docs/desktops/gnome.md, "What works").
        final int x = snapshot.contentX(placed, frame.width(), frame.height()) + slider.x();
        final int y = snapshot.contentY(placed, frame.width(), frame.height()) + slider.y() + slider.height() / 2;
        final boolean inside = x >= placed.x() && x + slider.width() <= placed.x() + placed.width() && y >= placed.y()
            && y < placed.y() + placed.height();
        final boolean onTop = snapshot.windows().get(snapshot.windows().size() - 1).xid() == placed.xid();
        return inside && onTop ? new int[] {x, y, slider.width()} : null;
    }

    @Test
    @Order(1)
    void aDragTakesAGtkSliderToItsEnd() throws Exception {
        final SwayApp zenity = gnome.launch("zenity-scale", "zenity", "--scale", "--title=Gnome drag", "--text=Drag",
            "--min-value=0", "--max-value=100", "--value=0");
        gnome.focus(zenity.pid());
        final int[] s = Await.probe(() -> slider(zenity.pid()), p -> p != null, Duration.ofSeconds(15),
            Duration.ofMillis(100), p -> "zenity's slider inside its window, on top: " + gnome.listWindows());
        try (MutterBackend input = MutterBackend.open(gnome.busAddress())) {
            // From the knob at value 0 (the slider's left end) past its right end, in steps.
            assertEquals(ResultCode.PLATFORM_OK, input.movePointer(s[0] + 4, s[1]));
            assertEquals(ResultCode.PLATFORM_OK, input.button(Button.LEFT, true));
            for (int dx = 4; dx <= s[2] + 20; dx += 10) {
                assertEquals(ResultCode.PLATFORM_OK, input.movePointer(s[0] + dx, s[1]));
            }
            assertEquals(ResultCode.PLATFORM_OK, input.button(Button.LEFT, false));
            assertEquals(ResultCode.PLATFORM_OK, input.key(0x28, true)); // Enter: OK, zenity prints the value
            assertEquals(ResultCode.PLATFORM_OK, input.key(0x28, false));
        }
        assertEquals(0, zenity.awaitExit(10_000), "slider at " + s[0] + "," + s[1] + ": " + zenity);
        assertEquals("100\n", zenity.stdout(), "the drag took the slider to its end");
    }

    @Test
    @Order(2)
    void aDisconnectMidHoldReleasesTheButtonAndTheQtKeyClicks() throws Exception {
        final long seven = HeldCalculatorKey.targetId(owner.service.endpoint(), "7");
        final String before = calculatorDisplay();
        try (AgentClient client = owner.connect()) {
            final ActionCompletionFlyweight held = HeldInputReleaseDesktopTest.batchOnceAdopted(client,
                a -> a.kind(ActionKind.HOLD).targetId(seven).buttonBits(Button.LEFT), Capability.POINTER,
                Duration.ofSeconds(10));
            assertEquals(ResultCode.OK, held.result(), ResultCode.name(held.result()));
            assertEquals(Button.LEFT, held.physicalState().buttons());
            // A Qt button clicks on release: while held, the display has not changed.
            assertEquals(before, calculatorDisplay(), "nothing clicked while the button is held");
        }
        Await.until(() -> HeldCalculatorKey.shownAfter(before, "7").equals(calculatorDisplay()), Duration.ofSeconds(10),
            () -> "the release after the disconnect clicked 7: the display shows " + calculatorDisplay()
                + ", before " + before);
    }

    /** The owner killed mid-hold: the helper sees its owner gone and releases over its own RemoteDesktop session. */
    @Test
    @Order(3)
    void aKilledOwnersTimedHoldIsReleasedByItsHelper() throws Exception {
        HeldCalculatorKey.releasedWhenItsOwnerIsKilled(display(), gnome.busAddress(), "saccade-gnome-owner-kill", "8",
            GnomeReleaseDesktopTest::calculatorDisplay);
    }

    /**
     * gnome-shell killed mid-hold ends the session: the next batch answers a typed error, not OK
     * and not a hang; the helper, whose RemoteDesktop session ended with the shell, holds nothing
     * any more (D56); and the owner and its helper then stop.
     */
    @Test
    @Order(4)
    void whenGnomeShellDiesMidHoldTheNextBatchGetsATypedAnswerAndNothingStaysHeld() throws Exception {
        final long nine = HeldCalculatorKey.targetId(owner.service.endpoint(), "9");
        final Process helper = owner.service.inputHelper().process();
        try (AgentClient client = owner.connectMinor2()) {
            // A lease time as a backstop: should the owner refuse the release below before the
            // helper meets the ended session, the lease's own release meets it.
            final ActionCompletionFlyweight held = HeldCalculatorKey.timedHold(client, nine, LEASE_NS);
            assertEquals(ResultCode.OK, held.result(), ResultCode.name(held.result()));
            assertEquals(Button.LEFT, held.physicalState().buttons());
            final ProcessHandle shell = gnome.shellProcess();
            shell.destroyForcibly();
            assertTrue(shell.onExit().get(10, TimeUnit.SECONDS) != null);
            // Nothing can stay held on a seat that is gone; what must not happen is a hang or an OK.
            final ActionCompletionFlyweight after = HeldInputReleaseDesktopTest.batch(client,
                a -> a.kind(ActionKind.RELEASE).buttonBits(Button.LEFT));
            assertNotEquals(ResultCode.OK, after.result(), "a release on a dead compositor cannot succeed: "
                + ResultCode.name(after.result()));
            System.out.println("gnome-session-end: " + ResultCode.name(after.result()) + ", buttons "
                + after.physicalState().buttons());
            final ActionCompletionFlyweight state = Await.probe(() -> HeldInputReleaseDesktopTest.batch(client,
                    a -> a.kind(ActionKind.QUERY_PHYSICAL_STATE), Capability.OBSERVE),
                c -> c.physicalState().buttons() == 0, Duration.ofSeconds(15), Duration.ofMillis(100),
                c -> "nothing held once the session ended: buttons " + c.physicalState().buttons());
            assertEquals(0, state.physicalState().activeLeaseId(), "no lease left");
        }
        final DesktopOwner closing = owner;
        owner = null;
        closing.close();
        assertTrue(helper.waitFor(10, TimeUnit.SECONDS), "the helper stopped with its owner");
    }
}
