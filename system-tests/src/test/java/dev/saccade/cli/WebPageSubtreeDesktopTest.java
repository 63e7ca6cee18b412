package dev.saccade.cli;

import com.sun.net.httpserver.HttpServer;
import dev.saccade.atspi.AtspiConfiguration;
import dev.saccade.atspi.AtspiDiagnostics;
import dev.saccade.client.TargetTexts;
import dev.saccade.demodesktop.WebBrowser;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TextMatch;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A web page that changes a paragraph's text reaches the scene through a re-read of that
 * paragraph's subtree, not of the whole browser (D61): Chromium answers the page's
 * {@code textContent} with a children-changed remove and add on the paragraph (Firefox with a
 * text-changed too). The page changes a counter every 300 ms; the test watches the scene for a
 * new value and the source's counters for the browser: some new value must arrive with a subtree
 * read and no whole read of the application in between.
 */
@WithTestDesktop(apps = {})
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class WebPageSubtreeDesktopTest extends OwnedDesktopTest {
    static {
        // Subtree reads are off by default (D61): this class's owner, made after this, reads so.
        System.setProperty(AtspiConfiguration.SUBTREE_READS_PROP_NAME, "true");
    }

    private static final Pattern TICK = Pattern.compile("tick (\\d+)");
    private static final String PAGE = "<!doctype html><html><head><meta charset=\"utf-8\"><title>Counter</title></head>"
        + "<body><h1>Counter</h1><p id=\"c\">tick 0</p><p>This paragraph stays.</p><script>"
        + "let k = 0; const el = document.getElementById('c');"
        + "setInterval(() => { k++; el.textContent = 'tick ' + k; }, 300);"
        + "</script></body></html>";

    /** What the scene showed last and the browser's counters when it was first seen. */
    private static final class Seen {
        int value = -1;
        long fullReads;
        long subtrees;
        /** Values that came with a subtree read and no whole read since the one before. */
        final Set<Integer> bySubtree = new HashSet<>();
        final Set<Integer> all = new HashSet<>();
    }

    @ParameterizedTest
    @EnumSource(WebBrowser.class)
    void aChangedTextReachesTheSceneThroughASubtreeRead(final WebBrowser browser) throws Exception {
        Assumptions.assumeTrue(browser.installed(), browser.label() + " is not installed (scripts/install-deps)");
        final HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
        server.createContext("/", exchange -> {
            final byte[] body = PAGE.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        final Path scratch = Files.createTempDirectory("saccade-web-subtree-",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final Process process = browser.start(desktop, scratch,
            "http://127.0.0.1:" + server.getAddress().getPort() + "/");
        try {
            final Seen seen = new Seen();
            Await.probe(() -> watch(process.pid(), seen), s -> s.bySubtree.size() >= 2, Duration.ofSeconds(120),
                Duration.ofMillis(5), s -> browser.label() + "'s counter to reach the scene through subtree reads: "
                    + s.all.size() + " new values seen, up to " + s.value + ", by a subtree read alone " + s.bySubtree + "; "
                    + owner.service.accessibility().diagnostics());
        } finally {
            WebBrowser.stop(process);
            server.stop(0);
            try (var paths = Files.walk(scratch)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** One look at the scene's counter and the browser's counters in the source. */
    private Seen watch(final long pid, final Seen seen) throws Exception {
        final CompletionFlyweight c = ActionEffectsDesktopTest.query(client, 0, "tick ", TextMatch.PREFIX);
        int value = -1;
        final TargetFlyweight t = new TargetFlyweight();
        for (int i = 0; i < c.targetCount(); i++) {
            final Matcher m = TICK.matcher(TargetTexts.of(c, i, t));
            if (m.find()) {
                value = Math.max(value, Integer.parseInt(m.group(1)));
            }
        }
        // read after the scene: a pass's counters are published before its scene (AtspiSource)
        final AtspiDiagnostics.App app = browserApp(pid);
        if (value < 0 || app == null || value == seen.value) {
            return seen;
        }
        if (seen.value >= 0 && value > seen.value) {
            seen.all.add(value);
            if (app.fullReads() == seen.fullReads && app.subtrees() > seen.subtrees) {
                seen.bySubtree.add(value);
            }
        }
        seen.value = value;
        seen.fullReads = app.fullReads();
        seen.subtrees = app.subtrees();
        return seen;
    }

    /** The browser's application in the source: its pid or a child process's. */
    private AtspiDiagnostics.App browserApp(final long pid) {
        final Set<Long> pids = new HashSet<>();
        pids.add(pid);
        ProcessHandle.of(pid).ifPresent(p -> p.descendants().forEach(d -> pids.add(d.pid())));
        for (final AtspiDiagnostics.App a : owner.service.accessibility().diagnostics().applications()) {
            if (pids.contains(a.pid())) {
                return a;
            }
        }
        return null;
    }

    @AfterAll
    static void subtreeReadsBackToTheDefault() {
        System.clearProperty(AtspiConfiguration.SUBTREE_READS_PROP_NAME);
    }
}
