package dev.saccade.bench;

import dev.saccade.atspi.AtspiConfiguration;
import dev.saccade.atspi.AtspiDiagnostics;
import dev.saccade.client.TargetTexts;
import dev.saccade.demodesktop.WebBrowser;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TextMatch;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;

/**
 * {@code bench/run webdom} (bench/README.md "A web page changing its DOM"): a page on 127.0.0.1
 * changes a paragraph's text 10 times a second ({@link CounterPage}) in Chromium and in Firefox
 * ESR on a real test desktop under the real owner (accessibility on, turned on by the owner as
 * D50 says; pixel reading off). Per browser, over {@code seconds}: the values the page set, the
 * values the scene showed (a SEMANTIC query parked on each next generation, AFTER_GENERATION),
 * freshness from the page's change to the first generation that showed it (p50/p99), the
 * owner's CPU (this JVM's, less the measuring thread's), the browser's, and the floor: the
 * updates the browser itself sent on the accessibility bus ({@link BusUpdateFloor}), measured in
 * the same run. {@code modes} runs the owner with each way of reading a changed subtree
 * ({@code whole}: the application re-read whole; {@code subtree}: the changed subtree alone),
 * one owner per mode. Goals: every change seen, freshness p99 at most 150 ms, owner at most 5 %
 * of a core.
 */
public final class WebDomBench {
    /** The JIT's compiler threads as {@link #taskCpu()} names them. */
    private static final String JIT_THREADS = "CN CompilerThre";
    /**
     * The harness's own threads in the owner's process, as {@link #taskCpu()} names them: the bus
     * floor's dbus-monitor reader and the counter page's HTTP server. Not the owner's cost.
     */
    private static final List<String> HARNESS_THREADS = List.of("bus-update-floo", "counter-page-ht",
        "HTTP-Dispatcher");
    private static final long POLL_NS = TimeUnit.MILLISECONDS.toNanos(250);
    private static final Pattern TICK = Pattern.compile("tick (\\d+)");
    private static final byte[] PREFIX = CounterPage.PREFIX.getBytes(StandardCharsets.UTF_8);

    private WebDomBench() {
    }

    /** One browser under one mode. */
    private record Result(String mode, WebBrowser browser, int changes, int seen, int floor, Histogram freshness,
        Histogram busToScene, double ownerPercent, double ownerWithoutJitPercent, double clientPercent,
        double browserPercent, long generations, double seconds, long fullReads, long subtreeReads, long touches, Map<String, Integer> busEvents) {
    }

    public static void main(final String[] args) throws Exception {
        final int seconds = ClickBench.intArg(args, "seconds", 20);
        final int warmup = ClickBench.intArg(args, "warmup", 60);
        final String[] modes = ClickBench.stringArg(args, "modes", "whole,subtree").split(",");
        final String[] browsers = ClickBench.stringArg(args, "browsers", "chromium,firefox").split(",");
        System.setProperty("saccade.owner.pixel.enabled", "false");
        System.out.printf(Locale.ROOT, "Web DOM benchmark (bench/README.md): seconds=%d warmup=%d modes=%s load=%s%n",
            seconds, warmup, String.join(",", modes), Files.readString(Path.of("/proc/loadavg")).trim());
        final List<Result> results = new ArrayList<>();
        final Map<String, Double> idle = new HashMap<>();
        try (CounterPage page = CounterPage.start()) {
            for (final String mode : modes) {
                System.setProperty(AtspiConfiguration.SUBTREE_READS_PROP_NAME, Boolean.toString("subtree".equals(mode)));
                try (LiveDesktop live = LiveDesktop.start(true)) {
                    idle.put(mode, idle(live, mode, seconds / 2));
                    for (final String name : browsers) {
                        final WebBrowser browser = WebBrowser.valueOf(name.toUpperCase(Locale.ROOT));
                        final Result r = measure(live, page, mode, browser, seconds, warmup);
                        print(r);
                        results.add(r);
                    }
                }
            }
        }
        for (final Result s : results) {
            for (final Result w : results) {
                if ("subtree".equals(s.mode()) && "whole".equals(w.mode()) && s.browser() == w.browser()) {
                    System.out.printf(Locale.ROOT, "BENCH figure=webdom_subtree_vs_whole browser=%s owner_cpu_ratio=%.2f "
                            + "browser_cpu_ratio=%.2f freshness_p50_ratio=%.2f freshness_p99_ratio=%.2f seen_per_floor=%.2f/%.2f%n",
                        s.browser().name().toLowerCase(Locale.ROOT), s.ownerPercent() / w.ownerPercent(),
                        s.browserPercent() / w.browserPercent(),
                        s.freshness().getValueAtPercentile(50) / (double) w.freshness().getValueAtPercentile(50),
                        s.freshness().getValueAtPercentile(99) / (double) w.freshness().getValueAtPercentile(99),
                        s.seen() / (double) Math.max(1, s.floor()), w.seen() / (double) Math.max(1, w.floor()));
                }
            }
        }
        System.out.println();
        System.out.println("| mode | browser | values set | seen | floor (bus updates) | seen/floor | freshness p50 / p99 ms "
            + "| bus to scene p50 / p99 ms | owner % core (no page) | without JIT | browser % core | whole reads "
            + "| subtree reads |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (final Result r : results) {
            System.out.printf(Locale.ROOT, "| %s | %s | %d | %d | %d | %.2f | %.0f / %.0f | %.0f / %.0f | %.1f (%.1f) | %.1f "
                    + "| %.1f | %d | %d |%n",
                r.mode(), r.browser().label(), r.changes(), r.seen(), r.floor(), r.seen() / (double) Math.max(1, r.floor()),
                r.freshness().getValueAtPercentile(50) / 1e3, r.freshness().getValueAtPercentile(99) / 1e3,
                r.busToScene().getValueAtPercentile(50) / 1e3, r.busToScene().getValueAtPercentile(99) / 1e3,
                r.ownerPercent(), idle.get(r.mode()), r.ownerWithoutJitPercent(), r.browserPercent(), r.fullReads(), r.subtreeReads());
        }
    }

