package dev.saccade.bench;

import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.desktop.DesktopSnapshot;
import dev.saccade.desktop.WindowInfo;
import dev.saccade.pixel.PixelSource;
import dev.saccade.pixel.PixelSourceContext;
import dev.saccade.pixel.PixelWindow;
import dev.saccade.pixel.WindowReader;
import dev.saccade.x11.X11Backend;
import dev.saccade.x11.X11Capture;
import dev.saccade.x11.X11DesktopReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * What reading a window's pixels costs and what an idle desktop costs. On a real test
 * desktop with gtk3-demo (810×656) and the Qt calculator side by side: (1) the latency of one
 * reading per window (capture, X children, segmentation, OCR of boxes and text; no cache) against
 * the baseline of the same run, one whole-window Tesseract pass over the captured window with
 * no segmentation; goal p50 ≤ 150 ms for gtk3-demo on one core ({@code bench/run pixel} pins
 * the JVM and the desktop it starts to one CPU with taskset); (2) captures, analyses and the
 * pixel thread's CPU per minute of a running {@link PixelSource} (serving both windows) while
 * nothing on the desktop changes; goal 0 captures; (3) gtk3-demo re-read as the pixel source
 * reads it after a real change (its list selection moved), against a whole reading of the same
 * pixels in the same run, and whether both read the same texts. Settings ({@code name=value}): {@code warmup}
 * (3), {@code rounds} (5), {@code reads} (6 per window per round), {@code idle.seconds} (60).
 */
public final class PixelBench {
    static final long GOAL_GTK_P50_NS = TimeUnit.MILLISECONDS.toNanos(150);

