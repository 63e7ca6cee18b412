package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * DRAG_DROP through the whole pipeline reaches a real X client as a drag: {@code xev} (a plain
 * Xlib window that prints every pointer event it gets) sees the left button go down at the
 * source cell's safe point, the pointer move with the button held, and the button come up at
 * the drop cell's safe point.
 */
@WithTestDesktop
class DragEffectDesktopTest {
    private static final Pattern EVENT = Pattern.compile(
        "^(ButtonPress|ButtonRelease|MotionNotify) event.*");
    private static final Pattern ROOT = Pattern.compile("root:\\((-?\\d+),(-?\\d+)\\)");
    private static final Pattern STATE = Pattern.compile("^\\s+state 0x([0-9a-f]+)");
    private static final int BUTTON1_MASK = 0x100;

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void aDragArrivesAsPressMoveWithTheButtonHeldAndRelease(final TestDesktop desktop) throws Exception {
        final Process xev = desktop.configure(new ProcessBuilder("stdbuf", "-oL", "xev", "-geometry", "800x500+200+150",
            "-event", "button", "-event", "mouse")).redirectErrorStream(true).start();
        final List<String> events = Collections.synchronizedList(new ArrayList<>());
        final Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(xev.getInputStream(), StandardCharsets.UTF_8))) {
                // an event is three lines: its kind; ..., root:(x,y); state 0x..., ...
                String line;
                String kind = null;
                String root = null;
                while ((line = in.readLine()) != null) {
                    final Matcher e = EVENT.matcher(line);
                    final Matcher r = ROOT.matcher(line);
                    final Matcher st = STATE.matcher(line);
                    if (e.matches()) {
                        kind = e.group(1);
                        root = null;
                    } else if (kind != null && root == null && r.find()) {
                        root = r.group(1) + " " + r.group(2);
                    } else if (kind != null && root != null && st.find()) {
                        events.add(kind + " " + root + " " + st.group(1));
                        kind = null;
                    }
                }
            } catch (final java.io.IOException e) {
                // xev ended
            }
        }, "xev-reader");
        reader.setDaemon(true);
        reader.start();
        try (DesktopOwner owner = DesktopOwner.withoutAccessibility(desktop, "saccade-drag")) {
            final int[] window = geometry(desktop, "Event Tester");
            try (AgentClient client = owner.connect()) {
                // two cells well inside xev's window, on one row, a few cells apart
                final int y = window[1] + window[3] / 2;
                final int fromX = window[0] + window[2] / 5;
                final int toX = window[0] + window[2] * 4 / 5;
                final long from = ScrollEffectDesktopTest.cellAt(client, fromX * RectQ8.ONE, y * RectQ8.ONE);
                final long to = ScrollEffectDesktopTest.cellAt(client, toX * RectQ8.ONE, y * RectQ8.ONE);
                events.clear();
                final ActionCompletionFlyweight drag = InputHelperDesktopTest.send(client, new byte[0],
                    a -> a.kind(ActionKind.DRAG_DROP).targetId(from).secondaryTargetId(to).buttonBits(Button.LEFT), 0);
                assertEquals(ResultCode.OK, drag.result(), ResultCode.name(drag.result()));
                assertEquals(0, drag.physicalState().buttons(), "nothing stays held after the drop");

                // xev prints as the X server delivers
                Await.until(() -> events.stream().anyMatch(e -> e.startsWith("ButtonRelease")), Duration.ofSeconds(10),
                    Duration.ofMillis(5), () -> "xev to see a release; seen " + events);
                final List<String> seen = new ArrayList<>(events);
                int press = -1;
                int release = -1;
                for (int i = 0; i < seen.size(); i++) {
                    if (press < 0 && seen.get(i).startsWith("ButtonPress")) {
                        press = i;
                    } else if (press >= 0 && seen.get(i).startsWith("ButtonRelease")) {
                        release = i;
                        break;
                    }
                }
                assertTrue(press >= 0 && release > press, "press then release: " + seen);
                final int[] down = point(seen.get(press));
                final int[] up = point(seen.get(release));
                assertTrue(Math.abs(down[0] - fromX) <= window[2] / 5 && Math.abs(down[1] - y) <= 80,
                    "pressed in the source cell: " + seen.get(press));
                assertTrue(Math.abs(up[0] - toX) <= window[2] / 5 && Math.abs(up[1] - y) <= 80,
                    "released in the drop cell: " + seen.get(release));
                assertTrue(up[0] - down[0] > window[2] / 3, "moved from source to drop: " + seen);
                boolean heldMove = false;
                for (int i = press + 1; i < release; i++) {
                    heldMove |= seen.get(i).startsWith("MotionNotify") && (point(seen.get(i))[2] & BUTTON1_MASK) != 0;
                }
                assertTrue(heldMove, "a motion with the left button held between press and release: " + seen);
            }
        } finally {
            xev.destroyForcibly();
        }
    }

    /** x, y, state of a recorded event. */
    private static int[] point(final String event) {
        final String[] f = event.split(" ");
        return new int[] {Integer.parseInt(f[1]), Integer.parseInt(f[2]), Integer.parseInt(f[3], 16)};
    }

    /** The absolute x, y, width, height of the window named {@code name}, once it is mapped. */
    private static int[] geometry(final TestDesktop desktop, final String name) throws Exception {
        // xwininfo's output, prefixed with its exit code when it failed; polled until the window manager has mapped the window
        final String out = Await.probe(() -> {
            final Process info = desktop.configure(new ProcessBuilder("xwininfo", "-name", name))
                .redirectErrorStream(true).start();
            final String text = new String(info.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            info.waitFor(10, TimeUnit.SECONDS);
            return info.exitValue() == 0 ? text : "exit " + info.exitValue() + ": " + text;
        }, text -> !text.startsWith("exit ") && text.contains("IsViewable"), Duration.ofSeconds(20), Duration.ofMillis(50),
            text -> "a viewable window " + name + ": " + text);
        return new int[] {field(out, "Absolute upper-left X"), field(out, "Absolute upper-left Y"),
            field(out, "Width"), field(out, "Height")};
    }

    private static int field(final String xwininfo, final String name) {
        final Matcher m = Pattern.compile(Pattern.quote(name) + ":\\s+(-?\\d+)").matcher(xwininfo);
        assertTrue(m.find(), name + " in " + xwininfo);
        return Integer.parseInt(m.group(1));
    }
}
