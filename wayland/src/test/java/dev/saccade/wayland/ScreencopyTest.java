package dev.saccade.wayland;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.SwayApp;
import dev.saccade.demodesktop.SwayDesktop;
import dev.saccade.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Screencopy of a window's region on a real headless sway, checked pixel for pixel against
 * grim (an independent screencopy client) capturing the same region.
 */
@Tag("desktop")
@Timeout(60)
class ScreencopyTest {
    @Test
    void capturesTheSamePixelsAsGrim(@TempDir final Path dir) throws Exception {
        try (SwayDesktop desktop = SwayDesktop.start(800, 600, false)) {
            final SwayApp zenity = desktop.launch("zenity", false, "zenity", "--entry", "--title=Pixels",
                "--text=Screencopy");
            desktop.swaymsg("[pid=" + zenity.pid() + "] floating enable, move position 100 80");
            final int[] w = desktop.windowContent(zenity.pid());
            // GTK animates the entry's focus border for a moment after the dialog maps: compare
            // grim with our captures only once ours are equal before and after grim's.
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            int rounds = 0;
            byte[] before;
            byte[] theirs;
            byte[] after;
            try (WaylandConnection connection = WaylandConnection.connect(desktop.waylandSocket().toString())) {
                final Outputs outputs = Outputs.read(connection);
                final Screencopy copy = Screencopy.open(connection);
                do {
                    rounds++;
                    before = capture(copy, outputs, w);
                    theirs = grim(desktop, dir, w);
                    after = capture(copy, outputs, w);
                } while (!Arrays.equals(before, after) && Await.before(deadline));
                assertEquals(2 * rounds, copy.captures());
                copy.close();
            }
            assertArrayEquals(before, after, "the dialog kept changing for 20 s");
            final Set<Integer> colours = new HashSet<>();
            for (int i = 0; i < after.length; i += 3) {
                colours.add((after[i] & 0xff) << 16 | (after[i + 1] & 0xff) << 8 | after[i + 2] & 0xff);
            }
            assertTrue(colours.size() > 10, "a dialog, not a blank: " + colours.size() + " colours");
            assertArrayEquals(theirs, after);
        }
    }

    private static byte[] capture(final Screencopy copy, final Outputs outputs, final int[] w) throws Exception {
        final byte[] rgb = new byte[w[2] * w[3] * 3];
        final int[] size = copy.capture(outputs.proxy(0), w[0], w[1], w[2], w[3], rgb, 5_000);
        assertEquals(List.of(w[2], w[3]), List.of(size[0], size[1]));
        return rgb;
    }

    private static byte[] grim(final SwayDesktop desktop, final Path dir, final int[] w) throws Exception {
        final Path ppm = dir.resolve("grim.ppm");
        final ProcessBuilder grim = new ProcessBuilder("grim", "-t", "ppm", "-g",
            w[0] + "," + w[1] + " " + w[2] + "x" + w[3], ppm.toString());
        grim.environment().putAll(desktop.environment());
        final Process p = grim.redirectErrorStream(true).start();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        final byte[] file = Files.readAllBytes(ppm);
        // P6\n<w> <h>\n255\n then the RGB bytes
        int at = 0;
        for (int lines = 0; lines < 3; at++) {
            if (file[at] == '\n') {
                lines++;
            }
        }
        return Arrays.copyOfRange(file, at, file.length);
    }
}
