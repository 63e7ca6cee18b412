package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.atspi.AtspiSource;
import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.desktop.AccessibilitySnapshot;
import dev.saccade.desktop.TargetIds;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TextMatch;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * TEXT alternating between a GTK entry (zenity --entry) and a multi-line GTK text view
 * (zenity --text-info --editable, a second window: the test desktop has no application with both
 * in one window) {@value #ROUNDS} rounds. Each round gives the entry a focus click (CLICK), ctrl+a
 * and a TEXT: the ctrl+a must go to the entry just clicked, away from the text view (D21), so the
 * TEXT replaces exactly what it held; then the text view a TEXT with its own focus click, ctrl+a
 * and a TEXT. After every TEXT both widgets' contents are read from the application itself (AT-SPI
 * {@code Text.GetText} of its objects, not our scene) and must be exactly what was typed into
 * each; at the end each dialog's printed output says the same.
 */
@WithTestDesktop(apps = {})
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class EntryAndTextViewDesktopTest extends OwnedDesktopTest {
    private static final int ROUNDS = 20;
    private static final String NOTES_TITLE = "Saccade notes";

    @Test
    void textAlternatingBetweenAnEntryAndATextViewLandsInEachExactly() throws Exception {
        final AppHandle entryApp = desktop.startApp(DemoApp.ZENITY_ENTRY);
        final long entry = FocusedTypingDesktopTest.targets(client, entryApp, Role.TEXT_FIELD, null, 1).get(0).targetId();
        final Path notesIn = Files.createTempFile("saccade-notes-", ".txt");
        final Path notesOut = Files.createTempFile("saccade-notes-", ".out");
        final Process notes = desktop.configure(new ProcessBuilder("zenity", "--text-info", "--editable",
            "--title=" + NOTES_TITLE, "--width=420", "--height=300", "--filename=" + notesIn)).redirectOutput(notesOut.toFile())
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            final long notesWindow = desktop.awaitWindow(notes.pid(), NOTES_TITLE, 30_000);
            // side by side: both dialogs open centred, and the larger one would cover the entry
            desktop.moveWindow(entryApp.windowId(), 0, 0);
            final int split = desktop.screenWidth() - 440;
            desktop.moveWindow(notesWindow, split + 10, 0);
            activate(notesWindow);
            final long view = field(notesWindow, notes.pid());
            awaitLeftOf(entry, split, true);
            awaitLeftOf(view, split, false);
            String entryText = "";
            String viewText = "";
            for (int round = 0; round < ROUNDS; round++) {
                entryText = "entry " + round + " é€";
                replace(entry, entryText, "round " + round + " entry");
                assertEquals(entryText, awaitAppText(entry, entryText), "round " + round + ": the entry, read from zenity");
                assertEquals(viewText, appText(view), "round " + round + ": the text view kept its text");
                viewText = "view " + round + "\nsecond line [" + round + "]";
                replaceView(view, viewText, "round " + round + " view");
                assertEquals(viewText, awaitAppText(view, viewText), "round " + round + ": the text view, read from zenity");
                assertEquals(entryText, appText(entry), "round " + round + ": the entry kept its text");
            }
            activate(entryApp.windowId());
            FocusedTypingDesktopTest.pressOk(client, entryApp);
            assertEquals(entryText, FocusedTypingDesktopTest.printed(entryApp), "what the entry dialog printed");
            activate(notesWindow);
            final long ok = buttonOk(notesWindow, notes.pid());
            FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, new byte[0],
                a -> a.kind(ActionKind.CLICK).targetId(ok).buttonBits(Button.LEFT), 0), "text-info OK");
            assertTrue(notes.waitFor(20, TimeUnit.SECONDS) && notes.exitValue() == 0, "text-info exited 0");
            final String printed = Files.readString(notesOut, StandardCharsets.UTF_8);
            assertEquals(viewText, printed.endsWith("\n") ? printed.substring(0, printed.length() - 1) : printed,
                "what the text-info dialog printed");
        } finally {
            notes.destroy();
            notes.waitFor(5, TimeUnit.SECONDS);
            desktop.closeApp(entryApp);
            Files.deleteIfExists(notesIn);
            Files.deleteIfExists(notesOut);
        }
    }

    /**
     * Focus click, ctrl+a (to the widget just clicked), then TEXT: the widget holds exactly
     * {@code text}. A click refused TARGET_NOT_FOUND (nothing clicked: the scene had not yet seen
     * a window moved) is sent again; a ctrl+a or TEXT refused FOCUS_CHANGED (the focus click
     * missed: nothing was sent, D21) is printed ("REFUSED") and the three are sent again, twice
     * at most, as an agent would. The contents are asserted exactly all the same.
     */
    private void replace(final long target, final String text, final String what) throws Exception {
        for (int attempt = 1; ; attempt++) {
            final ActionCompletionFlyweight click = Await.probe(() -> InputHelperDesktopTest.send(client, new byte[0],
                    a -> a.kind(ActionKind.CLICK).targetId(target).buttonBits(Button.LEFT), 0),
                c -> c.result() != ResultCode.TARGET_NOT_FOUND, Duration.ofSeconds(30),
                c -> what + ": target " + target + " in the scene; last " + ResultCode.name(c.result()));
            FocusedTypingDesktopTest.ok(click, what + ": focus click");
            final ActionCompletionFlyweight all = InputHelperDesktopTest.send(client, new byte[0],
                a -> a.kind(ActionKind.KEY_CHORD).keyUsage(0x04).modifiers(Modifier.CONTROL), 0);
            if (all.result() == ResultCode.FOCUS_CHANGED && attempt < 3) {
                System.out.println("REFUSED " + what + ": ctrl+a FOCUS_CHANGED, nothing sent; clicked again");
                continue;
            }
            FocusedTypingDesktopTest.ok(all, what + ": ctrl+a");
            final ActionCompletionFlyweight typed = InputHelperDesktopTest.send(client, text.getBytes(StandardCharsets.UTF_8),
                a -> a.kind(ActionKind.TEXT).targetId(target).buttonBits(Button.LEFT), 0);
            if (typed.result() == ResultCode.FOCUS_CHANGED && attempt < 3) {
                System.out.println("REFUSED " + what + ": TEXT FOCUS_CHANGED, nothing typed; clicked again");
                continue;
            }
            FocusedTypingDesktopTest.ok(typed, what + ": TEXT");
            return;
        }
    }

    /**
     * The text view (its scroll pane has no CLICK capability, so its focus click is TEXT's own):
     * a TEXT of one character with its focus click, ctrl+a, then the TEXT: the view holds exactly
     * {@code text}. FOCUS_CHANGED refusals as in {@link #replace}.
     */
    private void replaceView(final long view, final String text, final String what) throws Exception {
        for (int attempt = 1; ; attempt++) {
            final ActionCompletionFlyweight first = InputHelperDesktopTest.send(client,
                "+".getBytes(StandardCharsets.UTF_8), a -> a.kind(ActionKind.TEXT).targetId(view).buttonBits(Button.LEFT), 0);
            if (first.result() == ResultCode.FOCUS_CHANGED && attempt < 3) {
                System.out.println("REFUSED " + what + ": first TEXT FOCUS_CHANGED, nothing typed; sent again");
                continue;
            }
            FocusedTypingDesktopTest.ok(first, what + ": TEXT with its focus click");
            FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, new byte[0],
                a -> a.kind(ActionKind.KEY_CHORD).keyUsage(0x04).modifiers(Modifier.CONTROL), 0), what + ": ctrl+a");
            FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, text.getBytes(StandardCharsets.UTF_8),
                a -> a.kind(ActionKind.TEXT).targetId(view).buttonBits(Button.LEFT), 0), what + ": TEXT");
            return;
        }
    }

    /**
     * The object's text once it is {@code expected}, within 10 s: the completion comes once the X
     * server has the keys, the application takes them after.
     */
    private String awaitAppText(final long targetId, final String expected) throws Exception {
        return Await.probe(() -> appText(targetId), expected::equals, Duration.ofSeconds(10),
            text -> "target " + targetId + "'s text to be '" + expected + "'; last '" + text + "'");
    }

    /** The object's text as its application answers AT-SPI's Text.GetText now. */
    private String appText(final long targetId) throws Exception {
        final AtspiSource source = owner.service.accessibility();
        final AccessibilitySnapshot latest = source.latest();
        AccessibilityNode node = null;
        for (final AccessibilityNode n : latest.nodes()) {
            if (n.targetId() == targetId) {
                node = n;
            }
        }
        assertNotNull(node, "target " + targetId + " in the latest accessibility tree");
        return source.readText(node, System.nanoTime() + TimeUnit.SECONDS.toNanos(5)).get(10, TimeUnit.SECONDS);
    }

    /** Waits until the source's tree has the object left (or right) of {@code x}: the window move is seen. */
    private void awaitLeftOf(final long targetId, final int x, final boolean left) {
        Await.until(() -> {
            for (final AccessibilityNode n : owner.service.accessibility().latest().nodes()) {
                if (n.targetId() == targetId && (n.x() + n.width() <= x) == left && (n.x() >= x) != left) {
                    return true;
                }
            }
            return false;
        }, Duration.ofSeconds(30), () -> "target " + targetId + " to move " + (left ? "left" : "right") + " of " + x);
    }

    /** WINDOW_ACTIVATE, again while the window is not in the scene yet (TARGET_NOT_FOUND: a window just mapped). */
    private void activate(final long window) throws Exception {
        final ActionCompletionFlyweight c = Await.probe(() -> InputHelperDesktopTest.send(client, new byte[0],
                a -> a.kind(ActionKind.WINDOW_ACTIVATE).targetId(TargetIds.window(window)), 0),
            done -> done.result() != ResultCode.TARGET_NOT_FOUND, Duration.ofSeconds(30),
            done -> "window " + window + " in the scene; last " + ResultCode.name(done.result()));
        FocusedTypingDesktopTest.ok(c, "activate");
    }

    /**
     * The text view: published as the scroll pane that absorbed it, with the TEXT capability
     * (AccessibilityNode.leafPath), a role this client (no extended roles at Hello) sees as UNKNOWN;
     * found in the source's tree, then awaited in the scene.
     */
    private long field(final long window, final long pid) throws Exception {
        return Await.value(() -> {
            for (final AccessibilityNode n : owner.service.accessibility().latest().nodes()) {
                if (n.pid() == pid && n.role() == Role.SCROLL_PANE && (n.capabilities() & TargetCapability.TEXT) != 0) {
                    return n.targetId();
                }
            }
            return null;
        }, id -> id != null, Duration.ofSeconds(60), id -> "the text view to appear in " + window);
    }

    private long buttonOk(final long window, final long pid) throws Exception {
        return only(window, pid, Role.BUTTON, "OK");
    }

    /** The one actionable target of {@code role} (and text) in {@code window}, once the window is the active one. */
    private long only(final long window, final long pid, final int role, final String text) throws Exception {
        // {target id, how many matched, the active window, 1 when it is the one target of the active window}
        final long[] seen = Await.probe(() -> {
            final CompletionFlyweight c = ActionEffectsDesktopTest.query(client, role, text, TextMatch.EXACT);
            long found = 0;
            int count = 0;
            for (int i = 0; i < c.targetCount(); i++) {
                final TargetFlyweight t = new TargetFlyweight().wrap(c.bytes(), c.offset() + c.targetsOffset()
                    + (long) i * c.targetStride());
                if (t.windowId() == window && (t.flags() & TargetFlag.ACTIONABLE) != 0) {
                    found = t.targetId();
                    count++;
                }
            }
            final boolean alone = count == 1 && c.generation().processId() == pid && c.generation().windowId() == window;
            return new long[] {found, count, c.generation().windowId(), alone ? 1 : 0};
        }, r -> r[3] == 1, Duration.ofSeconds(60), r -> Role.name(role) + " alone in " + window + " (" + r[1]
            + "); active window " + r[2] + "; the app's accessible objects:" + accessibleObjects(pid));
        return seen[0];
    }

    /** The accessible objects of process {@code pid} in the source's latest tree, one a line, for a failure message. */
    private String accessibleObjects(final long pid) {
        final StringBuilder seen = new StringBuilder();
        for (final AccessibilityNode n : owner.service.accessibility().latest().nodes()) {
            if (n.pid() == pid) {
                seen.append("\n  ").append(Role.name(n.role())).append(" flags=0x").append(Integer.toHexString(n.flags()))
                    .append(" caps=0x").append(Integer.toHexString(n.capabilities())).append(" name=").append(n.name());
            }
        }
        return seen.toString();
    }

}
