package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.atspi.AtspiConfiguration;
import dev.saccade.atspi.AtspiDiagnostics;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.protocol.Role;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An application the probe finds guarded (here Swing through the Java ATK wrapper) has its first
 * read timed by the guarded deadline from its probe on (D73), as its later reads are; cut at the
 * deadline of an unguarded application, the read came back incomplete and was read again whole.
 */
@Tag("desktop")
@WithTestDesktop(apps = {})
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class GuardedFirstReadDesktopTest {
    /**
     * An application's deadline under the window's walk (two round trips a level, D47; 411-495 ms
     * measured with {@link #MORE_ROWS}, warm) and far over a warm probe's one round trip (a few ms).
     */
    private static final long APP_TIMEOUT_MS = 100;
    /** Rows added to the table's three: more objects to walk, so the walk is well past {@link #APP_TIMEOUT_MS}. */
    private static final int MORE_ROWS = 40;

    @Test
    void aSwingWindowsFirstReadRunsToTheGuardedDeadline(final TestDesktop desktop) throws Exception {
        final List<String> printed = new CopyOnWriteArrayList<>();
        final Process app = SwingDesktopTest.launch(desktop, printed, Integer.toString(MORE_ROWS));
        try {
            // the window is up before the owner starts: its first read walks the whole window
            desktop.awaitWindow(app.pid(), SwingChooserApp.TITLE, 120_000);
            // A first owner reads it once, so the wrapper's code that answers is warm (its very first
            // answers took up to 100 ms, measured) and the probe below answers in time.
            try (DesktopOwner warm = DesktopOwner.withAccessibility(desktop, "saccade-guarded-warm")) {
                wholeRead(warm, app.pid());
            }
            System.setProperty(AtspiConfiguration.APP_TIMEOUT_MS_PROP_NAME, Long.toString(APP_TIMEOUT_MS));
            final DesktopOwner owner;
            try {
                owner = DesktopOwner.withAccessibility(desktop, "saccade-guarded-first");
            } finally {
                System.clearProperty(AtspiConfiguration.APP_TIMEOUT_MS_PROP_NAME);
            }
            try (owner) {
                final AtspiDiagnostics.App read = wholeRead(owner, app.pid());
                System.out.printf("Swing window's first whole read: %s%n", read);
                assertEquals(0, read.timeouts(), "a read cut by the deadline: " + read);
                // the read has what the application shows
                final AccessibilityNode grace = SwingDesktopTest.node(owner, app.pid(),
                    n -> n.role() == Role.TABLE_CELL && "Grace".equals(n.text()), "the table cell Grace");
                assertTrue(grace.width() > 0, grace.toString());
            }
        } finally {
            app.destroy();
            if (!app.waitFor(20, TimeUnit.SECONDS)) {
                app.destroyForcibly();
            }
        }
    }

    /** The application's reads once one of them read its window whole. */
    private static AtspiDiagnostics.App wholeRead(final DesktopOwner owner, final long pid) {
        return Await.value(() -> owner.service.accessibility().diagnostics().applications().stream()
                .filter(x -> x.pid() == pid).findFirst().orElse(null),
            a -> a != null && a.fullReads() > 0 && a.nodeCount() > 0, Duration.ofSeconds(120),
            a -> "a whole read of the Swing window; its reads: " + a);
    }
}
