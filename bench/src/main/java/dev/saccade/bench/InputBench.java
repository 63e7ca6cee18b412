package dev.saccade.bench;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.helper.GuardedBackend;
import dev.saccade.helper.backend.xtest.XTestBackend;
import dev.saccade.ipc.link.HeldInputLedger;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.ResultCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.BytesStore;
import org.HdrHistogram.Histogram;

/**
 * {@code bench/run input} (bench/README.md "Input backend"): the XTEST backend alone, in this JVM,
 * on a real test desktop, against xdotool run as a process in the same run:
 * <ul>
 *   <li>{@code input_motion_sync}: one pointer motion + XSync, 1,000 per round; and a batch of 1,000
 *       motions followed by one XSync ({@code input_motion_batch1000});</li>
 *   <li>{@code input_click} (guarded move, press, release, XSync) against {@code xdotool click 1}
 *       and {@code xdotool click --delay 0 1};</li>
 *   <li>{@code input_typing_1000}: 1,000 characters into zenity's entry through the guarded
 *       backend, to zenity printing them (the proof is zenity's output), against
 *       {@code xdotool type} with its defaults.</li>
 * </ul>
 * Settings ({@code name=value}): {@code rounds} (5), {@code clicks} (200), {@code xdotool} (50).
 */
public final class InputBench {
    private static final int ENTER = 0x28;

    private InputBench() {
    }

    public static void main(final String[] args) throws Exception {
        final int rounds = ClickBench.intArg(args, "rounds", 5);
        final int clicks = ClickBench.intArg(args, "clicks", 200);
        final int xdotool = ClickBench.intArg(args, "xdotool", 50);
        System.out.printf(Locale.ROOT, "Input backend benchmark (bench/README.md): rounds=%d clicks=%d xdotool=%d load=%s%n",
            rounds, clicks, xdotool, Files.readString(Path.of("/proc/loadavg")).trim());
        try (TestDesktop desktop = TestDesktop.start()) {
            motion(desktop, rounds);
            click(desktop, clicks, xdotool);
            typing(desktop);
        }
    }

    private static void motion(final TestDesktop desktop, final int rounds) throws Exception {
        final Histogram each = new Histogram(3);
        final Histogram batch = new Histogram(3);
        try (XTestBackend backend = XTestBackend.open(desktop.display())) {
            for (int round = 0; round < rounds; round++) {
                final long startNs = System.nanoTime();
                for (int i = 0; i < 1_000; i++) {
                    backend.movePointer(i % 1000, i % 700);
                }
                check("XSync", backend.sync());
                batch.recordValue(System.nanoTime() - startNs);
                for (int i = 0; i < 1_000; i++) {
                    final long t0 = System.nanoTime();
                    backend.movePointer(i % 1000, 700 - i % 700);
                    backend.sync();
                    each.recordValue(System.nanoTime() - t0);
                }
            }
        }
        System.out.println(line("input_motion_sync", each));
        System.out.println(line("input_motion_batch1000", batch));
    }

    private static void click(final TestDesktop desktop, final int n, final int xdotool) throws Exception {
        final Histogram ours = new Histogram(3);
        final Histogram xdo = new Histogram(3);
        final Histogram xdoNoDelay = new Histogram(3);
        try (XTestBackend raw = XTestBackend.open(desktop.display())) {
            final GuardedBackend backend = guarded(raw);
            for (int i = 0; i < n; i++) {
                final long t0 = System.nanoTime();
                backend.movePointer(3 + i % 5, 3);
                backend.button(Button.LEFT, true);
                backend.button(Button.LEFT, false);
                check("XSync", backend.sync());
                ours.recordValue(System.nanoTime() - t0);
            }
            for (int i = 0; i < xdotool; i++) {
                long t0 = System.nanoTime();
                ClickBench.runProcess(desktop, "xdotool", "click", "1");
                xdo.recordValue(System.nanoTime() - t0);
                t0 = System.nanoTime();
                ClickBench.runProcess(desktop, "xdotool", "click", "--delay", "0", "1");
                xdoNoDelay.recordValue(System.nanoTime() - t0);
            }
        }
        System.out.println(line("input_click", ours));
        System.out.println(line("input_xdotool_click", xdo));
        System.out.println(line("input_xdotool_click_delay0", xdoNoDelay));
        System.out.printf(Locale.ROOT, "BENCH figure=input_click_vs_xdotool p50_speedup=%.1f p50_speedup_delay0=%.1f%n",
            (double) xdo.getValueAtPercentile(50) / ours.getValueAtPercentile(50),
            (double) xdoNoDelay.getValueAtPercentile(50) / ours.getValueAtPercentile(50));
    }