    private static Result measure(final LiveDesktop live, final CounterPage page, final String mode,
        final WebBrowser browser, final int seconds, final int warmup) throws Exception {
        final String run = browser.name().toLowerCase(Locale.ROOT) + "-" + mode;
        final Path scratch = live.runtime;
        final Process process = browser.start(live.desktop, scratch, page.url(run));
        try (BusUpdateFloor bus = BusUpdateFloor.start(live.desktop)) {
            awaitCounter(live, browser);
            final long warmEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(warmup);
            while (System.nanoTime() - warmEnd < 0) {
                live.query(-1, PREFIX, TextMatch.PREFIX, 0, 0);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // a warm-up of fixed length, reading as it goes
            }
            final AtspiDiagnostics.App app0 = app(live, process.pid());
            final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            final long cpu0 = processCpuNs();
            final long self0 = threads.getCurrentThreadCpuTime();
            final long browser0 = treeTicks(process.toHandle());
            final Map<String, Long> threads0 = taskCpu();
            final long generation0 = live.service.lastGeneration();
            final double fromMs = epochMs();
            final long start = System.nanoTime();
            final long end = start + TimeUnit.SECONDS.toNanos(seconds);
            final Map<Integer, Double> seenAt = new HashMap<>();
            long generation = live.service.lastGeneration();
            int lastSeen = -1;
            while (System.nanoTime() - end < 0) {
                final CompletionFlyweight c = live.query(-1, PREFIX, TextMatch.PREFIX, generation, POLL_NS);
                final double now = epochMs();
                if (c.result() == ResultCode.OK) {
                    generation = c.generation().generation();
                    final int v = tick(c);
                    if (v > lastSeen) {
                        seenAt.put(v, now);
                        lastSeen = v;
                    }
                } else if (c.result() != ResultCode.TIMEOUT) {
                    throw new IllegalStateException("query: " + ResultCode.name(c.result()));
                }
            }
            final double wallNs = System.nanoTime() - start;
            final double toMs = epochMs();
            final long processNs = processCpuNs() - cpu0 - (threads.getCurrentThreadCpuTime() - self0);
            final long selfNs = threads.getCurrentThreadCpuTime() - self0;
            final long browserTicks = treeTicks(process.toHandle()) - browser0;
            final Map<String, Long> threads1 = taskCpu();
            long harnessNs = 0;
            for (final String name : HARNESS_THREADS) {
                harnessNs += threads1.getOrDefault(name, 0L) - threads0.getOrDefault(name, 0L);
            }
            final long ownerNs = processNs - harnessNs;
            final long jitNs = threads1.getOrDefault(JIT_THREADS, 0L) - threads0.getOrDefault(JIT_THREADS, 0L);
            threads1.entrySet().stream().map(e -> Map.entry(e.getKey(), e.getValue() - threads0.getOrDefault(e.getKey(), 0L)))
                .filter(e -> e.getValue() > 10_000_000L).sorted((x, y) -> Long.compare(y.getValue(), x.getValue()))
                .forEach(e -> System.out.printf(Locale.ROOT, "  %s %s thread %-36s %8.1f ms CPU%n", mode, browser.label(),
                    e.getKey(), e.getValue() / 1e6));
            final long generations = live.service.lastGeneration() - generation0;
            final AtspiDiagnostics.App app1 = app(live, process.pid());
            awaitStampsThrough(page, run, toMs);
            final Map<Integer, Double> stamps = page.stamps(run);
            final Histogram freshness = new Histogram(3);
            final Histogram busToScene = new Histogram(3);
            int changes = 0;
            int seen = 0;
            for (final Map.Entry<Integer, Double> e : stamps.entrySet()) {
                // changes made in the window, with time left to show them before it closed
                if (e.getValue() < fromMs || e.getValue() >= toMs - 1_000) {
                    continue;
                }
                changes++;
                final Double at = seenAt.get(e.getKey());
                if (at != null) {
                    seen++;
                    freshness.recordValue(Math.max(0, Math.round((at - e.getValue()) * 1e3)));
                    final double announced = bus.lastUpdateBefore(app1.busName(), at);
                    if (!Double.isNaN(announced)) {
                        busToScene.recordValue(Math.max(0, Math.round((at - announced) * 1e3)));
                    }
                }
            }
            final int floor = bus.updates(app1.busName(), fromMs, toMs - 1_000);
            return new Result(mode, browser, changes, seen, floor, freshness, busToScene, 100.0 * ownerNs / wallNs,
                100.0 * (ownerNs - jitNs) / wallNs,
                100.0 * selfNs / wallNs, 100.0 * browserTicks * 1e7 / wallNs, generations, wallNs / 1e9,
                app1.fullReads() - app0.fullReads(), app1.subtrees() - app0.subtrees(), app1.touches() - app0.touches(),
                bus.members(app1.busName(), fromMs, toMs - 1_000));
        } finally {
            WebBrowser.stop(process);
        }
    }

