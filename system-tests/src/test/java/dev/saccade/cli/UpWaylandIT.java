package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.testsupport.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/saccade up --wayland} end to end through the built distribution: a
 * headless sway demo desktop as its own user, the supervised owner and input helper on it;
 * a second {@code saccade} process reads the windows (native and XWayland), types into the
 * native zenity entry and presses Enter through the helper's virtual keyboard, and zenity prints
 * the text; SIGTERM stops everything, the session included.
 */
@Tag("desktop")
class UpWaylandIT {
    private static final Path LAUNCHER = Path.of(System.getProperty("saccade.dist.dir")).resolve("bin/saccade");
    private static final Pattern TARGET = Pattern.compile("\"target_id\" : \"(\\d+)\"");
    private static final Pattern WINDOW = Pattern.compile("\"window_id\" : \"(\\d+)\"");
    private static final Pattern WIDTH = Pattern.compile("\"width\" : (\\d+)");
    private static final Pattern TEXT = Pattern.compile("\"text\" : \"([^\"]*)\"");

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void upWaylandServesAHeadlessSwayDesktopTypesIntoANativeEntryAndStopsEverything() throws Exception {
        final Path runtime = Files.createDirectory(dir.resolve("run"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try (UpProcess up = UpProcess.start(LAUNCHER, runtime, "--wayland")) {
            final List<String> lines = up.awaitUp(90);
            final Path logs = UpProcess.logDirectory(lines);
            assertNotNull(logs, "the session's log directory in " + lines);
            assertTrue(up.process.descendants().anyMatch(p -> p.info().command().orElse("").endsWith("sway")),
                "a sway was started");

            final UpProcess.Ran windows = up.cli("query", "--role", "window", "--json");
            assertEquals(0, windows.code(), windows.out());
            assertTrue(windows.out().contains("\"text\" : \"Saccade entry\""), windows.out());
            assertTrue(windows.out().contains("\"text\" : \"Application Class\""), windows.out());
            String nativeWindow = null;
            for (final String[] r : records(windows.out())) {
                if (r[2].equals("Saccade entry")) {
                    nativeWindow = r[1];
                }
            }
            assertNotNull(nativeWindow, windows.out());

            final String window = nativeWindow;
            final String[] field = new String[1];
            Await.probe(() -> {
                final UpProcess.Ran fields = up.cli("query", "--role", "text-field", "--json");
                for (final String[] r : records(fields.out())) {
                    if (r[1].equals(window) && !r[3].equals("0")) { // laid out: GTK's first extents are 0
                        field[0] = r[0];
                    }
                }
                return fields.out();
            }, out -> field[0] != null, Duration.ofSeconds(30), Duration.ofMillis(100),
                out -> "the native entry's text field target, laid out; last: " + out);

            final UpProcess.Ran typed = up.cli("act", "text", "--target", field[0], "--text", "typed on Wayland");
            assertEquals(0, typed.code(), typed.out());
            final UpProcess.Ran enter = up.cli("act", "key", "--key", "enter");
            assertEquals(0, enter.code(), enter.out());
            final Path zenityOut = UpProcess.logFile(logs, "zenity_entry-*.out");
            Await.until(() -> UpProcess.read(zenityOut).equals("typed on Wayland\n"), Duration.ofSeconds(20), Duration.ofMillis(100),
                () -> "zenity to print the typed text; it printed \"" + UpProcess.read(zenityOut) + "\"");

            up.stopAndCheckNothingLeft();
            assertFalse(Files.exists(logs), "the session directory is gone");
        }
    }

    /** {target_id, window_id, text ("" when absent), bounds width} of each record of a --json query. */
    private static List<String[]> records(final String json) {
        final List<String[]> out = new java.util.ArrayList<>();
        final Matcher target = TARGET.matcher(json);
        final List<Integer> starts = new java.util.ArrayList<>();
        while (target.find()) {
            starts.add(target.start());
        }
        for (int i = 0; i < starts.size(); i++) {
            final String chunk = json.substring(starts.get(i), i + 1 < starts.size() ? starts.get(i + 1) : json.length());
            final Matcher t = TARGET.matcher(chunk);
            final Matcher w = WINDOW.matcher(chunk);
            final Matcher x = TEXT.matcher(chunk);
            final Matcher width = WIDTH.matcher(chunk);
            t.find();
            out.add(new String[] {t.group(1), w.find() ? w.group(1) : "", x.find() ? x.group(1) : "",
                width.find() ? width.group(1) : "0"});
        }
        return out;
    }


    /**
     * Plain {@code saccade up} inside a running sway session (WAYLAND_DISPLAY, SWAYSOCK and
     * XDG_SESSION_TYPE=wayland, no DISPLAY) serves that session rather than starting a demo.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void upInsideASwaySessionServesIt() throws Exception {
        final Path runtime = Files.createDirectory(dir.resolve("run"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try (dev.saccade.demodesktop.SwayDesktop sway = dev.saccade.demodesktop.SwayDesktop.start(1024, 768, false)) {
            sway.launch("zenity", false, "zenity", "--entry", "--title=Session entry");
            final java.util.Map<String, String> session = new java.util.HashMap<>(sway.environment());
            session.remove("XDG_RUNTIME_DIR"); // up keeps its own runtime directory; the socket path is absolute
            try (UpProcess up = UpProcess.start(LAUNCHER, runtime, session)) {
                final List<String> lines = up.awaitUp(90);
                assertTrue(lines.stream().anyMatch(l -> l.contains("display=wayland:" + sway.waylandSocket())), lines.toString());
                assertFalse(up.process.descendants().anyMatch(p -> p.info().command().orElse("").endsWith("sway")),
                    "no second sway");
                final UpProcess.Ran windows = up.cli("query", "--role", "window", "--json");
                assertEquals(0, windows.code(), windows.out());
                assertTrue(windows.out().contains("\"text\" : \"Session entry\""), windows.out());
                up.stopAndCheckNothingLeft();
            }
        }
    }
}