    public static void main(final String[] args) throws Exception {
        final int warmup = ClickBench.intArg(args, "warmup", 3);
        final int rounds = ClickBench.intArg(args, "rounds", 5);
        final int reads = ClickBench.intArg(args, "reads", 6);
        final int idleSeconds = ClickBench.intArg(args, "idle.seconds", 60);
        System.out.printf("Saccade pixel benchmark (bench/README.md): warmup=%d rounds=%d reads=%d idle.seconds=%d cpus=%d"
            + " OMP_THREAD_LIMIT=%s%n", warmup, rounds, reads, idleSeconds, Runtime.getRuntime().availableProcessors(),
            System.getenv("OMP_THREAD_LIMIT"));
        final List<String> lines = new ArrayList<>();
        try (TestDesktop desktop = TestDesktop.start(DemoApp.GTK3_DEMO, DemoApp.QT_CALCULATOR)) {
            final AppHandle gtk = app(desktop, DemoApp.GTK3_DEMO);
            final AppHandle calc = app(desktop, DemoApp.QT_CALCULATOR);
            desktop.moveWindow(gtk.windowId(), 0, 0);
            desktop.moveWindow(calc.windowId(), 1000, 0);
            final WindowInfo gtkWindow = awaitAt(desktop, gtk.windowId(), 0);
            final WindowInfo calcWindow = awaitAt(desktop, calc.windowId(), 1000);
            try (WindowReader reader = WindowReader.open(X11Capture.open(desktop.display()), "eng")) {
                final WindowInfo[] windows = {gtkWindow, calcWindow};
                final String[] names = {"gtk3_demo", "calculator"};
                final ClickBench.Series[] read = new ClickBench.Series[2];
                final ClickBench.Series[] baseline = new ClickBench.Series[2];
                for (int i = 0; i < 2; i++) {
                    final WindowInfo w = windows[i];
                    read[i] = new ClickBench.Series("pixel_read_" + names[i], "pixel reading " + names[i] + " "
                        + w.width() + "x" + w.height(), rounds);
                    baseline[i] = new ClickBench.Series("whole_window_ocr_" + names[i], "whole-window OCR " + names[i],
                        rounds);
                    for (int k = 0; k < warmup; k++) {
                        reader.read(w, 60_000, 64);
                        reader.wholeWindowOcr(w);
                    }
                }
                final PixelWindow[] last = new PixelWindow[2];
                final long[] ocrCalls = new long[2];
                // CPU time of the reading thread as well: on a shared machine wall time also counts
                // the other processes' turns, CPU time is what one core spends on the reading
                final ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
                final org.HdrHistogram.Histogram[] readCpu = {new org.HdrHistogram.Histogram(3), new org.HdrHistogram.Histogram(3)};
                final org.HdrHistogram.Histogram[] baselineCpu = {new org.HdrHistogram.Histogram(3),
                    new org.HdrHistogram.Histogram(3)};
                for (int r = 0; r < rounds; r++) {
                    for (int i = 0; i < 2; i++) {
                        final int index = i;
                        final boolean baselineFirst = (r + i) % 2 == 0; // each series runs first equally often
                        final ClickBench.Runnable1 wholeWindow = () -> {
                            final long c0 = cpu.getCurrentThreadCpuTime();
                            reader.wholeWindowOcr(windows[index]);
                            baselineCpu[index].recordValue(cpu.getCurrentThreadCpuTime() - c0);
                        };
                        if (baselineFirst) {
                            baseline[i].round(r, reads, wholeWindow);
                        }
                        read[i].round(r, reads, () -> {
                            final long n0 = reader.recognitions();
                            final long c0 = cpu.getCurrentThreadCpuTime();
                            last[index] = reader.read(windows[index], 60_000, 64);
                            readCpu[index].recordValue(cpu.getCurrentThreadCpuTime() - c0);
                            ocrCalls[index] = reader.recognitions() - n0;
                        });
                        if (!baselineFirst) {
                            baseline[i].round(r, reads, wholeWindow);
                        }
                    }
                }
                System.out.printf(Locale.ROOT, "%-42s %6s %9s %9s %9s %9s %9s%n", "series", "count", "p50 µs", "p90 µs",
                    "p99 µs", "max µs", "mean µs");
                for (int i = 0; i < 2; i++) {
                    read[i].print();
                    baseline[i].print();
                    lines.add(read[i].machineLine() + " elements=" + last[i].elements().size());
                    lines.add(baseline[i].machineLine());
                    lines.add(String.format(Locale.ROOT, "BENCH figure=pixel_read_%s_cpu count=%d p50_ns=%d p99_ns=%d"
                        + " whole_window_ocr_cpu_p50_ns=%d p50_ratio=%.2f ocr_calls_per_read=%d", names[i],
                        readCpu[i].getTotalCount(), readCpu[i].getValueAtPercentile(50), readCpu[i].getValueAtPercentile(99),
                        baselineCpu[i].getValueAtPercentile(50),
                        (double) readCpu[i].getValueAtPercentile(50) / baselineCpu[i].getValueAtPercentile(50), ocrCalls[i]));
                    lines.add(String.format(Locale.ROOT, "BENCH figure=pixel_read_%s_vs_whole_window_ocr p50_ratio=%.2f"
                        + " p99_ratio=%.2f", names[i], ratio(read[i], baseline[i], 50), ratio(read[i], baseline[i], 99)));
                }
                lines.addAll(afterChange(desktop, reader, gtkWindow, gtk.windowId(), rounds, reads));
                lines.addAll(PixelTerminalBench.run(desktop, reader, rounds, reads));
                final long gtkP50 = read[0].h.getValueAtPercentile(50);
                final long gtkCpuP50 = readCpu[0].getValueAtPercentile(50);
                lines.add(String.format(Locale.ROOT, "BENCH figure=pixel_read_gtk3_demo_goal p50_ns=%d cpu_p50_ns=%d goal_ns=%d"
                    + " met=%s cpu_met=%s", gtkP50, gtkCpuP50, GOAL_GTK_P50_NS, gtkP50 <= GOAL_GTK_P50_NS,
                    gtkCpuP50 <= GOAL_GTK_P50_NS));
            }
            lines.add(idle(desktop, idleSeconds));
        }
        System.out.println();
        lines.forEach(System.out::println);
    }

