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
 * {@code saccade up --kde} from the packaged distribution: a headless KWin with GTK and Qt demo
 * apps under the supervisor; the Qt calculator computes 7 + 5 from clicks over the CLI (its
 * display, read from the app, shows 12), text typed into the native zenity entry is what zenity
 * prints, and SIGTERM leaves no process and no directory.
 */
@Tag("desktop")
class UpKdeIT {
    private static final Path LAUNCHER = Path.of(System.getProperty("saccade.dist.dir")).resolve("bin/saccade");
    private static final Pattern TARGET = Pattern.compile("\"target_id\" : \"(\\d+)\"");

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void upKdeServesAHeadlessKwinDesktopClicksAndTypesAndStopsEverything() throws Exception {
        final Path runtime = Files.createDirectory(dir.resolve("run"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try (UpProcess up = UpProcess.start(LAUNCHER, runtime, "--kde")) {
            final List<String> lines = up.awaitUp(90);
            final Path logs = UpProcess.logDirectory(lines);
            assertNotNull(logs, "the session's log directory in " + lines);
            final UpProcess.Ran windows = up.cli("query", "--role", "window", "--json");
            assertEquals(0, windows.code(), windows.out());
            assertTrue(windows.out().contains("\"text\" : \"Calculator\""), windows.out());
            assertTrue(windows.out().contains("\"text\" : \"Saccade entry\""), windows.out());

            for (final String key : new String[] {"7", "+", "5", "="}) {
                final UpProcess.Ran click = up.cli("act", "click", "--target", target(up, "button", key));
                assertEquals(0, click.code(), key + ": " + click.out());
            }
            Await.probe(() -> up.cli("query", "--role", "text", "--text", "12", "--match", "exact", "--json").out(),
                out -> TARGET.matcher(out).find(), Duration.ofSeconds(20), Duration.ofMillis(100),
                out -> "the calculator's display to show 12; last: " + out);

            final UpProcess.Ran typed = up.cli("act", "text", "--target", target(up, "text-field", null), "--text",
                "typed on KWin");
            assertEquals(0, typed.code(), typed.out());
            assertEquals(0, up.cli("act", "key", "--key", "enter").code());
            final Path zenityOut = UpProcess.logFile(logs, "zenity-entry-*.out");
            Await.until(() -> UpProcess.read(zenityOut).equals("typed on KWin\n"), Duration.ofSeconds(20), Duration.ofMillis(100),
                () -> "zenity to print the typed text; it printed \"" + UpProcess.read(zenityOut) + "\"");

            up.stopAndCheckNothingLeft();
            assertFalse(Files.exists(logs), "the session directory is gone");
        }
    }

    /** The one target of {@code role} (with exactly {@code text}, unless null) once the scene has it laid out. */
    private static String target(final UpProcess up, final String role, final String text) throws Exception {
        return Await.probe(() -> {
            final UpProcess.Ran r = text == null ? up.cli("query", "--role", role, "--json")
                : up.cli("query", "--role", role, "--text", text, "--match", "exact", "--json");
            final Matcher m = TARGET.matcher(r.out());
            // Laid out: GTK's first extents are 0x0 (the scope's rect, before the targets, is 0 too).
            return m.find() && !r.out().substring(m.end()).contains("\"width\" : 0,") ? m.group(1) : null;
        }, id -> id != null, Duration.ofSeconds(30), Duration.ofMillis(100), id -> "a " + role + " " + text);
    }
}
