package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.KdeDesktop;
import dev.saccade.demodesktop.SwayApp;
import dev.saccade.demodesktop.SwayDesktop;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testsupport.Await;
import java.time.Duration;
import java.util.List;
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
 * The real owner and its real input helper on a headless KWin 5.27 with a German layout. A Qt
 * button clicks on release, so a key of the Qt calculator held by HOLD shows nothing until the
 * button is released, and its digit appears once a release path let it go: the agent's
 * disconnect, and the replacement of a helper killed with SIGKILL (whose fake input KWin leaves
 * held). The replacement then presses the physical Z key in zenity's entry, which the German
 * layout types as y, and zenity prints it. Last, KWin itself is killed mid-hold: the owner
 * answers the next batch with a typed error instead of hanging.
 */
@Tag("desktop")
@Timeout(180)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KdeReleaseDesktopTest {
    private static final String CALCULATOR = "/usr/lib/x86_64-linux-gnu/qt5/examples/widgets/widgets/calculator/calculator";
    private static KdeDesktop kde;
    private static SwayApp calculator;
    private static SwayApp zenity;
    private static DesktopOwner owner;

    @BeforeAll
    static void start() throws Exception {
        kde = KdeDesktop.start(1280, 800, "de");
        zenity = kde.launch("zenity", "zenity", "--entry", "--title=Agent entry");
        kde.place(zenity.pid(), 60, 60);
        calculator = kde.launch("qt-calculator", CALCULATOR);
        kde.place(calculator.pid(), 600, 100);
        owner = DesktopOwner.onDisplay("wayland:" + kde.waylandSocket(), kde.busAddress(), "saccade-kde-release");
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (owner != null) {
                owner.close();
            }
        } finally {
            kde.close();
        }
    }

    /** The calculator's display, read over AT-SPI from the app. */
    private static String display() {
        for (final SwayDesktop.Accessible a : kde.accessibleObjects(calculator.pid())) {
            if (a.isEntry()) {
                return a.text();
            }
        }
        return null;
    }

    /** The target id of the calculator's button {@code label}, once the owner's scene has it. */
    private static long button(final String label) throws Exception {
        final List<String> ids = Await.probe(() -> Json.targetIds(Json.object(CliRun.atEndpoint(
                owner.service.endpoint(), "query", "--role", "button", "--text", label, "--match", "exact", "--json").stdout)),
            found -> found.size() == 1, Duration.ofSeconds(20), Duration.ofMillis(100),
            found -> "one button " + label + " in the scene, found " + found);
        return Long.parseUnsignedLong(ids.get(0));
    }

    private static ActionCompletionFlyweight hold(final AgentClient client, final long target) throws Exception {
        final ActionCompletionFlyweight held = HeldInputReleaseDesktopTest.batchOnceAdopted(client,
            a -> a.kind(ActionKind.HOLD).targetId(target).buttonBits(Button.LEFT), Capability.POINTER,
            Duration.ofSeconds(10));
        assertEquals(ResultCode.OK, held.result(), ResultCode.name(held.result()));
        assertEquals(Button.LEFT, held.physicalState().buttons());
        return held;
    }

    @Test
    @Order(1)
    void aDisconnectMidHoldReleasesTheButtonAndTheQtKeyClicks() throws Exception {
        final long seven = button("7");
        final String before = display();
        try (AgentClient client = owner.connect()) {
            hold(client, seven);
            // A Qt button clicks on release: while held, the display has not changed.
            assertEquals(before, display(), "nothing clicked while the button is held");
        }
        Await.until(() -> (before + "7").replaceFirst("^0", "").equals(display()), Duration.ofSeconds(10),
            () -> "the release after the disconnect clicked 7: the display shows " + display() + ", before " + before);
    }

    @Test
    @Order(2)
    void aKilledHelpersHoldIsReleasedByItsReplacementWhichThenTypesUnderTheLayout() throws Exception {
        final long eight = button("8");
        final String before = display();
        try (AgentClient client = owner.connect()) {
            final Process first = owner.service.inputHelper().process();
            final long restarts = owner.service.inputHelper().restarts();
            hold(client, eight);
            first.destroyForcibly();
            assertTrue(first.waitFor(10, TimeUnit.SECONDS));
            HeldInputReleaseDesktopTest.awaitReplacementHelper(owner.service, restarts, Duration.ofSeconds(30));
            assertNotEquals(first.pid(), owner.service.inputHelper().process().pid(), "a new helper process");
            Await.until(() -> (before + "8").replaceFirst("^0", "").equals(display()), Duration.ofSeconds(10),
                () -> "the replacement's release clicked 8: the display shows " + display() + ", before " + before);
            kde.place(zenity.pid(), 60, 60); // activates zenity for the keys
            for (final int usage : new int[] {0x1D, 0x28}) { // the key labelled Z on a US keyboard, Enter
                final ActionCompletionFlyweight done = HeldInputReleaseDesktopTest.batchOnceAdopted(client,
                    a -> a.kind(ActionKind.KEY).keyUsage(usage), Capability.KEYBOARD, Duration.ofSeconds(10));
                assertEquals(ResultCode.OK, done.result(), ResultCode.name(done.result()));
                assertEquals(0, done.physicalState().buttons(), "nothing held after the replacement's release");
            }
        }
        assertEquals(0, zenity.awaitExit(10_000), zenity.toString());
        assertEquals("y\n", zenity.stdout(), "the German layout puts y on that key");
    }

    @Test
    @Order(3)
    void whenKwinDiesMidHoldTheNextBatchGetsATypedAnswer() throws Exception {
        final long nine = button("9");
        try (AgentClient client = owner.connect()) {
            hold(client, nine);
            kde.kwinProcess().destroyForcibly();
            assertTrue(kde.kwinProcess().onExit().get(10, TimeUnit.SECONDS) != null);
            // Nothing can stay held on a seat that is gone; what must not happen is a hang or an OK.
            final ActionCompletionFlyweight after = HeldInputReleaseDesktopTest.batch(client,
                a -> a.kind(ActionKind.RELEASE).buttonBits(Button.LEFT));
            assertNotEquals(ResultCode.OK, after.result(), "a release on a dead compositor cannot succeed: "
                + ResultCode.name(after.result()));
            System.out.println("kde-session-end: " + ResultCode.name(after.result()));
        }
    }
}
