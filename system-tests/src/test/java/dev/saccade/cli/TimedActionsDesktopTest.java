package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.helper.backend.xtest.XvfbDeviceInput;
import dev.saccade.protocol.ActionBatchFlyweight;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionFlag;
import dev.saccade.protocol.ActionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.HelloFlag;
import dev.saccade.protocol.PhysicalFlag;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Timed actions of API 0x00010002 (agent-abi §5.15) on the X test desktop, proven by the X
 * server: the raw events it stamps say how many steps a paced drag took and over how long by its
 * own clock, and its pointer state says when a held button went up. A drag's lease ends early,
 * with its button released, on ABORT from another connection, on its connection's end and on the
 * user's own input; a hold with a lease time lets go by itself.
 */
@WithTestDesktop
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TimedActionsDesktopTest {
    private static final long DRAG_NS = TimeUnit.SECONDS.toNanos(2);
    private DesktopOwner owner;

    @AfterEach
    void stop() throws Exception {
        if (owner != null) {
            owner.close();
        }
    }

    @Test
    void aTwoSecondDragMovesZenitysSliderInPacedStepsByTheServersClock(final TestDesktop desktop) throws Exception {
        final File out = new File(desktop.logDir().toFile(), "zenity-scale-timed.out");
        final Process zenity = desktop.configure(new ProcessBuilder("zenity", "--scale", "--title=Saccade timed drag",
            "--value=10", "--min-value=0", "--max-value=100")).redirectOutput(out)
            .redirectError(new File(desktop.logDir().toFile(), "zenity-scale-timed.err")).start();
        try {
            owner = DesktopOwner.withAccessibility(desktop, "saccade-timed-slider");
            try (AgentClient client = owner.connect(Duration.ofSeconds(20), HelloFlag.EXTENDED_ROLES, AgentAbi.API_VERSION_1_2);
                 XRawEventLog log = new XRawEventLog(desktop.display())) {
                final SliderDragDesktopTest slider = new SliderDragDesktopTest();
                final int[] bounds = slider.slider(client, zenity.pid());
                final int y = bounds[1] + bounds[3] / 2;
                final int toX = bounds[0] + bounds[2] * 9 / 10;
                final long drop = ScrollEffectDesktopTest.cellAt(client, toX * RectQ8.ONE + RectQ8.ONE / 2,
                    y * RectQ8.ONE + RectQ8.ONE / 2);
                final long sliderId = slider.targetId();
                final ActionCompletionFlyweight drag = timed(client, a -> a.kind(ActionKind.DRAG_DROP)
                    .flags(ActionFlag.EXPLICIT_POINTS).targetId(sliderId).secondaryTargetId(drop).buttonBits(Button.LEFT)
                    .point((bounds[0] + bounds[2] / 10) * RectQ8.ONE + RectQ8.ONE / 2, y * RectQ8.ONE + RectQ8.ONE / 2)
                    .secondaryPoint(toX * RectQ8.ONE + RectQ8.ONE / 2, y * RectQ8.ONE + RectQ8.ONE / 2)
                    .durationNs(DRAG_NS), TimeUnit.SECONDS.toNanos(10));
                assertEquals(ResultCode.OK, drag.result(), ResultCode.name(drag.result()));
                final List<XRawEventLog.Event> glide = glide(Await.probe(log::events,
                    e -> e.stream().anyMatch(x -> x.type() == XRawEventLog.RAW_BUTTON_RELEASE), Duration.ofSeconds(5),
                    e -> "the drag's release reached the X server: " + e.size() + " raw events"), 1);
                final long spanMs = glide.get(glide.size() - 1).serverTimeMs() - glide.get(0).serverTimeMs();
                long gapMs = 0;
                for (int i = 1; i < glide.size(); i++) {
                    gapMs = Math.max(gapMs, glide.get(i).serverTimeMs() - glide.get(i - 1).serverTimeMs());
                }
                System.out.printf("timed drag 2 s: %d motion steps over %d ms by the X server's clock, at most %d ms apart%n",
                    glide.size(), spanMs, gapMs);
                assertTrue(glide.size() >= 10, "at least 10 steps: " + glide.size());
                assertTrue(spanMs >= 1_800 && spanMs <= 2_400, "the steps span 1.8-2.4 s by the server's clock: " + spanMs);
                final ActionCompletionFlyweight enter = InputHelperDesktopTest.send(client, new byte[0],
                    a -> a.kind(ActionKind.KEY).keyUsage(0x28), 0);
                assertEquals(ResultCode.OK, enter.result(), ResultCode.name(enter.result()));
                assertTrue(zenity.waitFor(20, TimeUnit.SECONDS), "zenity closed on Enter");
                final int value = Integer.parseInt(Files.readString(out.toPath(), StandardCharsets.UTF_8).trim());
                assertTrue(value >= 75, "the timed drag moved the value from 10 to near the far end: " + value);
            }
        } finally {
            zenity.destroyForcibly();
        }
    }

    /**
     * A timed TEXT_SELECT glides its held button across a GTK entry's text over its move time;
     * what it selected is proven by the entry: Delete then removes all of it, and zenity prints an
     * empty line.
     */
    @Test
    void aOneSecondTextSelectionSelectsWhatItCrosses(final TestDesktop desktop) throws Exception {
        final File out = new File(desktop.logDir().toFile(), "zenity-entry-timed.out");
        final Process zenity = desktop.configure(new ProcessBuilder("zenity", "--entry", "--title=Saccade timed select",
            "--entry-text=old words here")).redirectOutput(out)
            .redirectError(new File(desktop.logDir().toFile(), "zenity-entry-timed.err")).start();
        try {
            owner = DesktopOwner.withAccessibility(desktop, "saccade-timed-select");
            try (AgentClient client = owner.connect(Duration.ofSeconds(20), HelloFlag.EXTENDED_ROLES, AgentAbi.API_VERSION_1_2);
                 XRawEventLog log = new XRawEventLog(desktop.display())) {
                final SliderDragDesktopTest find = new SliderDragDesktopTest();
                final int[] entry = find.actionable(client, zenity.pid(), Role.TEXT_FIELD, TargetCapability.TEXT_SELECT);
                final long entryId = find.targetId();
                final int y = entry[1] + entry[3] / 2;
                // from just inside the left edge to past the text's end (still inside the entry)
                final int fromX = entry[0] + 3;
                final int toX = entry[0] + entry[2] - 4;
                final ActionCompletionFlyweight select = timed(client, a -> a.kind(ActionKind.TEXT_SELECT)
                    .flags(ActionFlag.EXPLICIT_POINTS).targetId(entryId).secondaryTargetId(entryId).buttonBits(Button.LEFT)
                    .point(fromX * RectQ8.ONE + RectQ8.ONE / 2, y * RectQ8.ONE + RectQ8.ONE / 2)
                    .secondaryPoint(toX * RectQ8.ONE + RectQ8.ONE / 2, y * RectQ8.ONE + RectQ8.ONE / 2)
                    .durationNs(TimeUnit.SECONDS.toNanos(1)), TimeUnit.SECONDS.toNanos(10));
                assertEquals(ResultCode.OK, select.result(), ResultCode.name(select.result()));
                final List<XRawEventLog.Event> glide = glide(Await.probe(log::events,
                    e -> e.stream().anyMatch(x -> x.type() == XRawEventLog.RAW_BUTTON_RELEASE), Duration.ofSeconds(5),
                    e -> "the selection's release reached the X server: " + e.size() + " raw events"), 1);
                final long spanMs = glide.isEmpty() ? 0 : glide.get(glide.size() - 1).serverTimeMs() - glide.get(0).serverTimeMs();
                System.out.printf("timed text selection 1 s: %d motion steps over %d ms by the X server's clock%n",
                    glide.size(), spanMs);
                assertTrue(glide.size() >= 10 && spanMs >= 800 && spanMs <= 1_300, glide.size() + " steps over " + spanMs + " ms");
                // Delete (HID 0x4C): the whole selection goes; with none, one character at the caret would
                final ActionCompletionFlyweight delete = InputHelperDesktopTest.send(client, new byte[0],
                    a -> a.kind(ActionKind.KEY).keyUsage(0x4C), 0);
                assertEquals(ResultCode.OK, delete.result(), ResultCode.name(delete.result()));
                final ActionCompletionFlyweight enter = InputHelperDesktopTest.send(client, new byte[0],
                    a -> a.kind(ActionKind.KEY).keyUsage(0x28), 0);
                assertEquals(ResultCode.OK, enter.result(), ResultCode.name(enter.result()));
                assertTrue(zenity.waitFor(20, TimeUnit.SECONDS), "zenity closed on Enter");
                assertEquals("", Files.readString(out.toPath(), StandardCharsets.UTF_8).trim(),
                    "Delete removed the whole selection");
            }
        } finally {
            zenity.destroyForcibly();
        }
    }

    @Test
    void aFiveSecondHoldLeaseLetsGoByItself(final TestDesktop desktop) throws Exception {
        owner = DesktopOwner.start(desktop, "saccade-timed-hold");
        try (AgentClient client = owner.connectMinor2(); XRawEventLog log = new XRawEventLog(desktop.display())) {
            final long cell = HeldInputReleaseDesktopTest.gridCell(client);
            final long sentAt = System.nanoTime();
            final ActionCompletionFlyweight held = timed(client, a -> a.kind(ActionKind.HOLD).targetId(cell)
                .buttonBits(Button.LEFT).durationNs(TimeUnit.SECONDS.toNanos(5)), TimeUnit.SECONDS.toNanos(10));
            assertEquals(ResultCode.OK, held.result(), ResultCode.name(held.result()));
            assertTrue(owner.probe.leftHeld(), "the X server holds the button");
            final ActionCompletionFlyweight during = query(client);
            assertEquals(Button.LEFT, during.physicalState().buttons());
            assertTrue(during.physicalState().activeLeaseId() != 0, "physical shows the running lease");
            final long released = owner.probe.awaitLeftReleased(System.nanoTime() + TimeUnit.SECONDS.toNanos(15));
            assertTrue(released > 0, "the lease let go by itself");
            final List<XRawEventLog.Event> buttons = Await.probe(log::events,
                e -> e.stream().anyMatch(x -> x.type() == XRawEventLog.RAW_BUTTON_RELEASE), Duration.ofSeconds(5),
                e -> "the release reached the log");
            final long pressMs = first(buttons, XRawEventLog.RAW_BUTTON_PRESS).serverTimeMs();
            final long releaseMs = first(buttons, XRawEventLog.RAW_BUTTON_RELEASE).serverTimeMs();
            System.out.printf("hold lease 5 s: held %d ms by the X server's clock, released %.0f ms after sending%n",
                releaseMs - pressMs, (released - sentAt) / 1e6);
            assertTrue(releaseMs - pressMs >= 5_000 && releaseMs - pressMs <= 5_500,
                "held 5.0-5.5 s by the server's clock: " + (releaseMs - pressMs));
            HeldInputReleaseDesktopTest.awaitNothingHeld(client); // the lease is gone with the button
        }
    }

    @Test
    void aTimedScrollSpreadsItsWheelStepsOverItsLease(final TestDesktop desktop) throws Exception {
        owner = DesktopOwner.start(desktop, "saccade-timed-scroll");
        try (AgentClient client = owner.connectMinor2(); XRawEventLog log = new XRawEventLog(desktop.display())) {
            final long cell = HeldInputReleaseDesktopTest.gridCell(client);
            final ActionCompletionFlyweight scroll = timed(client, a -> a.kind(ActionKind.SCROLL).targetId(cell)
                .deltaYQ8(4 * RectQ8.ONE).durationNs(TimeUnit.SECONDS.toNanos(1)), TimeUnit.SECONDS.toNanos(10));
            assertEquals(ResultCode.OK, scroll.result(), ResultCode.name(scroll.result()));
            final List<Long> wheel = Await.probe(() -> log.events().stream()
                    .filter(e -> e.type() == XRawEventLog.RAW_BUTTON_PRESS && e.detail() == 5)
                    .map(XRawEventLog.Event::serverTimeMs).toList(), w -> w.size() == 4, Duration.ofSeconds(5),
                w -> "four wheel-down presses: " + w);
            final long spanMs = wheel.get(3) - wheel.get(0);
            System.out.printf("timed scroll 4 notches over 1 s: presses at %s ms by the X server's clock%n",
                wheel.stream().map(t -> Long.toString(t - wheel.get(0))).toList());
            assertTrue(spanMs >= 950 && spanMs <= 1_300, "spread over the lease: " + spanMs + " ms");
            for (int i = 1; i < 4; i++) {
                assertTrue(wheel.get(i) - wheel.get(i - 1) >= 250, "evenly apart: " + wheel);
            }
        }
    }

    @Test
    void abortFromAnotherConnectionEndsADragAtOnceWithItsButtonUp(final TestDesktop desktop) throws Exception {
        owner = DesktopOwner.start(desktop, "saccade-timed-abort");
        try (AgentClient dragger = owner.connectMinor2(); AgentClient other = owner.connectMinor2()) {
            startLongDrag(dragger);
            final long abortAt = System.nanoTime();
            final ActionCompletionFlyweight abort = HeldInputReleaseDesktopTest.batch(other, a -> a.kind(ActionKind.ABORT));
            assertEquals(ResultCode.OK, abort.result());
            final long released = owner.probe.awaitLeftReleased(System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
            assertTrue(released > 0, "ABORT released the drag's button");
            final double ms = (released - abortAt) / 1e6;
            System.out.printf("abort mid-drag: button up %.1f ms after the ABORT was sent%n", ms);
            assertTrue(ms < 500, "released right after the abort, not at the drag's end: " + ms + " ms");
            final ActionCompletionFlyweight drag = receive(dragger);
            assertEquals(ResultCode.CANCELLED, drag.result(), ResultCode.name(drag.result()));
            assertEquals(0, drag.physicalState().buttons());
        }
    }

    @Test
    void theEndOfTheDraggingConnectionReleasesItsButton(final TestDesktop desktop) throws Exception {
        owner = DesktopOwner.start(desktop, "saccade-timed-disconnect");
        final long closedAt;
        try (AgentClient dragger = owner.connectMinor2()) {
            startLongDrag(dragger);
            closedAt = System.nanoTime();
        }
        final long released = owner.probe.awaitLeftReleased(System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
        assertTrue(released > 0, "the disconnect released the drag's button");
        final double ms = (released - closedAt) / 1e6;
        System.out.printf("disconnect mid-drag: button up %.1f ms after the close%n", ms);
        assertTrue(ms < 1_000, "released at the disconnect, not at the drag's end: " + ms + " ms");
    }

    @Test
    void aHelperKilledMidDragLeavesNothingHeld(final TestDesktop desktop) throws Exception {
        owner = DesktopOwner.start(desktop, "saccade-timed-helper-kill");
        try (AgentClient dragger = owner.connectMinor2()) {
            startLongDrag(dragger);
            final Process helper = owner.service.inputHelper().process();
            final long killedAt = System.nanoTime();
            helper.destroyForcibly(); // SIGKILL: the helper releases nothing itself, the owner does from its ledger
            final long released = owner.probe.awaitLeftReleased(System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
            assertTrue(released > 0, "the drag's button was released after its helper was killed");
            System.out.printf("helper killed mid-drag: button up %.1f ms after the kill%n", (released - killedAt) / 1e6);
            final ActionCompletionFlyweight drag = receive(dragger);
            assertEquals(ResultCode.EXECUTOR_LOST, drag.result(), ResultCode.name(drag.result()));
        }
    }

    @Test
    void theUsersOwnInputEndsADragAndIsReported(final TestDesktop desktop) throws Exception {
        final Process list = desktop.configure(new ProcessBuilder("xinput", "list", "--id-only", "Xvfb keyboard")).start();
        final long keyboard = Long.parseLong(new String(list.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim());
        assertTrue(list.waitFor(10, TimeUnit.SECONDS));
        owner = DesktopOwner.start(desktop, "saccade-timed-user");
        try (AgentClient dragger = owner.connectMinor2()) {
            startLongDrag(dragger);
            final long userAt = System.nanoTime();
            try (XvfbDeviceInput user = XvfbDeviceInput.open(desktop.display(), keyboard)) {
                user.key(50, true); // a real device's Shift: the user took over
                user.key(50, false);
            }
            final long released = owner.probe.awaitLeftReleased(System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
            assertTrue(released > 0, "the user's input released the drag's button");
            System.out.printf("user input mid-drag: button up %.1f ms after the key%n", (released - userAt) / 1e6);
            final ActionCompletionFlyweight drag = receive(dragger);
            assertEquals(ResultCode.CANCELLED, drag.result(), ResultCode.name(drag.result()));
            final ActionCompletionFlyweight state = Await.probe(() -> query(dragger),
                q -> (q.physicalState().flags() & PhysicalFlag.USER_OVERRIDE) != 0, Duration.ofSeconds(5),
                q -> "USER_OVERRIDE reported; flags 0x" + Integer.toHexString(q.physicalState().flags()));
            assertEquals(0, state.physicalState().buttons());
        }
    }

    @Test
    void actPointerMoveWithADurationGlidesThere(final TestDesktop desktop) throws Exception {
        owner = DesktopOwner.start(desktop, "saccade-timed-cli");
        try (AgentClient client = owner.connectMinor2()) {
            final String start = Long.toUnsignedString(HeldInputReleaseDesktopTest.gridCell(client, 20));
            final String end = Long.toUnsignedString(HeldInputReleaseDesktopTest.gridCell(client, 65));
            final CliRun jump = CliRun.atEndpoint(owner.service.endpoint(), "act", "pointer-move", "--target", start);
            assertEquals(ExitCodes.SUCCESS, jump.exitCode, jump.toString());
            try (XRawEventLog log = new XRawEventLog(desktop.display())) {
                final long sentAt = System.nanoTime();
                final CliRun glide = CliRun.atEndpoint(owner.service.endpoint(), "act", "pointer-move", "--target", end,
                    "--duration", "1s", "--json");
                final double ms = (System.nanoTime() - sentAt) / 1e6;
                assertEquals(ExitCodes.SUCCESS, glide.exitCode, glide.toString());
                assertEquals("OK", Json.object(glide.stdout).get("result"), glide.toString());
                // the log's own connection reads the last steps a moment after the command returned
                final List<XRawEventLog.Event> motion = Await.probe(() -> log.events().stream()
                    .filter(e -> e.type() == XRawEventLog.RAW_MOTION).toList(), m -> spanMs(m) >= 950, Duration.ofSeconds(5),
                    m -> m.size() + " motion events over " + spanMs(m) + " ms by the X server's clock");
                final long spanMs = spanMs(motion);
                System.out.printf("act pointer-move --duration 1s: %d steps over %d ms by the X server's clock, %.0f ms"
                    + " for the command%n", motion.size(), spanMs, ms);
                assertTrue(motion.size() >= 10 && spanMs >= 900 && spanMs <= 1_300, motion.size() + " steps over " + spanMs + " ms");
            }
        }
    }

    @Test
    void anMcpActWithDurationMsGlidesOverThatTime(final TestDesktop desktop) throws Exception {
        owner = DesktopOwner.start(desktop, "saccade-timed-mcp");
        try (AgentClient client = owner.connectMinor2(); McpProcess mcp = McpProcess.start(owner.service.endpoint())) {
            final String start = Long.toUnsignedString(HeldInputReleaseDesktopTest.gridCell(client, 20));
            final String end = Long.toUnsignedString(HeldInputReleaseDesktopTest.gridCell(client, 65));
            mcp.call(McpProcess.INITIALIZE);
            final String jump = mcp.call(McpProcess.tool(2, "saccade_act",
                "{\"kind\":\"move\",\"targetId\":\"" + start + "\"}"));
            assertTrue(jump.contains("\"isError\":false"), jump);
            try (XRawEventLog log = new XRawEventLog(desktop.display())) {
                final String glide = mcp.call(McpProcess.tool(3, "saccade_act",
                    "{\"kind\":\"move\",\"targetId\":\"" + end + "\",\"durationMs\":1000}"));
                assertTrue(glide.contains("\"isError\":false"), glide);
                final List<XRawEventLog.Event> motion = Await.probe(() -> log.events().stream()
                    .filter(e -> e.type() == XRawEventLog.RAW_MOTION).toList(), m -> spanMs(m) >= 950, Duration.ofSeconds(5),
                    m -> m.size() + " motion events over " + spanMs(m) + " ms by the X server's clock");
                final long spanMs = spanMs(motion);
                System.out.printf("MCP saccade_act pointer-move durationMs 1000: %d steps over %d ms by the X server's"
                    + " clock%n", motion.size(), spanMs);
                assertTrue(motion.size() >= 10 && spanMs >= 900 && spanMs <= 1_300, motion.size() + " steps over " + spanMs + " ms");
            }
        }
    }

    /**
     * Sends a 10 s drag across the empty desktop and returns once the X server holds its button and
     * it has moved, with the completion still to come; physical shows the operation's lease.
     */
    private void startLongDrag(final AgentClient client) throws Exception {
        final long from = HeldInputReleaseDesktopTest.gridCell(client, 60);
        final long to = HeldInputReleaseDesktopTest.gridCell(client, 69);
        send(client, a -> a.kind(ActionKind.DRAG_DROP).targetId(from).secondaryTargetId(to).buttonBits(Button.LEFT)
            .durationNs(TimeUnit.SECONDS.toNanos(10)), TimeUnit.SECONDS.toNanos(20));
        final int startX = owner.probe.state()[0];
        Await.probe(owner.probe::state, s -> (s[2] & XPointerProbe.BUTTON1_MASK) != 0 && s[0] != startX,
            Duration.ofSeconds(10), s -> "the drag holds the button and moves: x " + s[0] + ", mask 0x"
                + Integer.toHexString(s[2]));
        try (AgentClient watcher = owner.connectMinor2()) {
            final ActionCompletionFlyweight state = query(watcher);
            assertEquals(Button.LEFT, state.physicalState().buttons(), "physical shows the drag's button");
            assertTrue(state.physicalState().activeLeaseId() != 0, "physical shows the running operation's lease");
        }
    }

    private static long spanMs(final List<XRawEventLog.Event> events) {
        return events.isEmpty() ? 0 : events.get(events.size() - 1).serverTimeMs() - events.get(0).serverTimeMs();
    }

    /**
     * The glide's steps among the motion events between the press and the release: a drag's first
     * step past the drag threshold comes before it (§5.10) and its nudge of one pixel and back
     * after it, so those three are left out; empty without a release.
     */
    static <T> List<T> withoutDragEnds(final List<T> held) {
        return held.size() < 3 ? List.of() : held.subList(1, held.size() - 2);
    }

    private static List<XRawEventLog.Event> glide(final List<XRawEventLog.Event> events, final int button) {
        final List<XRawEventLog.Event> held = new ArrayList<>();
        boolean pressed = false;
        for (final XRawEventLog.Event e : events) {
            if (e.type() == XRawEventLog.RAW_BUTTON_PRESS && e.detail() == button) {
                pressed = true;
            } else if (e.type() == XRawEventLog.RAW_BUTTON_RELEASE && e.detail() == button) {
                return withoutDragEnds(held);
            } else if (pressed && e.type() == XRawEventLog.RAW_MOTION) {
                held.add(e);
            }
        }
        return List.of();
    }

    private static XRawEventLog.Event first(final List<XRawEventLog.Event> events, final int type) {
        return events.stream().filter(e -> e.type() == type && e.detail() == 1).findFirst().orElseThrow();
    }

    private static ActionCompletionFlyweight query(final AgentClient client) throws Exception {
        final ActionCompletionFlyweight c = HeldInputReleaseDesktopTest.batch(client,
            a -> a.kind(ActionKind.QUERY_PHYSICAL_STATE), Capability.OBSERVE);
        assertEquals(ResultCode.OK, c.result(), ResultCode.name(c.result()));
        return c;
    }

    /** One action of API 0x00010002 (a duration is allowed) and its completion. */
    static ActionCompletionFlyweight timed(final AgentClient client, final Consumer<ActionFlyweight> action,
        final long deadlineInNs) throws Exception {
        send(client, action, deadlineInNs);
        return receive(client);
    }

    static void send(final AgentClient client, final Consumer<ActionFlyweight> action, final long deadlineInNs)
        throws Exception {
        final BytesStore<?, ?> req = client.requestStore();
        final long at = client.requestOffset();
        final int total = ActionBatchFlyweight.LENGTH + ActionFlyweight.LENGTH;
        req.zeroOut(at, at + total);
        final ActionBatchFlyweight b = new ActionBatchFlyweight().wrap(req, at);
        b.header().set(ActionBatchFlyweight.LENGTH, AgentAbi.ACTION_BATCH, 0).apiVersion(AgentAbi.API_VERSION_1_2);
        b.requestId(6).requestedCapabilityBits(Capability.POINTER).policy(AgentAbi.POLICY_STOP_ON_FAILURE)
            .deadlineNs(System.nanoTime() + deadlineInNs).actionCount(1)
            .actionStride(ActionFlyweight.LENGTH).actionsOffset(ActionBatchFlyweight.LENGTH)
            .payloadOffset(total).payloadSize(0).totalSize(total);
        action.accept(new ActionFlyweight().wrap(req, at + ActionBatchFlyweight.LENGTH));
        client.send(total);
    }

    private static ActionCompletionFlyweight receive(final AgentClient client) throws Exception {
        final var reply = client.receive(AgentAbi.ACTION_COMPLETION);
        final BytesStore<?, byte[]> copy = BytesStore.wrap(new byte[reply.length()]);
        copy.write(0, reply.bytes(), reply.offset(), reply.length());
        return new ActionCompletionFlyweight().wrap(copy, 0);
    }
}