    /**
     * The owner's CPU with the same client parked on each next generation and no browser: what
     * a connected client costs it before any page changes (percent of a core).
     */
    private static double idle(final LiveDesktop live, final String mode, final int seconds) throws Exception {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final long cpu0 = processCpuNs();
        final long self0 = threads.getCurrentThreadCpuTime();
        final long start = System.nanoTime();
        final long end = start + TimeUnit.SECONDS.toNanos(seconds);
        long generation = live.service.lastGeneration();
        while (System.nanoTime() - end < 0) {
            final CompletionFlyweight c = live.query(-1, PREFIX, TextMatch.PREFIX, generation, POLL_NS);
            if (c.result() == ResultCode.OK) {
                generation = c.generation().generation();
            }
        }
        final double wallNs = System.nanoTime() - start;
        final double percent = 100.0 * (processCpuNs() - cpu0 - (threads.getCurrentThreadCpuTime() - self0)) / wallNs;
        System.out.printf(Locale.ROOT, "BENCH figure=webdom_no_page mode=%s seconds=%.1f owner_percent_core=%.2f%n", mode,
            wallNs / 1e9, percent);
        return percent;
    }

    private static void print(final Result r) {
        System.out.printf(Locale.ROOT, "BENCH figure=webdom mode=%s browser=%s seconds=%.1f changes=%d seen=%d "
                + "bus_updates=%d seen_per_floor=%.2f freshness_p50_ms=%.1f freshness_p99_ms=%.1f freshness_max_ms=%.1f "
                + "bus_to_scene_p50_ms=%.1f bus_to_scene_p99_ms=%.1f "
                + "owner_percent_core=%.2f owner_without_jit_percent_core=%.2f client_percent_core=%.2f browser_percent_core=%.1f generations_per_s=%.1f "
                + "whole_reads=%d subtree_reads=%d touches=%d bus_events=%s goal_freshness_p99_ms=150 goal_owner_percent=5%n",
            r.mode(), r.browser().name().toLowerCase(Locale.ROOT), r.seconds(), r.changes(), r.seen(), r.floor(),
            r.seen() / (double) Math.max(1, r.floor()), r.freshness().getValueAtPercentile(50) / 1e3,
            r.freshness().getValueAtPercentile(99) / 1e3, r.freshness().getMaxValue() / 1e3,
            r.busToScene().getValueAtPercentile(50) / 1e3, r.busToScene().getValueAtPercentile(99) / 1e3, r.ownerPercent(),
            r.ownerWithoutJitPercent(),
            r.clientPercent(), r.browserPercent(), r.generations() / r.seconds(), r.fullReads(), r.subtreeReads(),
            r.touches(), r.busEvents());
    }

