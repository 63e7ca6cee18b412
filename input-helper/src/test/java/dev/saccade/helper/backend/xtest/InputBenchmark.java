package dev.saccade.helper.backend.xtest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.saccade.helper.GuardedBackend;
import dev.saccade.ipc.link.HeldInputLedger;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.ResultCode;
import dev.saccade.testdesktop.AppHandle;
import dev.saccade.testdesktop.DemoApp;
import dev.saccade.testdesktop.TestDesktop;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Measurements for the closing note, not a pass/fail gate, so not named like a test
 * (the build's test run never picks it up): run with {@code mvn -o -q -B -pl input-helper test
 * -Dtest=InputBenchmark -Dsaccade.bench=true} (about a minute, mostly xdotool's default typing delay).
 * Results go to stdout (the surefire output file).
 */
@WithTestDesktop
@EnabledIfSystemProperty(named = "saccade.bench", matches = "true")
class InputBenchmark {
    private static final int ENTER = 0x28;

    @Test
    @Timeout(60)
    void motionEventsAndSync(final TestDesktop desktop) throws Exception {
        try (XTestBackend backend = XTestBackend.open(desktop.display())) {
            for (int round = 0; round < 5; round++) {
                final long startNs = System.nanoTime();
                for (int i = 0; i < 1_000; i++) {
                    backend.movePointer(i % 1000, i % 700);
                }
                final long queuedNs = System.nanoTime();
                assertEquals(ResultCode.PLATFORM_OK, backend.sync());
                final long syncedNs = System.nanoTime();
                final long[] each = new long[1_000];
                for (int i = 0; i < 1_000; i++) {
                    final long t0 = System.nanoTime();
                    backend.movePointer(i % 1000, 700 - i % 700);
                    backend.sync();
                    each[i] = System.nanoTime() - t0;
                }
                report("motion round=%d batch1000: queue=%.2fms +XSync=%.2fms total=%.2fms | 1000x(motion+XSync): %s",
                    round, ms(queuedNs - startNs), ms(syncedNs - queuedNs), ms(syncedNs - startNs), percentiles(each));
            }
        }
    }

    @Test
    @Timeout(120)
    void clickAgainstXdotool(final TestDesktop desktop) throws Exception {
        try (XTestBackend raw = XTestBackend.open(desktop.display())) {
            final GuardedBackend backend = new GuardedBackend(raw,
                new HeldInputLedger().wrap(BytesStore.nativeStoreWithFixedCapacity(HeldInputLedger.LENGTH), 0).init());
            final int n = 200;
            final long[] ours = new long[n];
            final long[] xdotoolClick = new long[n / 4];
            final long[] xdotoolMoveClick = new long[n / 4];
            final long[] xdotoolNoDelay = new long[n / 4];
            for (int i = 0; i < n; i++) {
                final long t0 = System.nanoTime();
                backend.movePointer(3 + i % 5, 3);
                backend.button(Button.LEFT, true);
                backend.button(Button.LEFT, false);
                backend.sync();
                ours[i] = System.nanoTime() - t0;
            }
            for (int i = 0; i < xdotoolClick.length; i++) {
                long t0 = System.nanoTime();
                DesktopTool.run(desktop, "xdotool", "click", "1");
                xdotoolClick[i] = System.nanoTime() - t0;
                t0 = System.nanoTime();
                DesktopTool.run(desktop, "xdotool", "mousemove", "4", "4", "click", "1");
                xdotoolMoveClick[i] = System.nanoTime() - t0;
                t0 = System.nanoTime();
                DesktopTool.run(desktop, "xdotool", "click", "--delay", "0", "1");
                xdotoolNoDelay[i] = System.nanoTime() - t0;
            }
            report("click ours (guarded move+down+up+XSync, n=%d): %s", n, percentiles(ours));
            report("click xdotool click 1 (n=%d): %s", xdotoolClick.length, percentiles(xdotoolClick));
            report("click xdotool mousemove+click 1 (n=%d): %s", xdotoolMoveClick.length, percentiles(xdotoolMoveClick));
            report("click xdotool click --delay 0 1 (n=%d): %s", xdotoolNoDelay.length, percentiles(xdotoolNoDelay));
            report("click ratio p50 xdotool-click/ours = %.0fx, xdotool-click-delay-0/ours = %.0fx",
                (double) median(xdotoolClick) / median(ours), (double) median(xdotoolNoDelay) / median(ours));
        }
    }

    @Test
    @Timeout(120)
    void typingThousandCharactersIntoZenity(final TestDesktop desktop) throws Exception {
        final StringBuilder sb = new StringBuilder();
        final String alphabet = "The quick brown fox jumps over the lazy dog 0123456789 ";
        while (sb.length() < 1_000) {
            sb.append(alphabet.charAt(sb.length() % alphabet.length()));
        }
        final String ascii = sb.toString();
        final String mixed = mixedText();
        try (XTestBackend raw = XTestBackend.open(desktop.display())) {
            final GuardedBackend backend = new GuardedBackend(raw,
                new HeldInputLedger().wrap(BytesStore.nativeStoreWithFixedCapacity(HeldInputLedger.LENGTH), 0).init());
            for (int round = 0; round < 3; round++) {
                typeAndMeasure(desktop, raw, backend, ascii, "ascii round " + round);
            }
            typeAndMeasure(desktop, raw, backend, mixed, "mixed (ASCII+accents+emoji) ");
        }
        // xdotool type with its defaults (12 ms delay per character), same text, same app.
        final AppHandle zenity = desktop.startApp(DemoApp.ZENITY_ENTRY);
        try (XTestBackend raw = XTestBackend.open(desktop.display())) {
            TextTypingTest.focus(desktop, raw, zenity);
        }
        final long t0 = System.nanoTime();
        DesktopTool.run(desktop, "xdotool", "type", ascii);
        final long typedNs = System.nanoTime();
        DesktopTool.run(desktop, "xdotool", "key", "Return");
        awaitStdout(zenity.stdoutFile(), ascii.length() + 1);
        report("typing 1000 ascii via xdotool type (defaults): xdotool returned after %.1fms, text in zenity after %.1fms",
            ms(typedNs - t0), ms(System.nanoTime() - t0));
        assertEquals(ascii + "\n", Files.readString(zenity.stdoutFile(), StandardCharsets.UTF_8));
    }

    private static void typeAndMeasure(final TestDesktop desktop, final XTestBackend raw, final GuardedBackend backend,
        final String text, final String label) throws Exception {
        final AppHandle zenity = desktop.startApp(DemoApp.ZENITY_ENTRY);
        TextTypingTest.focus(desktop, raw, zenity);
        final byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        final long t0 = System.nanoTime();
        assertEquals(ResultCode.PLATFORM_OK, backend.typeText(utf8, 0, utf8.length));
        final long queuedNs = System.nanoTime();
        backend.key(ENTER, true);
        backend.key(ENTER, false);
        assertEquals(ResultCode.PLATFORM_OK, backend.sync());
        final long syncedNs = System.nanoTime();
        awaitStdout(zenity.stdoutFile(), utf8.length + 1);
        final long doneNs = System.nanoTime();
        assertEquals(text + "\n", Files.readString(zenity.stdoutFile(), StandardCharsets.UTF_8));
        zenity.awaitExit(10_000);
        report("typing %d chars (%s): typeText=%.2fms, +Enter+XSync=%.2fms, text printed by zenity after %.1fms",
            text.codePointCount(0, text.length()), label, ms(queuedNs - t0), ms(syncedNs - t0), ms(doneNs - t0));
    }

    private static String mixedText() {
        final List<String> words = List.of("héllo ", "wörld ", "✓ ", "😀 ", "naïve ", "Ωmega ", "plain ascii words here ");
        final StringBuilder sb = new StringBuilder();
        int i = 0;
        while (sb.codePointCount(0, sb.length()) < 990) {
            sb.append(words.get(i++ % words.size()));
        }
        return sb.toString();
    }

    private static void awaitStdout(final Path file, final int bytes) {
        Await.until(() -> {
            try {
                return Files.size(file) >= bytes;
            } catch (final java.io.IOException e) {
                return false;
            }
        }, Duration.ofSeconds(60), () -> file + " holds " + bytes + " bytes");
    }

    private static String percentiles(final long[] ns) {
        final long[] sorted = ns.clone();
        Arrays.sort(sorted);
        return String.format(Locale.ROOT, "p50=%.1fus p90=%.1fus p99=%.1fus max=%.1fus",
            sorted[sorted.length / 2] / 1e3, sorted[sorted.length * 9 / 10] / 1e3,
            sorted[Math.min(sorted.length - 1, sorted.length * 99 / 100)] / 1e3, sorted[sorted.length - 1] / 1e3);
    }

    private static long median(final long[] ns) {
        final long[] sorted = ns.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static double ms(final long ns) {
        return ns / (double) TimeUnit.MILLISECONDS.toNanos(1);
    }

    private static void report(final String format, final Object... args) {
        System.out.println("BENCH " + String.format(Locale.ROOT, format, args));
    }
}
