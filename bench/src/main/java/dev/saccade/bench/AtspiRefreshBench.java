package dev.saccade.bench;

import static dev.saccade.bench.ClickBench.intArg;
import static dev.saccade.bench.ClickBench.stringArg;

import dev.saccade.atspi.AtspiConfiguration;
import dev.saccade.atspi.AtspiDiagnostics;
import dev.saccade.atspi.AtspiSource;
import dev.saccade.atspi.AtspiSourceContext;
import dev.saccade.atspi.NaiveWalk;
import dev.saccade.demodesktop.AppHandle;
import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.desktop.AccessibilitySnapshot;
import dev.saccade.desktop.AccessibleApplication;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import org.freedesktop.dbus.exceptions.DBusException;

/**
 * {@code bench/run atspi} (bench/README.md "AT-SPI refresh"): a real {@link AtspiSource} on a
 * real test desktop with gtk3-demo, three series in one run, interleaved so all see the same
 * machine load:
 * <ul>
 *   <li>{@code atspi_refresh}: the application's own full re-read ({@link AtspiDiagnostics.App#lastRefreshNs()},
 *       from its first call to its nodes, without the coalescing wait and the registry listing),
 *       after {@link AtspiSource#requestFullRefresh()};</li>
 *   <li>{@code atspi_naive}: the baseline, a naive walk: GetChildren recursion, then GetRole, Name,
 *       GetState and GetExtents per node, one blocking call at a time;</li>
 *   <li>{@code atspi_steady}: a refresh when nothing changed ({@link AtspiSource#requestRefresh()},
 *       what the owner asks after an X11 window-list change), wall time to its future.</li>
 * </ul>
 * Beside them, per full refresh, the CPU gtk3-demo and the X server spent in it
 * ({@code atspi_refresh_app_cpu}, {@code atspi_refresh_x_cpu}: the tasks' schedstat): the part of
 * the refresh that is the application answering.
 * The naive walk is the source module's {@link NaiveWalk}, over the source's own bus wrapper. Settings ({@code name=value} or {@code saccade.bench.<name>}): {@code warmup}
 * (300), {@code runs} (200), {@code naive.runs} (20), {@code peer} (true), {@code app} (gtk3-demo; or
 * gnome-calculator, a GTK 4 application).
 */
public final class AtspiRefreshBench {
    static final double GOAL_P50_NS = 15e6;
    static final double GOAL_RATIO = 15.0;
    static final double GOAL_STEADY_P50_NS = 2e6;

    private AtspiRefreshBench() {
    }