    /**
     * (3) gtk3-demo read as the pixel source reads it, after a real change: the list's selection
     * moved (Down, then Up, by xdotool's XTEST keys), which also changes the description pane.
     * Each change is followed, once the window's pixels have changed and stayed so for 30 ms, by
     * a reusing reading (the boxes and rows that did not change are not read again) and, as the
     * baseline of the same run, a whole reading of the same pixels.
     */
    private static List<String> afterChange(final TestDesktop desktop, final WindowReader reader, final WindowInfo w,
        final long xid, final int rounds, final int reads) throws Exception {
        run(desktop, "xdotool", "windowactivate", "--sync", Long.toString(xid));
        reader.readReusing(w, 60_000, 64);
        final ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        final ClickBench.Series reuse = new ClickBench.Series("pixel_reread_after_change_gtk3_demo",
            "reusing reading after a selection change", rounds);
        final ClickBench.Series whole = new ClickBench.Series("whole_read_after_change_gtk3_demo",
            "whole reading of the same pixels", rounds);
        final org.HdrHistogram.Histogram reuseCpu = new org.HdrHistogram.Histogram(3);
        final org.HdrHistogram.Histogram wholeCpu = new org.HdrHistogram.Histogram(3);
        final long[] before = reader.reuseCounts();
        final int[] step = {0};
        int mismatches = 0;
        for (int r = 0; r < rounds; r++) {
            final org.HdrHistogram.Histogram reuseRound = new org.HdrHistogram.Histogram(3);
            final org.HdrHistogram.Histogram wholeRound = new org.HdrHistogram.Histogram(3);
            for (int k = 0; k < reads; k++) {
                final long hash = reader.capturedHash(w);
                run(desktop, "xdotool", "key", step[0]++ % 2 == 0 ? "Down" : "Up");
                awaitRedrawn(reader, w, hash);
                final long c0 = cpu.getCurrentThreadCpuTime();
                final long t0 = System.nanoTime();
                final PixelWindow reused = reader.readReusing(w, 60_000, 64);
                reuseRound.recordValue(System.nanoTime() - t0);
                final long c1 = cpu.getCurrentThreadCpuTime();
                reuseCpu.recordValue(c1 - c0);
                final long t1 = System.nanoTime();
                final PixelWindow fresh = reader.read(w, 60_000, 64);
                wholeRound.recordValue(System.nanoTime() - t1);
                wholeCpu.recordValue(cpu.getCurrentThreadCpuTime() - c1);
                if (reused.pixelHash() != fresh.pixelHash() || !texts(reused).equals(texts(fresh))) {
                    mismatches++; // the reused texts are not the whole reading's (or the pixels moved between)
                    if (mismatches <= 3) {
                        System.out.println("  mismatch: reused " + texts(reused) + "\n  whole  " + texts(fresh));
                    }
                }
            }
            reuse.h.add(reuseRound);
            whole.h.add(wholeRound);
            reuse.roundP50[r] = reuseRound.getValueAtPercentile(50);
            whole.roundP50[r] = wholeRound.getValueAtPercentile(50);
        }
        final long[] after = reader.reuseCounts();
        reuse.print();
        whole.print();
        final List<String> out = new ArrayList<>();
        out.add(reuse.machineLine());
        out.add(whole.machineLine());
        out.add(String.format(Locale.ROOT, "BENCH figure=pixel_reread_after_change_gtk3_demo_cpu count=%d p50_ns=%d"
            + " p99_ns=%d whole_read_cpu_p50_ns=%d p50_ratio=%.2f box_hits=%d band_reads=%d unchanged=%d"
            + " text_mismatches=%d", reuseCpu.getTotalCount(), reuseCpu.getValueAtPercentile(50),
            reuseCpu.getValueAtPercentile(99), wholeCpu.getValueAtPercentile(50),
            (double) reuseCpu.getValueAtPercentile(50) / wholeCpu.getValueAtPercentile(50), after[0] - before[0],
            after[1] - before[1], after[2] - before[2], mismatches));
        return out;
    }

