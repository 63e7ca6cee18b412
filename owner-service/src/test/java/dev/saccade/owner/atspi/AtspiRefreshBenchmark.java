package dev.saccade.owner.atspi;

import dev.saccade.testdesktop.AppHandle;
import dev.saccade.testdesktop.DemoApp;
import dev.saccade.testdesktop.TestDesktop;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.SnapshotQueue;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.types.UInt32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Not a test: measures a gtk3-demo refresh by the source against a naive walk (GetChildren
 * recursion, then GetRole, Name, GetState and GetExtents per node, one blocking call at a time) in
 * the same run, interleaved so both see the same machine load, and prints p50/p99, the ratio and
 * where the CPU went. Surefire skips it (not a *Test name); run it with
 * <pre>
 * mvn -o -q -B -pl owner-service test -Dtest=AtspiRefreshBenchmark -Dsaccade.bench=true \
 *     [-Dsaccade.bench.runs=200 -Dsaccade.bench.naive.runs=20 -Dsaccade.bench.warmup=300 \
 *      -Dsaccade.bench.peer=false]
 * </pre>
 * The numbers land in {@code owner-service/target/surefire-reports/*AtspiRefreshBenchmark-output.txt}.
 * The measured time is the application's own refresh ({@link AtspiDiagnostics.App#lastRefreshNs()}):
 * from its first call to its nodes, without the coalescing wait and registry listing of the pass.
 */
@EnabledIfSystemProperty(named = "saccade.bench", matches = "true")
@WithTestDesktop(apps = {DemoApp.GTK3_DEMO})
class AtspiRefreshBenchmark {
    private static final int WARMUP = Integer.getInteger("saccade.bench.warmup", 300);
    private static final int RUNS = Integer.getInteger("saccade.bench.runs", 200);
    private static final int NAIVE_RUNS = Integer.getInteger("saccade.bench.naive.runs", 20);
    private static final boolean PEER = Boolean.parseBoolean(System.getProperty("saccade.bench.peer", "true"));
    private static final long CALL_TIMEOUT_MS = 5_000;

    @Test
    @Timeout(900)
    void refreshOfGtkDemoAgainstNaiveWalk(final TestDesktop desktop) throws Exception {
        final AppHandle demo = desktop.apps().get(0);
        final String busName = demo.accessibleBusName();
        final SnapshotQueue<AccessibilitySnapshot> snapshots = new SnapshotQueue<>();
        final AtspiSourceContext context = new AtspiSourceContext()
            .sessionBusAddress(desktop.sessionBusAddress())
            .coalesceQuietMs(0)
            .coalesceMaxMs(0)
            .peerToPeer(PEER);
        try (AtspiSource source = new AtspiSource(context, snapshots);
             AtspiBus bus = AtspiBus.connect(desktop.accessibilityBusAddress())) {
            source.start();
            snapshots.awaitNewestFirst(s -> s.application(busName) != null, Duration.ofSeconds(20), "gtk3-demo");
            for (int i = 0; i < WARMUP; i++) {
                source.requestRefresh().get(10, TimeUnit.SECONDS);
            }
            System.out.println("gtk3-demo nodes=" + snapshots.last().application(busName).nodes().size()
                + " peerToPeer=" + app(source, busName).peerToPeer() + " naive walk visits " + naiveWalk(bus, busName));
            naiveWalk(bus, busName);

            final Map<String, Long> cpuBefore = cpuTicks(desktop, demo.pid());
            final long wallStart = System.nanoTime();
            final long[] refresh = new long[RUNS];
            final long[] naive = new long[NAIVE_RUNS];
            int n = 0;
            for (int i = 0; i < RUNS; i++) {
                source.requestRefresh().get(10, TimeUnit.SECONDS);
                refresh[i] = app(source, busName).lastRefreshNs();
                if (i % Math.max(1, RUNS / NAIVE_RUNS) == 0 && n < NAIVE_RUNS) {
                    final long t0 = System.nanoTime();
                    naiveWalk(bus, busName);
                    naive[n++] = System.nanoTime() - t0;
                }
            }
            final long wallMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - wallStart);
            final Map<String, Long> cpuAfter = cpuTicks(desktop, demo.pid());
            Arrays.sort(refresh);
            Arrays.sort(naive, 0, n);
            final long[] naiveRuns = Arrays.copyOf(naive, n);
            System.out.printf("source refresh: runs=%d p50=%.2f ms p99=%.2f ms min=%.2f ms max=%.2f ms%n", RUNS,
                ms(percentile(refresh, 50)), ms(percentile(refresh, 99)), ms(refresh[0]), ms(refresh[RUNS - 1]));
            System.out.printf("naive walk:     runs=%d p50=%.2f ms p99=%.2f ms min=%.2f ms max=%.2f ms%n", n,
                ms(percentile(naiveRuns, 50)), ms(percentile(naiveRuns, 99)), ms(naiveRuns[0]), ms(naiveRuns[n - 1]));
            System.out.printf("ratio (naive p50 / source p50) = %.1f%n",
                (double) percentile(naiveRuns, 50) / percentile(refresh, 50));
            for (final String process : cpuAfter.keySet()) {
                System.out.printf("cpu %s: %d ms over %d ms (both loops)%n", process,
                    (cpuAfter.get(process) - cpuBefore.getOrDefault(process, 0L)) * 10, wallMs);
            }
        }
    }

    private static AtspiDiagnostics.App app(final AtspiSource source, final String busName) {
        for (final AtspiDiagnostics.App app : source.diagnostics().applications()) {
            if (app.busName().equals(busName)) {
                return app;
            }
        }
        throw new AssertionError("no " + busName + " in " + source.diagnostics());
    }

    /** GetChildren recursion, then four blocking calls per node: what a straightforward client does. */
    private static int naiveWalk(final AtspiBus bus, final String busName) throws DBusException {
        return walk(bus, busName, AtspiBus.ROOT_PATH, 0);
    }

    private static int walk(final AtspiBus bus, final String busName, final String path, final int depth)
        throws DBusException {
        final Object children = bus.callAndWait(busName, path, AtspiBus.ACCESSIBLE, "GetChildren", null, CALL_TIMEOUT_MS)
            .value();
        int visited = 0;
        for (int i = 0, n = AtspiCall.length(children); i < n; i++) {
            final String child = AtspiCall.referencePath(AtspiCall.item(children, i));
            bus.callAndWait(busName, child, AtspiBus.ACCESSIBLE, "GetRole", null, CALL_TIMEOUT_MS);
            bus.callAndWait(busName, child, AtspiBus.PROPERTIES, "Get", "ss", CALL_TIMEOUT_MS, AtspiBus.ACCESSIBLE, "Name");
            bus.callAndWait(busName, child, AtspiBus.ACCESSIBLE, "GetState", null, CALL_TIMEOUT_MS);
            bus.callAndWait(busName, child, AtspiBus.COMPONENT, "GetExtents", "u", CALL_TIMEOUT_MS, new UInt32(0));
            visited += 1 + (depth < TreeWalk.MAX_WALK_DEPTH ? walk(bus, busName, child, depth + 1) : 0);
        }
        return visited;
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

    private static long ticks(final long pid) throws IOException {
        final String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    private static long percentile(final long[] sorted, final int p) {
        return sorted[Math.min(sorted.length - 1, Math.max(0, (int) Math.ceil(p / 100.0 * sorted.length) - 1))];
    }

    private static double ms(final long ns) {
        return ns / 1e6;
    }
}
