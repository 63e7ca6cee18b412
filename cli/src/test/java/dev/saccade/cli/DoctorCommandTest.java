package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code saccade doctor} on a real desktop: what it finds, and the fix it gives for each problem. */
@WithTestDesktop(apps = DemoApp.GTK3_DEMO)
class DoctorCommandTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void reportsTheDesktopTheTreesAWindowWithoutATreeAndAMissingService(final TestDesktop desktop) throws Exception {
        // xmessage (Athena widgets, x11-utils) has a window but no AT-SPI support at all, like Tk apps
        final Process noTree = desktop.configure(new ProcessBuilder("xmessage", "-title", "No tree here", "hello"))
            .redirectErrorStream(true).redirectOutput(dir.resolve("xmessage.log").toFile()).start();
        try {
            Await.until(() -> hasWindowTitled(desktop, "No tree here"), Duration.ofSeconds(20),
                "the noTree's window never appeared");
            final CliRun run = CliRun.run("doctor", "--display", desktop.display(),
                "--session-bus", desktop.sessionBusAddress(), "--endpoint", dir.resolve("nothing.sock").toString());
            final String out = run.out;
            assertEquals(ExitCodes.REQUEST_REJECTED, run.exitCode, out);
            assertTrue(out.contains("ok       display " + desktop.display()), out);
            assertTrue(out.contains("ok       window manager: Openbox"), out);
            assertTrue(out.contains("ok       accessibility bus: "), out);
            final AppHandle gtk = desktop.apps().get(0);
            assertTrue(out.matches("(?s).*info     application \\S+ \\(pid " + gtk.pid() + "\\): [1-9]\\d* nodes.*"), out);
            // the OCR engine, and the window pixels serve for want of a tree
            assertTrue(out.matches("(?s).*ok       OCR engine: tesseract 5\\.\\d+\\.\\d+, languages \\S*eng\\S* installed in /\\S+"
                + ", eng configured \\(saccade\\.owner\\.pixel\\.languages\\).*"), out);
            assertTrue(out.contains("ok       pixel capture on " + desktop.display() + ": MIT-SHM and DAMAGE"), out);
            assertTrue(out.contains("info     window \"No tree here\" (no _NET_WM_PID) exposes no accessibility tree: "
                + "PIXEL targets serve it"), out);
            assertTrue(!out.contains("window \"" + desktop.windowTitle(gtk.windowId()) + "\""), "gtk3-demo has a tree: " + out);
            assertTrue(out.contains("PROBLEM  endpoint " + dir.resolve("nothing.sock") + ": no socket, the service is not running"), out);
            assertTrue(out.contains("fix:   start it with `saccade up`"), out);
        } finally {
            noTree.destroy();
            assertTrue(noTree.waitFor(10, TimeUnit.SECONDS));
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aConfiguredLanguageWithoutItsModelIsAProblemWithThePackageToInstall(final TestDesktop desktop) {
        System.setProperty("saccade.owner.pixel.languages", "eng+zzz");
        try {
            final CliRun run = CliRun.run("doctor", "--display", desktop.display(),
                "--session-bus", desktop.sessionBusAddress(), "--endpoint", dir.resolve("nothing.sock").toString());
            assertTrue(run.out.contains("PROBLEM  OCR engine: tesseract "), run.out);
            assertTrue(run.out.contains("eng+zzz configured"), run.out);
            assertTrue(run.out.contains("fix:   apt-get install tesseract-ocr-zzz"), run.out);
        } finally {
            System.clearProperty("saccade.owner.pixel.languages");
        }
    }

    private static boolean hasWindowTitled(final TestDesktop desktop, final String title) {
        for (final long xid : desktop.clientList()) {
            if (title.equals(desktop.windowTitle(xid))) {
                return true;
            }
        }
        return false;
    }
}
