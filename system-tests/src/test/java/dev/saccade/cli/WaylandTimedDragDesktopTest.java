package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.SwayApp;
import dev.saccade.demodesktop.SwayDesktop;
import dev.saccade.protocol.ActionCompletionFlyweight;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testsupport.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A 2 s timed drag on a headless sway (agent-abi §5.15), paced as on X11: wev, a Wayland client
 * that prints every wl_pointer event with the time the compositor delivered it with, fills the
 * screen, and its motion events between the press and the release say how many steps the drag
 * took and over how long.
 */
@Tag("desktop")
@Timeout(120)
class WaylandTimedDragDesktopTest {
    private static final Pattern MOTION = Pattern.compile("wl_pointer\\] motion: time: (\\d+);");
    private static final Pattern BUTTON = Pattern.compile("wl_pointer\\] button: serial: \\d+; time: (\\d+); button: 272 "
        + "\\(left\\), state: (\\d)");

    @Test
    void aTwoSecondDragReachesAWaylandClientInPacedSteps() throws Exception {
        try (SwayDesktop sway = SwayDesktop.start(1024, 768, false)) {
            // line-buffered, so each event is in the file as soon as wev printed it
            final SwayApp wev = sway.launch("wev", false, "stdbuf", "-oL", "wev");
            try (DesktopOwner owner = DesktopOwner.onDisplay("wayland:" + sway.waylandSocket(), sway.busAddress(),
                "saccade-wayland-timed"); AgentClient client = owner.connectMinor2()) {
                final long from = HeldInputReleaseDesktopTest.gridCell(client, 60);
                final long to = HeldInputReleaseDesktopTest.gridCell(client, 68);
                final ActionCompletionFlyweight drag = TimedActionsDesktopTest.timed(client, a -> a.kind(ActionKind.DRAG_DROP)
                    .targetId(from).secondaryTargetId(to).buttonBits(Button.LEFT).durationNs(TimeUnit.SECONDS.toNanos(2)),
                    TimeUnit.SECONDS.toNanos(10));
                assertEquals(ResultCode.OK, drag.result(), ResultCode.name(drag.result()));
                final List<Long> glide = Await.probe(() -> glide(wev.stdout()), g -> g != null, Duration.ofSeconds(5),
                    g -> "wev printed the drag's press and release: " + wev);
                final long spanMs = glide.get(glide.size() - 1) - glide.get(0);
                System.out.printf("timed drag 2 s on sway: %d wl_pointer motion steps over %d ms by their event times%n",
                    glide.size(), spanMs);
                assertTrue(glide.size() >= 10, "at least 10 steps: " + glide.size());
                assertTrue(spanMs >= 1_800 && spanMs <= 2_400, "the steps span 1.8-2.4 s by the event times: " + spanMs);
            }
        }
    }

    /** The times of the glide's motion events wev printed; null while the release is not there yet. */
    private static List<Long> glide(final String printed) {
        final List<Long> held = new ArrayList<>();
        boolean pressed = false;
        for (final String line : printed.split("\n")) {
            final Matcher button = BUTTON.matcher(line);
            if (button.find()) {
                if (button.group(2).equals("1")) {
                    pressed = true;
                    continue;
                }
                return pressed ? TimedActionsDesktopTest.withoutDragEnds(held) : null;
            }
            final Matcher motion = MOTION.matcher(line);
            if (pressed && motion.find()) {
                held.add(Long.parseLong(motion.group(1)));
            }
        }
        return null;
    }
}