    /** The window's element texts, sorted. */
    private static List<String> texts(final PixelWindow w) {
        final List<String> texts = new ArrayList<>();
        for (final dev.saccade.pixel.PixelElement e : w.elements()) {
            texts.add(e.text());
        }
        texts.sort(null);
        return texts;
    }

    /** Until the window's pixels differ from {@code before} and then hold still for 30 ms. */
    static void awaitRedrawn(final WindowReader reader, final WindowInfo w, final long before) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        long last = before;
        while (true) {
            LockSupport.parkNanos(30_000_000L);
            final long now = reader.capturedHash(w);
            if (now != before && now == last) {
                return;
            }
            last = now;
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("window " + w.xid() + " did not redraw");
            }
        }
    }

    static void run(final TestDesktop desktop, final String... command) throws Exception {
        final Process p = desktop.configure(new ProcessBuilder(command)).redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " failed");
        }
    }

    /** A running pixel source on the unchanged desktop: captures, analyses and CPU per minute. */
    @SuppressWarnings("try") // the reader only feeds the source windows while the try runs
    private static String idle(final TestDesktop desktop, final int seconds) throws Exception {
        final PixelSourceContext context = new PixelSourceContext().display(desktop.display()).backend(new X11Backend())
            .serve(PixelSourceContext.Serve.ALL);
        try (PixelSource source = new PixelSource(context, s -> { }).start();
             X11DesktopReader reader = new X11DesktopReader(desktop.display(), source::desktop).start()) {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (source.latest().windows().size() < 2) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the pixel source never read both windows: " + source.latest());
                }
                LockSupport.parkNanos(50_000_000L);
            }
            // let the first readings settle (a caret or a spinner would show up as captures below)
            LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(2));
            final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            final long thread = pixelThread();
            final long c0 = source.captures();
            final long a0 = source.analyses();
            final long d0 = source.damageRects();
            final long cpu0 = threads.getThreadCpuTime(thread);
            final long t0 = System.nanoTime();
            LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(seconds));
            final double minutes = (System.nanoTime() - t0) / 60e9;
            final long captures = source.captures() - c0;
            final double cpuMs = (threads.getThreadCpuTime(thread) - cpu0) / 1e6;
            System.out.printf(Locale.ROOT, "idle %d s: %d captures, %d analyses, %d damage rectangles, pixel thread CPU %.2f ms%n",
                seconds, captures, source.analyses() - a0, source.damageRects() - d0, cpuMs);
            return String.format(Locale.ROOT, "BENCH figure=pixel_idle seconds=%d captures_per_min=%.2f analyses_per_min=%.2f"
                + " damage_rects_per_min=%.2f cpu_ms_per_min=%.3f goal_captures_per_min=0 met=%s", seconds,
                captures / minutes, (source.analyses() - a0) / minutes, (source.damageRects() - d0) / minutes,
                cpuMs / minutes, captures == 0);
        }
    }

    private static long pixelThread() {
        for (final Thread t : Thread.getAllStackTraces().keySet()) {
            if (PixelSource.THREAD_NAME.equals(t.getName())) {
                return t.getId();
            }
        }
        throw new IllegalStateException("no " + PixelSource.THREAD_NAME + " thread");
    }

    private static double ratio(final ClickBench.Series a, final ClickBench.Series b, final double percentile) {
        return (double) a.h.getValueAtPercentile(percentile) / b.h.getValueAtPercentile(percentile);
    }

    private static AppHandle app(final TestDesktop desktop, final DemoApp which) {
        for (final AppHandle a : desktop.apps()) {
            if (a.app() == which) {
                return a;
            }
        }
        throw new IllegalStateException(which + " not running");
    }


    /** The window once the window manager has put its client area's left edge at or right of {@code x}. */
    private static WindowInfo awaitAt(final TestDesktop desktop, final long xid, final int x) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            final DesktopSnapshot s = X11DesktopReader.readOnce(desktop.display());
            final WindowInfo w = s.window(xid);
            if (w != null && w.x() >= x && w.x() < x + 50) {
                return w;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("window " + xid + " never moved to x=" + x + ": " + w);
            }
            LockSupport.parkNanos(20_000_000L);
        }
    }
}
