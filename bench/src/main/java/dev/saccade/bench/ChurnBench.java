package dev.saccade.bench;

import dev.saccade.atspi.AtspiConfiguration;
import dev.saccade.atspi.AtspiDiagnostics;
import dev.saccade.atspi.AtspiSource;
import dev.saccade.atspi.AtspiSourceContext;
import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.SourceMode;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * {@code bench/run churn} (bench/README.md "Scenes under churn"): ten windows on
 * a real test desktop (gtk3-demo, the Qt calculator, xmessage, xcalc, a zenity password dialog
 * and five zenity entries) under the real owner with accessibility on; one entry's text changes
 * 60 times a second ({@code xdotool type --delay 16}, each key a text-changed event from GTK).
 * Two phases of {@code seconds} each, the quiet desktop first (the same-run baseline), then the
 * churn. Per phase: scene generations published per second, AT-SPI passes per second, the CPU
 * of this JVM (owner, sources and client) by thread and of the typing app and the bus daemons,
 * and the latency of a whole-desktop FUSED observe sent every {@code gap.ms}. After the churn,
 * how long until the scene holds all that was typed. No goal yet: what breaks first.
 */
public final class ChurnBench {
    private ChurnBench() {
    }

    public static void main(final String[] args) throws Exception {
        final int seconds = ClickBench.intArg(args, "seconds", 20);
        final int gapMs = ClickBench.intArg(args, "gap.ms", 5);
        // The accessibility scene is what churns; pixel reading of ten windows would measure OCR instead.
        final boolean pixel = Boolean.parseBoolean(ClickBench.stringArg(args, "pixel", "false"));
        System.setProperty("saccade.owner.pixel.enabled", Boolean.toString(pixel));
        // D19's incremental reading, off by default in the owner, is what this churn figure measured
        System.setProperty(AtspiConfiguration.FULL_REFRESH_MS_PROP_NAME,
            System.getProperty(AtspiConfiguration.FULL_REFRESH_MS_PROP_NAME, "2000"));
        System.out.printf(Locale.ROOT, "Churn benchmark (bench/README.md): seconds=%d gap.ms=%d load=%s%n", seconds,
            gapMs, Files.readString(Path.of("/proc/loadavg")).trim());
        try (LiveDesktop live = LiveDesktop.start(true, DemoApp.GTK3_DEMO, DemoApp.QT_CALCULATOR, DemoApp.XMESSAGE,
            DemoApp.XCALC, DemoApp.ZENITY_PASSWORD, DemoApp.ZENITY_ENTRY, DemoApp.ZENITY_ENTRY, DemoApp.ZENITY_ENTRY,
            DemoApp.ZENITY_ENTRY, DemoApp.ZENITY_ENTRY)) {
            final AppHandle typed = live.desktop.apps().get(live.desktop.apps().size() - 1);
            // On top and focused: the entry is then unoccluded (actionable) and receives the keys.
            ClickBench.runProcess(live.desktop, "xdotool", "windowactivate", "--sync", Long.toString(typed.windowId()));
            final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (live.textOf(Role.TEXT_FIELD, typed.windowId()) == null) {
                if (System.nanoTime() - until > 0) {
                    final CompletionFlyweight c = live.query(Role.TEXT_FIELD, null, 0, 0, 0);
                    throw new IllegalStateException("the typed entry (window 0x" + Long.toHexString(typed.windowId())
                        + ") never reached the scene: " + c.targetCount() + " text fields; apps " + live.desktop.apps()
                        + "; " + live.service.accessibility().diagnostics());
                }
                Thread.sleep(50);
            }
            final Phase quiet = new Phase("churn_quiet", live, typed);
            quiet.run(seconds, gapMs, null);
            final String text = "x".repeat(60 * seconds);
            final ProcessBuilder typing = live.desktop.configure(
                new ProcessBuilder("xdotool", "type", "--delay", "16", text))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
            final Phase churn = new Phase("churn_60hz", live, typed);
            final Process xdotool = typing.start();
            try {
                churn.run(seconds, gapMs, xdotool);
                final long typedAt = System.nanoTime();
                if (!xdotool.waitFor(seconds * 2L + 10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("xdotool type did not finish");
                }
                final long doneNs = System.nanoTime();
                // The scene holds at most the source's text limit of an object's content.
                final int expected = Math.min(text.length(), AtspiConfiguration.MAX_TEXT_CHARS_DEFAULT);
                String seen = live.textOf(Role.TEXT_FIELD, typed.windowId());
                while (seen == null || seen.length() < expected) {
                    if (System.nanoTime() - doneNs > TimeUnit.SECONDS.toNanos(20)) {
                        break;
                    }
                    Thread.sleep(2);
                    seen = live.textOf(Role.TEXT_FIELD, typed.windowId());
                }
                final long lagNs = System.nanoTime() - doneNs;
                quiet.print();
                churn.print();
                System.out.printf(Locale.ROOT, "BENCH figure=churn_text_lag typed=%d seen=%d lag_after_typing_ns=%d "
                        + "typing_overran_phase_ns=%d%n", text.length(), seen == null ? 0 : seen.length(), lagNs,
                    doneNs - typedAt);
                System.out.printf(Locale.ROOT, "BENCH figure=churn_vs_quiet observe_p50_ratio=%.2f observe_p99_ratio=%.2f "
                        + "cpu_ratio=%.2f%n", churn.observe.getValueAtPercentile(50) / (double) quiet.observe.getValueAtPercentile(50),
                    churn.observe.getValueAtPercentile(99) / (double) quiet.observe.getValueAtPercentile(99),
                    churn.cpuPercent() / Math.max(0.01, quiet.cpuPercent()));
            } finally {
                xdotool.destroyForcibly().waitFor();
            }
        }
    }

    /** One measured stretch: observes in a loop, generations, passes and CPU around it. */
    private static final class Phase {
        final String figure;
        final LiveDesktop live;
        final AppHandle typed;
        final Histogram observe = new Histogram(3);
        long generations;
        long passes;
        long events;
        long fullReads;
        long touches;
        long checks;
        long wallNs;
        long jvmCpuNs;
        long appTicks;
        long busTicks;
        long targets;
        final Map<String, Long> threadCpu = new TreeMap<>();

        Phase(final String figure, final LiveDesktop live, final AppHandle typed) {
            this.figure = figure;
            this.live = live;
            this.typed = typed;
        }

        void run(final int seconds, final int gapMs, final Process xdotool) throws Exception {
            final AtspiSource a11y = live.service.accessibility();
            final AtspiDiagnostics d0 = a11y.diagnostics();
            final Map<String, Long> threads0 = threadCpu();
            final long cpu0 = processCpuNs();
            final long app0 = AtspiRefreshBench.ticks(typed.pid());
            final long bus0 = busTicks();
            final long generation0 = live.service.lastGeneration();
            final long start = System.nanoTime();
            final long end = start + TimeUnit.SECONDS.toNanos(seconds);
            while (System.nanoTime() - end < 0) {
                final long t0 = System.nanoTime();
                final CompletionFlyweight c = live.observe(SourceMode.FUSED, 10_000);
                observe.recordValue(System.nanoTime() - t0);
                if (c.result() != ResultCode.OK) {
                    throw new IllegalStateException("observe: " + ResultCode.name(c.result()));
                }
                targets = c.targetCount();
                Thread.sleep(gapMs);
            }
            wallNs = System.nanoTime() - start;
            generations = live.service.lastGeneration() - generation0;
            final AtspiDiagnostics d1 = a11y.diagnostics();
            passes = d1.refreshes() - d0.refreshes();
            final AtspiDiagnostics.App a0 = app(d0, typed);
            final AtspiDiagnostics.App a1 = app(d1, typed);
            fullReads = a1.fullReads() - a0.fullReads();
            touches = a1.touches() - a0.touches();
            checks = a1.checks() - a0.checks();
            events = d1.events() - d0.events();
            jvmCpuNs = processCpuNs() - cpu0;
            appTicks = AtspiRefreshBench.ticks(typed.pid()) - app0;
            busTicks = busTicks() - bus0;
            final Map<String, Long> threads1 = threadCpu();
            for (final Map.Entry<String, Long> e : threads1.entrySet()) {
                threadCpu.put(e.getKey(), e.getValue() - threads0.getOrDefault(e.getKey(), 0L));
            }
        }

        private static AtspiDiagnostics.App app(final AtspiDiagnostics d, final AppHandle handle) {
            for (final AtspiDiagnostics.App a : d.applications()) {
                if (a.busName().equals(handle.accessibleBusName())) {
                    return a;
                }
            }
            throw new IllegalStateException("no " + handle + " in " + d);
        }

        double cpuPercent() {
            return 100.0 * jvmCpuNs / wallNs;
        }

        void print() {
            final double s = wallNs / 1e9;
            System.out.printf(Locale.ROOT, "%s: %.1f s, %d targets, observe p50 %.0f µs p99 %.0f µs max %.0f µs; "
                    + "AT-SPI %d passes, %d events; JVM CPU %.1f %% of a core; typed app %d ticks, bus daemons %d ticks%n",
                figure, s, targets, observe.getValueAtPercentile(50) / 1e3, observe.getValueAtPercentile(99) / 1e3,
                observe.getMaxValue() / 1e3, passes, events, cpuPercent(), appTicks, busTicks);
            threadCpu.entrySet().stream().filter(e -> e.getValue() > 10_000_000L)
                .sorted((x, y) -> Long.compare(y.getValue(), x.getValue()))
                .forEach(e -> System.out.printf(Locale.ROOT, "  thread %-36s %8.1f ms CPU%n", e.getKey(), e.getValue() / 1e6));
            System.out.printf(Locale.ROOT, "BENCH figure=%s seconds=%.1f targets=%d observe_count=%d observe_p50_ns=%d "
                    + "observe_p99_ns=%d observe_max_ns=%d publish_per_s=%.1f atspi_passes_per_s=%.1f atspi_events_per_s=%.1f "
                    + "jvm_cpu_percent_core=%.2f owner_thread_cpu_ms=%.1f atspi_threads_cpu_ms=%.1f typed_app_cpu_ms=%d "
                    + "bus_daemons_cpu_ms=%d typed_app_full_reads=%d typed_app_touches=%d typed_app_checks=%d%n",
                figure, s, targets, observe.getTotalCount(), observe.getValueAtPercentile(50),
                observe.getValueAtPercentile(99), observe.getMaxValue(), generations / s, passes / s, events / s,
                cpuPercent(), cpuOf("saccade-owner") / 1e6, cpuOf("saccade-atspi") / 1e6, appTicks * 10, busTicks * 10, fullReads, touches,
                checks);
        }

        private long cpuOf(final String prefix) {
            long sum = 0;
            for (final Map.Entry<String, Long> e : threadCpu.entrySet()) {
                if (e.getKey().startsWith(prefix)) {
                    sum += e.getValue();
                }
            }
            return sum;
        }

        private long busTicks() throws IOException {
            long sum = 0;
            for (final ProcessHandle p : live.desktop.processes()) {
                if (p.info().command().orElse("").endsWith("dbus-daemon")) {
                    sum += AtspiRefreshBench.ticks(p.pid());
                }
            }
            return sum;
        }
    }

    /** CPU time per thread name (threads of one name summed), ns. */
    private static Map<String, Long> threadCpu() {
        final java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        final Map<String, Long> out = new TreeMap<>();
        for (final java.lang.management.ThreadInfo info : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (info != null) {
                final long ns = mx.getThreadCpuTime(info.getThreadId());
                if (ns > 0) {
                    out.merge(info.getThreadName().replaceAll("-\\d+$", "-N"), ns, Long::sum);
                }
            }
        }
        return out;
    }

    private static long processCpuNs() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
