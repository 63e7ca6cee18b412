package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.desktop.TargetIds;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionFlag;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.FilterFlag;
import dev.saccade.protocol.FreshnessPolicy;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.QueryFilterFlyweight;
import dev.saccade.protocol.QueryRequestFlyweight;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TextMatch;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Actions' visible effects through the whole pipeline (query, batch, planner, shared-memory
 * link, input helper, XTest) on real apps, read back through the scene (AT-SPI, X11).
 */
@WithTestDesktop(apps = {DemoApp.QT_CALCULATOR, DemoApp.ZENITY_ENTRY})
@ExtendWith(DesktopOwnerExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ActionEffectsDesktopTest {
    private TestDesktop desktop;
    private AgentClient client;

    @BeforeAll
    void takeOwner(final TestDesktop testDesktop, final AgentClient agentClient) {
        desktop = testDesktop;
        client = agentClient;
    }

    @Test
    void aPointerClickOnTheCalculatorsSevenShowsSeven() throws Exception {
        final AppHandle calc = app(DemoApp.QT_CALCULATOR);
        activate(calc.windowId());
        final long clear = await(calc.windowId(), Role.BUTTON, "Clear", TextMatch.EXACT).targetId();
        ok(InputHelperDesktopTest.send(client, new byte[0],
            a -> a.kind(ActionKind.CLICK).targetId(clear).buttonBits(Button.LEFT), 0)); // whatever another test left
        await(calc.windowId(), Role.TEXT, "0", TextMatch.EXACT); // the read-only display
        final long seven = await(calc.windowId(), Role.BUTTON, "7", TextMatch.EXACT).targetId();
        final ActionCompletionFlyweight click = InputHelperDesktopTest.send(client, new byte[0],
            a -> a.kind(ActionKind.CLICK).targetId(seven).buttonBits(Button.LEFT), 0);
        assertEquals(ResultCode.OK, click.result(), ResultCode.name(click.result()));
        await(calc.windowId(), Role.TEXT, "7", TextMatch.EXACT); // the read-only display
    }

    @Test
    void aKeyChordSelectsAllAndTypingReplacesIt() throws Exception {
        final AppHandle zenity = app(DemoApp.ZENITY_ENTRY);
        activate(zenity.windowId());
        final long field = await(zenity.windowId(), Role.TEXT_FIELD, null, TextMatch.EXACT).targetId();
        ok(InputHelperDesktopTest.send(client, "abc".getBytes(StandardCharsets.UTF_8),
            a -> a.kind(ActionKind.TEXT).targetId(field).buttonBits(Button.LEFT), 0));
        await(zenity.windowId(), Role.TEXT_FIELD, "abc", TextMatch.EXACT);
        ok(InputHelperDesktopTest.send(client, new byte[0],
            a -> a.kind(ActionKind.KEY_CHORD).keyUsage(0x04).modifiers(Modifier.CONTROL), 0)); // ctrl+a
        ok(InputHelperDesktopTest.send(client, new byte[0], a -> a.kind(ActionKind.KEY).keyUsage(0x1B), 0)); // x
        await(zenity.windowId(), Role.TEXT_FIELD, "x", TextMatch.EXACT);
    }

    @Test
    void invokeOnTheCalculatorsButtonsUsesTheirAccessibleAction() throws Exception {
        final AppHandle calc = app(DemoApp.QT_CALCULATOR);
        activate(calc.windowId());
        final long clear = await(calc.windowId(), Role.BUTTON, "Clear", TextMatch.EXACT).targetId();
        ok(InputHelperDesktopTest.send(client, new byte[0],
            a -> a.kind(ActionKind.INVOKE).targetId(clear).buttonBits(Button.LEFT), 0));
        await(calc.windowId(), Role.TEXT, "0", TextMatch.EXACT); // the read-only display
        final long eight = await(calc.windowId(), Role.BUTTON, "8", TextMatch.EXACT).targetId();
        ok(InputHelperDesktopTest.send(client, new byte[0],
            a -> a.kind(ActionKind.INVOKE).targetId(eight).buttonBits(Button.LEFT), 0));
        await(calc.windowId(), Role.TEXT, "8", TextMatch.EXACT); // the read-only display
    }

    @Test
    void textSelectDragsAcrossTheTextAndTypingReplacesTheSelection() throws Exception {
        final AppHandle zenity = app(DemoApp.ZENITY_ENTRY);
        activate(zenity.windowId());
        final TargetFlyweight field = await(zenity.windowId(), Role.TEXT_FIELD, null, TextMatch.EXACT);
        final long id = field.targetId();
        // from inside the field's text area before the first character to its far right (GTK ignores a press
        // on the entry's border and padding, about 8 px)
        final int y = field.boundsYQ8() + field.boundsHeightQ8() / 2;
        final int left = field.boundsXQ8() + 10 * RectQ8.ONE;
        final int right = field.boundsXQ8() + field.boundsWidthQ8() - 10 * RectQ8.ONE;
        // GTK's entry has missed a zero-duration drag about once in six runs on a loaded CI machine (the
        // text then reads "...select mey"); the drag is given three tries, and one must select.
        for (int attempt = 1; ; attempt++) {
            ok(InputHelperDesktopTest.send(client, new byte[0],
                a -> a.kind(ActionKind.KEY_CHORD).keyUsage(0x04).modifiers(Modifier.CONTROL), 0)); // ctrl+a, then type over
            final ActionCompletionFlyweight typed = InputHelperDesktopTest.send(client,
                "select me".getBytes(StandardCharsets.UTF_8), a -> a.kind(ActionKind.TEXT).targetId(id).buttonBits(Button.LEFT), 0);
            // About once in fifteen runs the calculator, which overlaps the entry and was active in
            // the test before, became active again after zenity was (the scene then shows the entry
            // OCCLUDED: TARGET_NOT_FOUND, or the focus click met the calculator: FOCUS_CHANGED).
            // Refused, nothing typed, as it should be; activate zenity and try again.
            if (typed.result() != ResultCode.OK && attempt < 3 && activeWindow() != zenity.windowId()) {
                System.out.println("TEXT attempt " + attempt + ": " + ResultCode.name(typed.result()) + ", window "
                    + activeWindow() + " active again; activating zenity");
                activate(zenity.windowId());
                continue;
            }
            ok(typed);
            await(zenity.windowId(), Role.TEXT_FIELD, "select me", TextMatch.SUBSTRING, 20);
            ok(InputHelperDesktopTest.send(client, new byte[0], a -> a.kind(ActionKind.TEXT_SELECT)
                .flags(ActionFlag.EXPLICIT_POINTS).targetId(id).secondaryTargetId(id).point(left, y).secondaryPoint(right, y)
                .buttonBits(Button.LEFT), 0));
            ok(InputHelperDesktopTest.send(client, new byte[0], a -> a.kind(ActionKind.KEY).keyUsage(0x1C), 0)); // y
            try {
                await(zenity.windowId(), Role.TEXT_FIELD, "y", TextMatch.EXACT, attempt < 3 ? 5 : 20);
                return;
            } catch (final AssertionError e) {
                if (attempt == 3) {
                    throw e;
                }
                System.out.println("TEXT_SELECT attempt " + attempt + " selected nothing: " + e.getMessage());
            }
        }
    }

    @Test
    void windowCycleAndActivateChangeTheActiveWindow() throws Exception {
        final AppHandle calc = app(DemoApp.QT_CALCULATOR);
        final AppHandle zenity = app(DemoApp.ZENITY_ENTRY);
        // A window covered by another is OCCLUDED and WINDOW_ACTIVATE refuses it (rule F);
        // WINDOW_CYCLE reaches it.
        for (int i = 0; i < 4 && activeWindow() != zenity.windowId(); i++) {
            cycleWindow();
        }
        assertEquals(zenity.windowId(), activeWindow());
        activate(calc.windowId());
        assertEquals(calc.windowId(), activeWindow());
    }

    // ---- helpers ----

    private static void ok(final ActionCompletionFlyweight c) {
        assertEquals(ResultCode.OK, c.result(), ResultCode.name(c.result()));
    }

    /** Makes {@code window} active: WINDOW_ACTIVATE, or WINDOW_CYCLE while another window covers it (rule F). */
    private void activate(final long window) throws Exception {
        final ActionCompletionFlyweight activated = InputHelperDesktopTest.send(client, new byte[0],
            a -> a.kind(ActionKind.WINDOW_ACTIVATE).targetId(TargetIds.window(window)), 0);
        for (int i = 0; i < 4 && activated.result() == ResultCode.TARGET_NOT_FOUND && activeWindow() != window; i++) {
            cycleWindow();
        }
        if (activated.result() != ResultCode.TARGET_NOT_FOUND) {
            ok(activated);
        }
        Await.probe(this::activeWindow, active -> active == window, Duration.ofSeconds(10),
            active -> "window " + window + " to become active; active " + active);
    }

    /** WINDOW_CYCLE, then waits until the scene's active window is another one. */
    private void cycleWindow() throws Exception {
        final long before = activeWindow();
        ok(InputHelperDesktopTest.send(client, new byte[0], a -> a.kind(ActionKind.WINDOW_CYCLE), 0));
        Await.probe(this::activeWindow, active -> active != before, Duration.ofSeconds(10),
            active -> "WINDOW_CYCLE to change the active window from " + before);
    }

    /** The scene's active window, after waiting for any newer generation briefly. */
    private long activeWindow() throws Exception {
        return query(0, null, TextMatch.EXACT, 100).generation().windowId();
    }

    private AppHandle app(final DemoApp which) {
        for (final AppHandle a : desktop.apps()) {
            if (a.app() == which) {
                return a;
            }
        }
        throw new AssertionError(which + " not running");
    }

    /** Queries until an actionable target of {@code role} in {@code window} has {@code text} (or any). */
    private TargetFlyweight await(final long window, final int role, final String text, final int match) throws Exception {
        return await(window, role, text, match, 20);
    }

    private TargetFlyweight await(final long window, final int role, final String text, final int match,
        final long seconds) throws Exception {
        final String[] seen = {""};
        return Await.probe(() -> {
            final CompletionFlyweight c = query(role, text, match, 200);
            for (int i = 0; i < c.targetCount(); i++) {
                final TargetFlyweight t = new TargetFlyweight().wrap(c.bytes(), c.offset() + c.targetsOffset()
                    + (long) i * c.targetStride());
                if (t.windowId() == window && (t.flags() & TargetFlag.ACTIONABLE) != 0) {
                    final BytesStore<?, byte[]> copy = BytesStore.wrap(new byte[TargetFlyweight.LENGTH]);
                    copy.write(0, c.bytes(), t.offset(), TargetFlyweight.LENGTH);
                    return new TargetFlyweight().wrap(copy, 0);
                }
            }
            seen[0] = c.targetCount() + " candidates";
            final StringBuilder texts = new StringBuilder();
            final CompletionFlyweight any = query(role, null, match, 0);
            for (int i = 0; i < any.targetCount(); i++) {
                final TargetFlyweight t = new TargetFlyweight().wrap(any.bytes(), any.offset() + any.targetsOffset()
                    + (long) i * any.targetStride());
                if (t.windowId() == window) {
                    final byte[] b = new byte[(int) t.textSize()];
                    any.bytes().read(any.offset() + t.textOffset(), b, 0, b.length);
                    texts.append('"').append(new String(b, StandardCharsets.UTF_8)).append("\" ");
                }
            }
            seen[0] += "; texts " + texts;
            return null;
        }, Objects::nonNull, Duration.ofSeconds(seconds),
            none -> Role.name(role) + " \"" + text + "\" in window " + window + " (" + seen[0] + ")");
    }

    /** A query of the current scene (waiting up to {@code waitMs} for a newer one first). */
    private CompletionFlyweight query(final int role, final String text, final int match, final long waitMs) throws Exception {
        return query(client, role, text, match);
    }

    /** A query of {@code client}'s current scene: semantic targets of {@code role} (fused for 0) with {@code text}. */
    static CompletionFlyweight query(final AgentClient client, final int role, final String text, final int match)
        throws Exception {
        final byte[] utf8 = text == null ? new byte[0] : text.getBytes(StandardCharsets.UTF_8);
        final BytesStore<?, ?> req = client.requestStore();
        final long at = client.requestOffset();
        final int total = QueryRequestFlyweight.LENGTH + QueryFilterFlyweight.LENGTH + utf8.length;
        req.zeroOut(at, at + total);
        final QueryRequestFlyweight q = new QueryRequestFlyweight().wrap(req, at);
        q.header().set(QueryRequestFlyweight.LENGTH, AgentAbi.QUERY_REQUEST, 0);
        q.requestId(2).requestedCapabilityBits(Capability.OBSERVE).maximumResults(1000).filterCount(1)
            .filterStride(QueryFilterFlyweight.LENGTH).filtersOffset(QueryRequestFlyweight.LENGTH).totalSize(total);
        q.scope().kind(ScopeKind.DESKTOP).sourceMode(role == 0 ? SourceMode.FUSED : SourceMode.SEMANTIC);
        q.freshness().policy(FreshnessPolicy.LATEST_VALID);
        final QueryFilterFlyweight f = new QueryFilterFlyweight().wrap(req, at + QueryRequestFlyweight.LENGTH);
        int flags = role == 0 ? 0 : FilterFlag.ROLE;
        if (utf8.length > 0) {
            flags |= FilterFlag.TEXT;
            f.textMatch(match).textOffset(QueryRequestFlyweight.LENGTH + QueryFilterFlyweight.LENGTH).textSize(utf8.length);
            req.write(at + QueryRequestFlyweight.LENGTH + QueryFilterFlyweight.LENGTH, utf8, 0, utf8.length);
        }
        f.flags(flags).role(role);
        client.send(total);
        final var reply = client.receive(AgentAbi.QUERY_COMPLETION);
        final BytesStore<?, byte[]> copy = BytesStore.wrap(new byte[reply.length()]);
        copy.write(0, reply.bytes(), reply.offset(), reply.length());
        return new CompletionFlyweight().wrap(copy, 0);
    }
}
