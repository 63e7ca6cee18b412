package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.desktop.AccessibilityNode;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlag;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TextMatch;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * LibreOffice Calc (GTK 3 VCL) watched by the owner: its tree is walked without listing the
 * sheet's 2^30 cells (D47), so soffice stays small and answers, and its Name Box is an actionable
 * TEXT target: a cell address typed into it and Enter move the cursor there, which the Name Box
 * then reports, read from soffice itself (AT-SPI {@code Text.GetText}, not our scene).
 */
@WithTestDesktop(apps = {})
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class LibreOfficeCalcDesktopTest extends OwnedDesktopTest {
    private static final String TITLE = "Untitled 1 - LibreOffice Calc";
    /** soffice with an empty sheet holds about 200-300 MB; reading every cell took it past 1.4 GB in 40 s. */
    private static final long MAX_RSS_KIB = 1024 * 1024;

    @Test
    void theNameBoxIsATargetAndSofficeStaysSmallWhileWatched() throws Exception {
        final Path profile = Files.createTempDirectory("saccade-lo-profile-");
        // the launcher, not soffice.bin: a new profile makes soffice.bin exit for a restart, which
        // the launcher's oosplash does
        final ProcessBuilder builder = desktop.configure(new ProcessBuilder("/usr/lib/libreoffice/program/soffice",
            "--calc", "--norestore", "--nologo", "--nofirststartwizard",
            "-env:UserInstallation=" + profile.toUri()))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("SAL_USE_VCLPLUGIN", "gtk3");
        final Process soffice = builder.start();
        try {
            final long[] office = Await.value(() -> calcWindow(soffice), Objects::nonNull, Duration.ofSeconds(180),
                none -> "a window titled " + TITLE + " of soffice.bin under " + soffice.pid());
            final long window = office[1];
            final long nameBox = nameBox(window, "A1");
            FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, "C3".getBytes(StandardCharsets.UTF_8),
                a -> a.kind(ActionKind.TEXT).targetId(nameBox).buttonBits(Button.LEFT), 0), "TEXT C3 into the Name Box");
            FocusedTypingDesktopTest.ok(InputHelperDesktopTest.send(client, new byte[0],
                a -> a.kind(ActionKind.KEY).keyUsage(0x28), 0), "Enter");
            final AccessibilityNode node = node(nameBox);
            final String shown = Await.probe(() -> owner.service.accessibility()
                    .readText(node, System.nanoTime() + TimeUnit.SECONDS.toNanos(5)).get(10, TimeUnit.SECONDS),
                "C3"::equals, Duration.ofSeconds(30), text -> "the Name Box to say C3; last '" + text + "'");
            assertEquals("C3", shown, "the cursor's cell, read from soffice");
            final long rss = rssKib(office[0]);
            assertTrue(rss > 0 && rss < MAX_RSS_KIB, "soffice's resident memory while watched: " + rss + " KiB");
        } finally {
            soffice.descendants().forEach(ProcessHandle::destroy);
            soffice.destroy();
            if (!soffice.waitFor(20, TimeUnit.SECONDS)) {
                soffice.descendants().forEach(ProcessHandle::destroyForcibly);
                soffice.destroyForcibly();
            }
            try (java.util.stream.Stream<Path> files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    /** {soffice.bin's pid, its Calc window} once the launcher's soffice.bin shows it, else null. */
    private long[] calcWindow(final Process launcher) {
        final long[] found = launcher.descendants()
            .filter(p -> p.info().command().orElse("").endsWith("soffice.bin"))
            .mapToLong(ProcessHandle::pid).toArray();
        for (final long pid : found) {
            try {
                return new long[] {pid, desktop.awaitWindow(pid, TITLE, 1_000)};
            } catch (final dev.saccade.demodesktop.TestDesktopException notYet) {
                // reason: no such window yet; the wait around asks again
            }
        }
        return null;
    }

    /** The Name Box: the actionable TEXT_FIELD with TEXT that says {@code cell}, in the Calc window. */
    private long nameBox(final long window, final String cell) throws Exception {
        return Await.probe(() -> {
            final CompletionFlyweight c = ActionEffectsDesktopTest.query(client, Role.TEXT_FIELD, cell, TextMatch.EXACT);
            for (int i = 0; i < c.targetCount(); i++) {
                final TargetFlyweight t = new TargetFlyweight().wrap(c.bytes(), c.offset() + c.targetsOffset()
                    + (long) i * c.targetStride());
                if (t.windowId() == window && (t.flags() & TargetFlag.ACTIONABLE) != 0
                    && (t.capabilityBits() & TargetCapability.TEXT) != 0) {
                    return t.targetId();
                }
            }
            return 0L;
        }, id -> id != 0, Duration.ofSeconds(120), id -> "Calc's Name Box saying " + cell + " as a TEXT target");
    }

    private AccessibilityNode node(final long targetId) {
        return Await.value(() -> {
            for (final AccessibilityNode n : owner.service.accessibility().latest().nodes()) {
                if (n.targetId() == targetId) {
                    return n;
                }
            }
            return null;
        }, Objects::nonNull, Duration.ofSeconds(30), none -> "target " + targetId + " in the accessibility tree");
    }

    private static long rssKib(final long pid) throws Exception {
        for (final String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"), StandardCharsets.US_ASCII)) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }
}