    public static void main(final String[] args) throws Exception {
        final int warmup = intArg(args, "warmup", 300);
        final int runs = intArg(args, "runs", 200);
        final int naiveRuns = intArg(args, "naive.runs", 20);
        final boolean peer = Boolean.parseBoolean(stringArg(args, "peer", "true"));
        // app=gnome-calculator reads a GTK 4 application instead (D46); never LibreOffice: the naive
        // walk would list a sheet's 2^30 cells (D47)
        final DemoApp which = DemoApp.valueOf(stringArg(args, "app", "gtk3-demo").toUpperCase(Locale.ROOT).replace('-', '_'));
        System.out.printf(Locale.ROOT, "AT-SPI refresh benchmark (bench/README.md): warmup=%d runs=%d naive.runs=%d "
            + "peer=%s load=%s%n", warmup, runs, naiveRuns, peer, loadAverage());
        try (TestDesktop desktop = TestDesktop.start(which)) {
            final AppHandle demo = desktop.apps().get(0);
            final String busName = demo.accessibleBusName();
            final AtomicReference<AccessibilitySnapshot> last = new AtomicReference<>();
            final AtspiSourceContext context = new AtspiSourceContext()
                .sessionBusAddress(desktop.sessionBusAddress())
                .coalesceQuietMs(0)
                .coalesceMaxMs(0)
                .peerToPeer(peer)
                // the incremental reading of D19 (off by default in the owner): what atspi_steady measures
                .fullRefreshMs(AtspiConfiguration.fullRefreshMs());
            try (AtspiSource source = new AtspiSource(context, last::set);
                 NaiveWalk bus = NaiveWalk.connect(desktop.accessibilityBusAddress())) {
                source.start();
                final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (last.get() == null || last.get().application(busName) == null
                    || last.get().application(busName).nodes().isEmpty()) {
                    if (System.nanoTime() > until) {
                        throw new IllegalStateException("gtk3-demo never appeared: " + source.diagnostics());
                    }
                    source.requestRefresh().get(10, TimeUnit.SECONDS);
                }
                for (int i = 0; i < warmup; i++) {
                    source.requestFullRefresh().get(10, TimeUnit.SECONDS);
                    source.requestRefresh().get(10, TimeUnit.SECONDS);
                }
                final int nodes = source.latest().application(busName).nodes().size();
                final int visited = bus.count(busName);
                System.out.printf(Locale.ROOT, "%s nodes=%d peerToPeer=%s naive walk visits %d%n", which, nodes,
                    app(source, busName).peerToPeer(), visited);

                final Histogram refresh = new Histogram(3);
                final Histogram refreshWall = new Histogram(3);
                final Histogram steady = new Histogram(3);
                final Histogram naive = new Histogram(3);
                // gtk3-demo's and the X server's own CPU in each full refresh: the part of its time no
                // client can take away with the same calls (GetExtents costs the toolkit an X round trip).
                final Histogram appCpu = new Histogram(3);
                final Histogram xCpu = new Histogram(3);
                final long xPid = xServerPid(desktop);
                final Map<String, Long> cpuBefore = cpuTicks(desktop, demo.pid());
                final long wallStart = System.nanoTime();
                final long refreshesBefore = source.diagnostics().refreshes();
                final int every = Math.max(1, runs / Math.max(1, naiveRuns));
                for (int i = 0; i < runs; i++) {
                    final long app0 = onCpuNs(demo.pid());
                    final long x0 = xPid > 0 ? onCpuNs(xPid) : 0;
                    long t0 = System.nanoTime();
                    source.requestFullRefresh().get(10, TimeUnit.SECONDS);
                    refreshWall.recordValue(System.nanoTime() - t0);
                    appCpu.recordValue(Math.max(0, onCpuNs(demo.pid()) - app0));
                    xCpu.recordValue(xPid > 0 ? Math.max(0, onCpuNs(xPid) - x0) : 0);
                    refresh.recordValue(app(source, busName).lastRefreshNs());
                    t0 = System.nanoTime();
                    source.requestRefresh().get(10, TimeUnit.SECONDS);
                    steady.recordValue(System.nanoTime() - t0);
                    if (i % every == 0 && naive.getTotalCount() < naiveRuns) {
                        t0 = System.nanoTime();
                        bus.count(busName);
                        naive.recordValue(System.nanoTime() - t0);
                    }
                }
                final long wallMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - wallStart);
                final Map<String, Long> cpuAfter = cpuTicks(desktop, demo.pid());
                final AccessibleApplication after = source.latest().application(busName);
                System.out.printf("%-46s %6s %9s %9s %9s %9s%n", "series", "count", "p50 ms", "p90 ms", "p99 ms",
                    "max ms");
                print("full refresh (application's own time)", refresh);
                print("full refresh (wall, request to future)", refreshWall);
                print("refresh, nothing changed (wall)", steady);
                print("naive walk (baseline)", naive);
                print("gtk3-demo's CPU in a full refresh", appCpu);
                print("the X server's CPU in a full refresh", xCpu);
                final double ratio = (double) naive.getValueAtPercentile(50) / refresh.getValueAtPercentile(50);
                for (final String process : cpuAfter.keySet()) {
                    System.out.printf(Locale.ROOT, "cpu %s: %d ms over %d ms (all series)%n", process,
                        (cpuAfter.get(process) - cpuBefore.getOrDefault(process, 0L)) * 10, wallMs);
                }
                System.out.printf(Locale.ROOT, "passes %d over %d full and %d steady refreshes%n",
                    source.diagnostics().refreshes() - refreshesBefore, runs, runs);
                System.out.println(line("atspi_refresh", refresh) + " nodes=" + after.nodes().size()
                    + " goal_p50_ns=15000000 met=" + (refresh.getValueAtPercentile(50) <= GOAL_P50_NS));
                System.out.println(line("atspi_refresh_wall", refreshWall));
                System.out.printf(Locale.ROOT, "%s share_of_refresh_p50=%.2f%n", line("atspi_refresh_app_cpu", appCpu),
                    (double) appCpu.getValueAtPercentile(50) / refresh.getValueAtPercentile(50));
                System.out.println(line("atspi_refresh_x_cpu", xCpu));
                System.out.println(line("atspi_naive", naive) + " visited=" + visited);
                System.out.printf(Locale.ROOT, "BENCH figure=atspi_refresh_vs_naive p50_ratio=%.2f p99_ratio=%.2f "
                        + "goal_p50_ratio=15.0 met=%s%n", ratio,
                    (double) naive.getValueAtPercentile(99) / refresh.getValueAtPercentile(99), ratio >= GOAL_RATIO);
                System.out.println(line("atspi_steady", steady) + " goal_p50_ns=2000000 met="
                    + (steady.getValueAtPercentile(50) <= GOAL_STEADY_P50_NS));
            }
        }
    }

    private static AtspiDiagnostics.App app(final AtspiSource source, final String busName) {
        for (final AtspiDiagnostics.App app : source.diagnostics().applications()) {
            if (app.busName().equals(busName)) {
                return app;
            }
        }
        throw new IllegalStateException("no " + busName + " in " + source.diagnostics());
    }

    /** utime + stime in clock ticks (10 ms) of the demo, the desktop's dbus-daemons and this JVM. */
    private static Map<String, Long> cpuTicks(final TestDesktop desktop, final long demoPid) throws IOException {
        final Map<String, Long> ticks = new TreeMap<>();
        ticks.put("gtk3-demo", ticks(demoPid));
        ticks.put("this jvm", ticks(ManagementFactory.getRuntimeMXBean().getPid()));
        for (final ProcessHandle p : desktop.processes()) {
            if (p.info().command().orElse("").endsWith("dbus-daemon")) {
                ticks.put("dbus-daemon " + p.pid(), ticks(p.pid()));
            }
        }
        return ticks;
    }

    /** Nanoseconds a process's threads have run (the first field of each task's schedstat). */
    static long onCpuNs(final long pid) throws IOException {
        long ns = 0;
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (final Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    ns += Long.parseLong(Files.readString(task.resolve("schedstat")).split(" ")[0]);
                } catch (final IOException e) {
                    // the thread ended meanwhile
                }
            }
        }
        return ns;
    }

    private static long xServerPid(final TestDesktop desktop) {
        for (final ProcessHandle p : desktop.processes()) {
            if (p.info().command().orElse("").endsWith("Xvfb")) {
                return p.pid();
            }
        }
        return -1;
    }

    /** utime + stime of a process in clock ticks (10 ms). */
    public static long ticks(final long pid) throws IOException {
        final String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    static String loadAverage() throws IOException {
        final String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
        return f[0] + "," + f[1] + "," + f[2];
    }

    private static void print(final String label, final Histogram h) {
        System.out.printf(Locale.ROOT, "%-46s %6d %9.2f %9.2f %9.2f %9.2f%n", label, h.getTotalCount(),
            h.getValueAtPercentile(50) / 1e6, h.getValueAtPercentile(90) / 1e6, h.getValueAtPercentile(99) / 1e6,
            h.getMaxValue() / 1e6);
    }

    static String line(final String figure, final Histogram h) {
        return String.format(Locale.ROOT, "BENCH figure=%s count=%d p50_ns=%d p90_ns=%d p99_ns=%d max_ns=%d", figure,
            h.getTotalCount(), h.getValueAtPercentile(50), h.getValueAtPercentile(90), h.getValueAtPercentile(99),
            h.getMaxValue());
    }
}