    /** Waits until the scene shows the page's counter (the browser builds its tree after its window shows). */
    private static void awaitCounter(final LiveDesktop live, final WebBrowser browser) throws Exception {
        final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        long generation = 0;
        while (System.nanoTime() - until < 0) {
            final CompletionFlyweight c = live.query(-1, PREFIX, TextMatch.PREFIX, generation, POLL_NS);
            if (c.result() == ResultCode.OK) {
                if (tick(c) >= 0) {
                    return;
                }
                generation = c.generation().generation();
            }
        }
        throw new IllegalStateException(browser.label() + "'s counter never reached the scene: "
            + live.service.accessibility().diagnostics());
    }

    /** Waits until the page has posted the stamp of a change made at or after {@code toMs}: every earlier one is in. */
    private static void awaitStampsThrough(final CounterPage page, final String run, final double toMs) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (page.stamps(run).values().stream().noneMatch(at -> at >= toMs)) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the page posted no stamp after the measured window within 10 s");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    /** The highest counter value among the completion's targets, -1 if none shows one. */
    private static int tick(final CompletionFlyweight c) {
        int best = -1;
        final TargetFlyweight t = new TargetFlyweight();
        for (int i = 0; i < c.targetCount(); i++) {
            final Matcher m = TICK.matcher(TargetTexts.of(c, i, t));
            if (m.find()) {
                best = Math.max(best, Integer.parseInt(m.group(1)));
            }
        }
        return best;
    }

    /** The browser's application in the source's diagnostics: by its pid or a child process's. */
    private static AtspiDiagnostics.App app(final LiveDesktop live, final long pid) {
        final java.util.Set<Long> tree = new java.util.HashSet<>();
        tree.add(pid);
        ProcessHandle.of(pid).ifPresent(p -> p.descendants().forEach(d -> tree.add(d.pid())));
        for (final AtspiDiagnostics.App a : live.service.accessibility().diagnostics().applications()) {
            if (tree.contains(a.pid())) {
                return a;
            }
        }
        throw new IllegalStateException("no application of pid " + pid + " in "
            + live.service.accessibility().diagnostics());
    }

    private static double epochMs() {
        final Instant now = Instant.now();
        return now.getEpochSecond() * 1e3 + now.getNano() / 1e6;
    }

    /** CPU ticks of a process and all its descendants (a browser's renderers and content processes). */
    private static long treeTicks(final ProcessHandle root) {
        long sum = 0;
        final List<ProcessHandle> all = new ArrayList<>();
        all.add(root);
        root.descendants().forEach(all::add);
        for (final ProcessHandle p : all) {
            try {
                sum += AtspiRefreshBench.ticks(p.pid());
            } catch (final java.io.IOException | RuntimeException e) {
                // reason: a process that ended between listing and reading counts as nothing
            }
        }
        return sum;
    }

    /**
     * CPU time of each of this process's threads by name ({@code /proc/self/task/<tid>/schedstat},
     * ns; the kernel's 15-character names, digits folded): the collector's and the JIT's threads,
     * which the JVM's thread beans do not list, too.
     */
    private static Map<String, Long> taskCpu() {
        final Map<String, Long> out = new java.util.TreeMap<>();
        try (java.nio.file.DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (final Path task : tasks) {
                try {
                    final String name = Files.readString(task.resolve("comm")).trim().replaceAll("\\d+", "N");
                    final long ns = Long.parseLong(Files.readString(task.resolve("schedstat")).split(" ")[0]);
                    out.merge(name, ns, Long::sum);
                } catch (final java.io.IOException | RuntimeException e) {
                    // reason: a thread that ended while listed counts as nothing
                }
            }
        } catch (final java.io.IOException e) {
            return out;
        }
        return out;
    }

    private static long processCpuNs() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime();
    }
}
