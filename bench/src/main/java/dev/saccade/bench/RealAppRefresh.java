package dev.saccade.bench;

import dev.saccade.atspi.AtspiConfiguration;
import dev.saccade.atspi.AtspiDiagnostics;
import dev.saccade.atspi.AtspiSource;
import dev.saccade.atspi.AtspiSourceContext;
import dev.saccade.atspi.NaiveWalk;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.desktop.AccessibilitySnapshot;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * {@code bench/run realapps} part 2: one application on a desktop of its own, read by a real
 * {@link AtspiSource} (as {@link AtspiRefreshBench} reads gtk3-demo): its full refresh (the
 * application's own time, {@link AtspiDiagnostics.App#lastRefreshNs()}) interleaved with the
 * baseline, a {@link NaiveWalk} of the same application. LibreOffice's naive walk is bounded
 * (each object's first {@code naive.max.children} children, {@code naive.max.nodes} in all):
 * unbounded, it would list a sheet's 2^30 cells (D47).
 */
final class RealAppRefresh {
    /** One application's figures (ns). */
    record Row(RealApp app, int nodes, int visited, int capped, boolean complete, Histogram refresh, Histogram naive,
        Histogram appCpu, String error) {
        double ratio() {
            return refresh == null || naive == null || naive.getTotalCount() == 0 ? Double.NaN
                : (double) naive.getValueAtPercentile(50) / refresh.getValueAtPercentile(50);
        }
    }

    private RealAppRefresh() {
    }

    static Row measure(final RealApp app, final Path scratch, final String url, final int warmup, final int runs,
        final int naiveRuns, final int maxChildren, final int maxNodes) throws Exception {
        final AtomicReference<AccessibilitySnapshot> last = new AtomicReference<>();
        try (TestDesktop desktop = TestDesktop.start()) {
            final AtspiSourceContext context = new AtspiSourceContext()
                .sessionBusAddress(desktop.sessionBusAddress())
                .coalesceQuietMs(0)
                .coalesceMaxMs(0)
                .fullRefreshMs(AtspiConfiguration.fullRefreshMs());
            // the source first: it sets org.a11y.Status.IsEnabled, which the browsers read when they start (D50)
            try (AtspiSource source = new AtspiSource(context, last::set);
                 NaiveWalk walk = NaiveWalk.connect(desktop.accessibilityBusAddress())) {
                source.start();
                source.requestRefresh().get(30, TimeUnit.SECONDS);
                final Process process = app.launch(desktop, scratch, url);
                try {
                    app.awaitWindow(desktop, process, 180_000);
                    return measure(app, source, walk, process, warmup, runs, naiveRuns, maxChildren, maxNodes);
                } finally {
                    RealAppsBench.stop(process);
                }
            }
        }
    }

    private static Row measure(final RealApp app, final AtspiSource source, final NaiveWalk walk, final Process process,
        final int warmup, final int runs, final int naiveRuns, final int maxChildren, final int maxNodes) throws Exception {
        // its tree: the registered application of one of its processes with the most nodes, once it has some
        final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        AtspiDiagnostics.App found = null;
        while (found == null || found.nodeCount() < 2) {
            if (System.nanoTime() - until > 0) {
                return new Row(app, 0, 0, 0, false, null, null, null, "no tree within 60 s: " + source.diagnostics());
            }
            source.requestFullRefresh().get(60, TimeUnit.SECONDS);
            found = find(source, AppProcesses.of(process));
            if (found == null || found.nodeCount() < 2) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500)); // a browser builds its tree after its window
            }
        }
        final String busName = found.busName();
        for (int i = 0; i < warmup; i++) {
            source.requestFullRefresh().get(60, TimeUnit.SECONDS);
        }
        final Histogram refresh = new Histogram(3);
        final Histogram naive = new Histogram(3);
        final Histogram appCpu = new Histogram(3);
        final int every = Math.max(1, runs / Math.max(1, naiveRuns));
        int visited = 0;
        boolean complete = true;
        for (int i = 0; i < runs; i++) {
            final AppProcesses processes = AppProcesses.of(process);
            final long cpu0 = processes.onCpuNs();
            source.requestFullRefresh().get(60, TimeUnit.SECONDS);
            appCpu.recordValue(Math.max(0, processes.onCpuNs() - cpu0));
            final AtspiDiagnostics.App now = byBusName(source, busName);
            refresh.recordValue(now.lastRefreshNs());
            complete &= now.complete();
            if (i % every == 0 && naive.getTotalCount() < naiveRuns) {
                final long t0 = System.nanoTime();
                visited = app.guarded() ? walk.count(busName, maxChildren, maxNodes) : walk.count(busName);
                naive.recordValue(System.nanoTime() - t0);
            }
        }
        final AtspiDiagnostics.App after = byBusName(source, busName);
        return new Row(app, after.nodeCount(), visited, app.guarded() ? walk.capped() : 0, complete, refresh, naive, appCpu,
            after.lastError());
    }

    private static AtspiDiagnostics.App find(final AtspiSource source, final AppProcesses processes) {
        AtspiDiagnostics.App best = null;
        for (final AtspiDiagnostics.App a : source.diagnostics().applications()) {
            if (processes.pids().contains(a.pid()) && (best == null || a.nodeCount() > best.nodeCount())) {
                best = a;
            }
        }
        return best;
    }

    private static AtspiDiagnostics.App byBusName(final AtspiSource source, final String busName) {
        for (final AtspiDiagnostics.App a : source.diagnostics().applications()) {
            if (a.busName().equals(busName)) {
                return a;
            }
        }
        throw new IllegalStateException(busName + " left the registry: " + source.diagnostics());
    }

    /** The table's header and one line per row (ms). */
    static void print(final Iterable<Row> rows) {
        System.out.printf("%n%-20s %6s %7s %6s %9s %9s %10s %9s %8s %9s %s%n", "full refresh vs naive", "nodes",
            "visited", "capped", "full p50", "full p99", "naive p50", "ratio", "app cpu", "complete", "note");
        for (final Row r : rows) {
            if (r.refresh() == null) {
                System.out.printf("%-20s %s%n", r.app().label, r.error());
                continue;
            }
            System.out.printf(Locale.ROOT, "%-20s %6d %7d %6d %9.1f %9.1f %10.1f %9.2f %8.1f %9s %s%n", r.app().label,
                r.nodes(), r.visited(), r.capped(), r.refresh().getValueAtPercentile(50) / 1e6,
                r.refresh().getValueAtPercentile(99) / 1e6, r.naive().getValueAtPercentile(50) / 1e6, r.ratio(),
                r.appCpu().getValueAtPercentile(50) / 1e6, r.complete(), r.app().guarded() ? "naive walk bounded" : "");
            System.out.printf(Locale.ROOT, "%s app=%s nodes=%d%n", AtspiRefreshBench.line("realapps_refresh", r.refresh()),
                r.app().label, r.nodes());
            System.out.printf(Locale.ROOT, "%s app=%s visited=%d capped=%d%n",
                AtspiRefreshBench.line("realapps_naive", r.naive()), r.app().label, r.visited(), r.capped());
            System.out.printf(Locale.ROOT, "BENCH figure=realapps_refresh_vs_naive app=%s p50_ratio=%.2f app_cpu_p50_ns=%d "
                + "complete=%s%n", r.app().label, r.ratio(), r.appCpu().getValueAtPercentile(50), r.complete());
        }
    }
}
