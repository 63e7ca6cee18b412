package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.protocol.ActionFlag;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.Modifier;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TextMatch;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A GTK 4 popover menu driven by its targets (D64): gnome-calculator's mode button opens a
 * popover, a window of its own that GTK places itself, and its Advanced item is clicked where the
 * scene puts it, near its right end. The proof is the application's: the Advanced keypad's log key computes
 * log 1000 = 3, which the calculator copies to the clipboard on Ctrl+C (read with xclip). Were
 * the item placed by the main window's position, the click would miss it, the mode would stay
 * Basic, and there would be no log key.
 *
 * <p>gnome-text-editor's main menu is such a popover too, taller than the window it drops from:
 * its Save As item opens the GTK 4 file chooser, whose name field takes the file's path by FILL
 * (D48; GTK 4.8's entries read back through their character count, D65), and the file on disk
 * holds what was typed into the document.
 */
@WithTestDesktop(apps = {})
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class Gtk4PopoverDesktopTest extends OwnedDesktopTest {
    /** HID usage of the C key. */
    private static final int USAGE_C = 0x06;
    /** HID usage of Enter. */
    private static final int USAGE_ENTER = 0x28;

    @Test
    void anItemOfAPopoverMenuIsClickedByItsTarget() throws Exception {
        final AppHandle calculator = desktop.startApp(DemoApp.GNOME_CALCULATOR);
        try {
            click(target(calculator, Role.BUTTON, "Basic"), "the mode menu button");
            // near the item's right end, a point an agent may pick as well as its centre: placed by the
            // main window, the item lay 99 px right of the popover's, and this point beyond the popover
            final TargetFlyweight advanced = found(calculator.windowId(), Role.RADIO, "Advanced");
            final int x = (advanced.boundsXQ8() + advanced.boundsWidthQ8()) - (8 << 8);
            final int y = advanced.boundsYQ8() + advanced.boundsHeightQ8() / 2;
            final long item = advanced.targetId();
            FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, new byte[0], a -> a.kind(ActionKind.CLICK)
                .flags(ActionFlag.EXPLICIT_POINTS).targetId(item).point(x, y).buttonBits(Button.LEFT), 0),
                "click Advanced in the popover menu");
            final AccessibilityNode display = Gtk4CalculatorDesktopTest.display(owner, calculator.pid());
            final String[] keys = {"log", "1", "0", "0", "0", "="};
            final String[] after = {"log", "log1", "log10", "log100", "log1000", "3"};
            for (int k = 0; k < keys.length; k++) {
                final String key = keys[k];
                click(target(calculator, Role.BUTTON, key), "the key " + key);
                // each key's effect before the next, as an agent checks its step (and the layout has settled)
                final String expected = after[k];
                Await.probe(() -> owner.service.accessibility()
                        .readText(display, System.nanoTime() + TimeUnit.SECONDS.toNanos(5)).get(10, TimeUnit.SECONDS)
                        .replace(" ", ""), expected::equals, Duration.ofSeconds(20),
                    text -> "the display to show " + expected + " after " + key + "; last '" + text + "'");
            }
            FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, new byte[0],
                a -> a.kind(ActionKind.KEY_CHORD).keyUsage(USAGE_C).modifiers(Modifier.CONTROL), 0), "ctrl+c");
            final String copied = Await.probe(this::clipboard, "3"::equals, Duration.ofSeconds(20),
                text -> "the calculator to copy log 1000 = 3; the clipboard holds '" + text + "'");
            assertEquals("3", copied, "what gnome-calculator copied, read with xclip");
        } finally {
            desktop.closeApp(calculator);
        }
    }

    @Test
    void theTextEditorSavesThroughItsMenuAndAFilledFileChooser(@TempDir final Path dir) throws Exception {
        final Path file = dir.resolve("through-the-menu.txt");
        final Process editor = desktop.configure(new ProcessBuilder("gnome-text-editor", "--standalone",
            "--ignore-session")).redirectErrorStream(true).redirectOutput(desktop.logDir().resolve("text-editor.log")
            .toFile()).start();
        try {
            final long window = window("New Document");
            final byte[] line = "saved through a popover menu".getBytes(StandardCharsets.UTF_8);
            final long view = target(window, Role.TEXT_FIELD, "");
            FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, line, a -> a.kind(ActionKind.TEXT)
                .targetId(view).buttonBits(Button.LEFT), 0), "text into the document");
            click(target(window, Role.BUTTON, "Menu"), "the main menu button");
            click(target(window, Role.MENU_ITEM, "Save As"), "Save As in the popover menu");
            final byte[] path = file.toString().getBytes(StandardCharsets.UTF_8);
            final long name = target(window("Save As"), Role.TEXT_FIELD, "");
            FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, path, a -> a.kind(ActionKind.TEXT)
                .flags(ActionFlag.FILL).targetId(name).buttonBits(Button.LEFT), 0),
                "fill the file chooser's name field");
            FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, new byte[0],
                a -> a.kind(ActionKind.KEY).keyUsage(USAGE_ENTER), 0), "Enter");
            final String saved = Await.probe(() -> Files.exists(file) ? Files.readString(file).trim() : "",
                "saved through a popover menu"::equals, Duration.ofSeconds(30),
                text -> "the editor to save " + file + "; it holds '" + text + "'");
            assertEquals("saved through a popover menu", saved, "the file gnome-text-editor saved");
        } finally {
            editor.destroy();
            if (!editor.waitFor(10, TimeUnit.SECONDS)) {
                editor.destroyForcibly();
            }
        }
    }

    /** The top-level window whose title starts with {@code title}: its id, once it is in the scene. */
    private long window(final String title) throws Exception {
        return Await.probe(() -> {
            final CompletionFlyweight c = ActionEffectsDesktopTest.query(client, Role.WINDOW, title, TextMatch.PREFIX);
            for (int i = 0; i < c.targetCount(); i++) {
                final TargetFlyweight t = new TargetFlyweight().wrap(c.bytes(), c.offset() + c.targetsOffset()
                    + (long) i * c.targetStride());
                if (t.parentId() == 0 && t.windowId() != 0) {
                    return t.windowId();
                }
            }
            return 0L;
        }, id -> id != 0, Duration.ofSeconds(60), id -> "a window '" + title + "'");
    }

    private void click(final long target, final String what) throws Exception {
        FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, new byte[0],
            a -> a.kind(ActionKind.CLICK).targetId(target).buttonBits(Button.LEFT), 0), "click " + what);
    }

    /** The actionable target of {@code role} in the app's window whose text starts with {@code text}. */
    private long target(final AppHandle app, final int role, final String text) throws Exception {
        return target(app.windowId(), role, text);
    }

    /** The actionable target of {@code role} in {@code window} whose text starts with {@code text}. */
    private long target(final long window, final int role, final String text) throws Exception {
        return found(window, role, text).targetId();
    }

    /** {@link #target(long, int, String)}'s record, with its bounds. */
    private TargetFlyweight found(final long window, final int role, final String text) throws Exception {
        return Await.probe(() -> {
            final CompletionFlyweight c = ActionEffectsDesktopTest.query(client, role, text.isEmpty() ? null : text,
                TextMatch.PREFIX);
            for (int i = 0; i < c.targetCount(); i++) {
                final TargetFlyweight t = new TargetFlyweight().wrap(c.bytes(), c.offset() + c.targetsOffset()
                    + (long) i * c.targetStride());
                if (t.windowId() == window && (t.flags() & TargetFlag.ACTIONABLE) != 0) {
                    return t;
                }
            }
            return null;
        }, Objects::nonNull, Duration.ofSeconds(60), none -> "an actionable " + Role.name(role) + " '" + text + "'");
    }

    /** The clipboard's text as its owner (the calculator) serves it, or "" while there is none. */
    private String clipboard() throws IOException, InterruptedException {
        final Process xclip = desktop.configure(new ProcessBuilder("xclip", "-o", "-selection", "clipboard"))
            .redirectErrorStream(true).start();
        try {
            if (!xclip.waitFor(10, TimeUnit.SECONDS) || xclip.exitValue() != 0) {
                return "";
            }
            return new String(xclip.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        } finally {
            xclip.destroyForcibly();
        }
    }
}
