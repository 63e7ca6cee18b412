package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.atspi.AtspiConfiguration;
import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.protocol.Role;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A guarded read longer than a refresh pass goes on beside the next passes (D67). The pass's
 * ceiling is set far below what a Calc window's guarded walk takes on any machine (150 ms; about
 * 1 s idle here, longer loaded): started over each pass, the walk was cut at the same depth every
 * time and never reached the sheet's cells (on a loaded machine the native suite's Calc tasks saw
 * only the menus and tool bars for 90 s). Carried on, the read reaches the cells, with their text
 * as soffice holds it, and the passes stay within their ceiling meanwhile, so other applications
 * are published as before.
 */
@WithTestDesktop(apps = {})
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class LibreOfficeSlowReadDesktopTest extends OwnedDesktopTest {
    /** The pass's ceiling for this class's owner: far below one guarded read of a Calc window. */
    private static final long PASS_MS = 150;

    static {
        // read by the owner made after this
        System.setProperty(AtspiConfiguration.APP_TIMEOUT_MS_PROP_NAME, "100");
        System.setProperty(AtspiConfiguration.REFRESH_TIMEOUT_MS_PROP_NAME, Long.toString(PASS_MS));
    }

    @Test
    void aReadLongerThanAPassReachesTheCells() throws Exception {
        final Path dir = Files.createTempDirectory("saccade-lo-slow-");
        final Path sheet = Files.writeString(dir.resolve("slow.fods"), LibreOfficeDocumentsDesktopTest.SHEET.strip());
        final ProcessBuilder builder = desktop.configure(new ProcessBuilder("/usr/lib/libreoffice/program/soffice",
            "--norestore", "--nologo", "--nofirststartwizard", "-env:UserInstallation=" + dir.resolve("profile").toUri(),
            sheet.toString())).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("SAL_USE_VCLPLUGIN", "gtk3");
        final Process soffice = builder.start();
        try {
            final long pid = Await.value(() -> LibreOfficeDocumentsDesktopTest.window(desktop, soffice, "slow", "Calc"), p -> p > 0, Duration.ofSeconds(180),
                none -> "a Calc window of soffice.bin under " + soffice.pid());
            final AccessibilityNode a1 = SwingDesktopTest.node(owner, pid,
                n -> n.role() == Role.TABLE_CELL && "A1".equals(n.name()), "cell A1");
            assertEquals("name", a1.text(), "A1's text, read from soffice");
            // the pass that published it kept its ceiling: it did not wait for the read
            assertTrue(owner.service.accessibility().diagnostics().lastRefreshNs()
                < TimeUnit.MILLISECONDS.toNanos(3 * PASS_MS), "passes keep their ceiling while the read goes on: "
                + owner.service.accessibility().diagnostics());
        } finally {
            LibreOfficeDocumentsDesktopTest.stop(soffice);
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    @AfterAll
    static void passCeilingBackToTheDefault() {
        System.clearProperty(AtspiConfiguration.APP_TIMEOUT_MS_PROP_NAME);
        System.clearProperty(AtspiConfiguration.REFRESH_TIMEOUT_MS_PROP_NAME);
    }
}