    private static void typing(final TestDesktop desktop) throws Exception {
        final StringBuilder sb = new StringBuilder();
        final String alphabet = "The quick brown fox jumps over the lazy dog 0123456789 ";
        while (sb.length() < 1_000) {
            sb.append(alphabet.charAt(sb.length() % alphabet.length()));
        }
        final String ascii = sb.toString();
        final Histogram ours = new Histogram(3);
        try (XTestBackend raw = XTestBackend.open(desktop.display())) {
            final GuardedBackend backend = guarded(raw);
            for (int round = 0; round < 3; round++) {
                ours.recordValue(typeAndMeasure(desktop, raw, backend, ascii));
            }
            final long mixedNs = typeAndMeasure(desktop, raw, backend, mixedText());
            System.out.printf(Locale.ROOT, "BENCH figure=input_typing_mixed_990 ns=%d (ASCII, accents, emoji)%n", mixedNs);
        }
        // xdotool type with its defaults (12 ms delay per character), same text, same app.
        final AppHandle zenity = desktop.startApp(DemoApp.ZENITY_ENTRY);
        try (XTestBackend raw = XTestBackend.open(desktop.display())) {
            focus(raw, zenity);
        }
        final long t0 = System.nanoTime();
        ClickBench.runProcess(desktop, "xdotool", "type", ascii);
        ClickBench.runProcess(desktop, "xdotool", "key", "Return");
        awaitStdout(zenity.stdoutFile(), ascii.length() + 1);
        final long xdoNs = System.nanoTime() - t0;
        checkPrinted(zenity, ascii);
        System.out.println(line("input_typing_1000", ours));
        System.out.printf(Locale.ROOT, "BENCH figure=input_typing_1000_xdotool ns=%d%n", xdoNs);
        System.out.printf(Locale.ROOT, "BENCH figure=input_typing_1000_vs_xdotool p50_speedup=%.1f%n",
            (double) xdoNs / ours.getValueAtPercentile(50));
    }

    /** Types {@code text} and Enter into a fresh zenity; returns the time until zenity printed it all. */
    private static long typeAndMeasure(final TestDesktop desktop, final XTestBackend raw, final GuardedBackend backend,
        final String text) throws Exception {
        final AppHandle zenity = desktop.startApp(DemoApp.ZENITY_ENTRY);
        focus(raw, zenity);
        final byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        final long t0 = System.nanoTime();
        check("typeText", backend.typeText(utf8, 0, utf8.length));
        backend.key(ENTER, true);
        backend.key(ENTER, false);
        check("XSync", backend.sync());
        awaitStdout(zenity.stdoutFile(), utf8.length + 1);
        final long doneNs = System.nanoTime() - t0;
        checkPrinted(zenity, text);
        zenity.awaitExit(10_000);
        return doneNs;
    }

    private static GuardedBackend guarded(final XTestBackend raw) {
        return new GuardedBackend(raw,
            new HeldInputLedger().wrap(BytesStore.nativeStoreWithFixedCapacity(HeldInputLedger.LENGTH), 0).init());
    }

    private static void focus(final XTestBackend backend, final AppHandle app) throws InterruptedException {
        check("activate", backend.activateWindow(app.windowId()));
        final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (backend.activeWindow() != app.windowId()) {
            if (System.nanoTime() - until > 0) {
                throw new IllegalStateException("window 0x" + Long.toHexString(app.windowId()) + " never active");
            }
            Thread.sleep(5); // polling the X server's answer, not standing in for it
        }
    }

    private static void awaitStdout(final Path file, final int bytes) throws IOException, InterruptedException {
        final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(file) || Files.size(file) < bytes) {
            if (System.nanoTime() - until > 0) {
                throw new IllegalStateException(file + " never held " + bytes + " bytes");
            }
            Thread.sleep(1);
        }
    }

    private static void checkPrinted(final AppHandle zenity, final String text) throws IOException {
        final String printed = Files.readString(zenity.stdoutFile(), StandardCharsets.UTF_8);
        if (!printed.equals(text + "\n")) {
            throw new IllegalStateException("zenity printed " + printed.length() + " chars, not the text typed");
        }
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

    private static void check(final String what, final int result) {
        if (result != ResultCode.PLATFORM_OK) {
            throw new IllegalStateException(what + ": " + ResultCode.name(result));
        }
    }

    static String line(final String figure, final Histogram h) {
        return String.format(Locale.ROOT, "BENCH figure=%s count=%d p50_ns=%d p90_ns=%d p99_ns=%d max_ns=%d", figure,
            h.getTotalCount(), h.getValueAtPercentile(50), h.getValueAtPercentile(90), h.getValueAtPercentile(99),
            h.getMaxValue());
    }
}
