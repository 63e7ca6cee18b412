package dev.saccade.bench;

import static dev.saccade.bench.ClickBench.intArg;
import static dev.saccade.bench.ClickBench.stringArg;

import dev.saccade.client.AgentClient;
import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetFlyweight;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@code bench/run realapps} (bench/README.md "Real applications"): what watching real
 * applications costs them and the owner, in one run.
 * <ol>
 *   <li>Each application idle, with the owner watching and without: a real test desktop, the
 *       built distribution's {@code saccade supervisor run} (owner, input helper), then the
 *       owner and supervisor stopped (SIGSTOP) while every application starts. Phases of
 *       {@code seconds}: never watched (started while the owner was stopped, never read); then
 *       {@code rounds} times watched (SIGCONT, {@code settle} seconds, measured) and stopped
 *       again (SIGSTOP, {@code settle}, measured). Per application, all its processes: CPU ticks
 *       and resident memory at each phase's end. Goals: watched memory at most 1.1 × never
 *       watched; watched CPU at most 1 % of a core above stopped.</li>
 *   <li>Each application's full refresh against a naive walk of it ({@link RealAppRefresh}, a
 *       desktop each).</li>
 *   <li>The owner's CPU and memory with every application open and idle (the watched phases),
 *       against the same owner on the same desktop before any application started. Goal: at most
 *       0.5 % of a core.</li>
 * </ol>
 * Settings: {@code seconds} (30), {@code settle} (15), {@code rounds} (2), {@code apps} (all, or
 * labels such as {@code chromium,xterm}), {@code parts} (idle,refresh), {@code runs} (20),
 * {@code naive.runs} (3), {@code warmup} (3), {@code naive.max.children} (100),
 * {@code naive.max.nodes} (20000), {@code dist} (cli/target/saccade).
 */
public final class RealAppsBench {
    private static final double GOAL_RSS_RATIO = 1.1;
    private static final double GOAL_APP_CPU_PERCENT = 1.0;
    private static final double GOAL_OWNER_PERCENT = 0.5;

    /** What one phase measured: seconds, then per application (and per service process) ticks and KiB. */
    record Phase(String name, double seconds, Map<RealApp, long[]> apps, Map<String, long[]> services) {
    }

    private RealAppsBench() {
    }

    public static void main(final String[] args) throws Exception {
        final int seconds = intArg(args, "seconds", 30);
        final int settle = intArg(args, "settle", 15);
        final int rounds = intArg(args, "rounds", 2);
        final List<RealApp> apps = RealApp.parse(stringArg(args, "apps", "all"));
        final String parts = stringArg(args, "parts", "idle,refresh");
        final Path dist = Path.of(stringArg(args, "dist", "cli/target/saccade")).toAbsolutePath();
        System.out.printf("real applications (bench/README.md): apps=%s parts=%s seconds=%d settle=%d rounds=%d load=%s%n",
            apps, parts, seconds, settle, rounds, AtspiRefreshBench.loadAverage());
        final Path scratch = Files.createTempDirectory("saccade-bench-realapps-",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final List<RealAppRefresh.Row> refresh = new ArrayList<>();
        List<Phase> phases = List.of();
        Map<RealApp, Integer> targets = Map.of();
        try (BenchPage page = BenchPage.serve()) {
            if (parts.contains("refresh")) {
                for (final RealApp app : apps) {
                    if (!app.accessible) {
                        continue;
                    }
                    System.out.printf("refresh: %s (load %s)%n", app.label, AtspiRefreshBench.loadAverage());
                    try {
                        refresh.add(RealAppRefresh.measure(app, scratch.resolve("refresh"), page.url(),
                            intArg(args, "warmup", 3), intArg(args, "runs", 20), intArg(args, "naive.runs", 3),
                            intArg(args, "naive.max.children", 100), intArg(args, "naive.max.nodes", 20_000)));
                    } catch (final Exception | Error e) {
                        refresh.add(new RealAppRefresh.Row(app, 0, 0, 0, false, null, null, null, e.toString()));
                    }
                }
            }
            if (parts.contains("idle")) {
                targets = new EnumMap<>(RealApp.class);
                phases = idle(dist, apps, scratch.resolve("idle"), page.url(), seconds, settle, rounds, targets);
            }
        } finally {
            try (Stream<Path> files = Files.walk(scratch)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        System.out.printf("%nload average at the end: %s%n", AtspiRefreshBench.loadAverage());
        if (!phases.isEmpty()) {
            printIdle(apps, phases, targets);
        }
        if (!refresh.isEmpty()) {
            RealAppRefresh.print(refresh);
        }
    }

    private static List<Phase> idle(final Path dist, final List<RealApp> apps, final Path scratch, final String url,
        final int seconds, final int settle, final int rounds, final Map<RealApp, Integer> targets) throws Exception {
        if (!Files.isExecutable(dist.resolve("bin/saccade"))) {
            throw new IllegalArgumentException("no distribution at " + dist + " (bench/run realapps builds it)");
        }
        Files.createDirectories(scratch);
        final Path runtime = scratch.resolve("saccade");
        final List<Phase> phases = new ArrayList<>();
        final Map<RealApp, Process> running = new EnumMap<>(RealApp.class);
        Process supervisor = null;
        try (TestDesktop desktop = TestDesktop.start()) {
            final ProcessBuilder builder = desktop.configure(new ProcessBuilder(dist.resolve("bin/saccade").toString(),
                "supervisor", "run", "--display", desktop.display(), "--runtime-dir", runtime.toString(),
                "--input-helper", "SUPERVISED"));
            builder.environment().remove("NOTIFY_SOCKET");
            // the supervisor must not take the owner it finds stopped with it for hung when both continue
            builder.environment().put("SACCADE_JAVA_OPTS", "-Dsaccade.supervisor.unresponsive.ms=86400000");
            builder.redirectErrorStream(true).redirectOutput(scratch.resolve("supervisor.log").toFile());
            supervisor = builder.start();
            final long[] attached = IdleBench.awaitHelperAttached(runtime.resolve("saccade-helper.log"), supervisor);
            final Map<String, Long> services = Map.of("owner", attached[1], "supervisor", supervisor.pid(),
                "helper", attached[0]);
            System.out.printf("idle: owner %d, supervisor %d, helper %d; settling %d s%n", attached[1], supervisor.pid(),
                attached[0], settle);
            TimeUnit.SECONDS.sleep(settle);
            phases.add(phase("owner, no application", seconds, running, services));
            signal("STOP", supervisor.pid(), attached[1]);
            final Map<RealApp, Long> windows = new EnumMap<>(RealApp.class);
            for (final RealApp app : apps) {
                running.put(app, app.launch(desktop, scratch, url));
            }
            for (final RealApp app : apps) {
                windows.put(app, app.awaitWindow(desktop, running.get(app), 180_000));
            }
            System.out.printf("all %d windows shown (load %s); settling %d s%n", windows.size(),
                AtspiRefreshBench.loadAverage(), settle);
            TimeUnit.SECONDS.sleep(settle);
            phases.add(phase("never watched", seconds, running, services));
            for (int r = 1; r <= rounds; r++) {
                signal("CONT", attached[1], supervisor.pid());
                TimeUnit.SECONDS.sleep(settle);
                if (r == 1) {
                    targets.putAll(targets(runtime, windows));
                }
                phases.add(phase("watched " + r, seconds, running, services));
                signal("STOP", supervisor.pid(), attached[1]);
                TimeUnit.SECONDS.sleep(settle);
                phases.add(phase("stopped " + r, seconds, running, services));
            }
            signal("CONT", attached[1], supervisor.pid());
            if (ProcessHandle.of(attached[1]).isEmpty()) {
                System.out.println("the owner is gone: the figures after it left are not a watched application's");
            }
        } finally {
            for (final Process p : running.values()) {
                stop(p);
            }
            if (supervisor != null) {
                stop(supervisor);
            }
        }
        return phases;
    }

    /** Measures one phase of {@code seconds}: each application's ticks and KiB, each service's. */
    private static Phase phase(final String name, final int seconds, final Map<RealApp, Process> apps,
        final Map<String, Long> services) throws Exception {
        final Map<RealApp, Map<Long, Long>> before = new EnumMap<>(RealApp.class);
        apps.forEach((app, p) -> before.put(app, AppProcesses.of(p).ticks()));
        final Map<String, Map<Long, Long>> serviceBefore = new HashMap<>();
        services.forEach((s, pid) -> serviceBefore.put(s, AppProcesses.of(pid).ticks()));
        final Map<String, Long> ownerThreads = IdleBench.threadCpuNs(services.get("owner"));
        final long t0 = System.nanoTime();
        TimeUnit.SECONDS.sleep(seconds);
        final double elapsed = (System.nanoTime() - t0) / 1e9;
        final StringBuilder busiest = new StringBuilder();
        IdleBench.threadCpuNs(services.get("owner")).entrySet().stream()
            .map(e -> Map.entry(e.getKey(), e.getValue() - ownerThreads.getOrDefault(e.getKey(), 0L)))
            .filter(e -> e.getValue() > 0).sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(4)
            .forEach(e -> busiest.append(String.format(Locale.ROOT, " %s %.3f%%", e.getKey(), e.getValue() / 1e7 / elapsed)));
        final Map<RealApp, long[]> appFigures = new EnumMap<>(RealApp.class);
        for (final Map.Entry<RealApp, Process> e : apps.entrySet()) {
            final AppProcesses now = AppProcesses.of(e.getValue());
            appFigures.put(e.getKey(), new long[] {AppProcesses.spent(before.get(e.getKey()), now.ticks()), now.rssKib(),
                now.pids().size()});
        }
        final Map<String, long[]> serviceFigures = new HashMap<>();
        for (final Map.Entry<String, Long> e : services.entrySet()) {
            final AppProcesses now = AppProcesses.of(e.getValue());
            serviceFigures.put(e.getKey(), new long[] {AppProcesses.spent(serviceBefore.get(e.getKey()), now.ticks()),
                now.rssKib()});
        }
        final long[] owner = serviceFigures.get("owner");
        System.out.printf(Locale.ROOT, "phase %-22s %.1f s: owner %.3f %% of a core, %d MiB (load %s); busiest owner "
            + "threads:%s%n", name, elapsed, percent(owner[0], elapsed), owner[1] / 1024, AtspiRefreshBench.loadAverage(),
            busiest);
        return new Phase(name, elapsed, appFigures, serviceFigures);
    }

    /** Targets per application window in the owner's scene (SEMANTIC): proof that it reads them. */
    private static Map<RealApp, Integer> targets(final Path runtime, final Map<RealApp, Long> windows) throws IOException {
        final Map<RealApp, Integer> counts = new EnumMap<>(RealApp.class);
        try (AgentClient client = AgentClient.connect(runtime.resolve(RuntimeDirectory.AGENT_SOCKET_NAME),
            Duration.ofSeconds(10))) {
            client.hello(1, Capability.POLICY);
            final CompletionFlyweight c = LiveDesktop.observe(client, 2, SourceMode.SEMANTIC, 10_000,
                new CompletionFlyweight());
            final TargetFlyweight t = new TargetFlyweight();
            for (int i = 0; i < c.targetCount(); i++) {
                t.wrap(c.bytes(), c.offset() + c.targetsOffset() + (long) i * c.targetStride());
                for (final Map.Entry<RealApp, Long> w : windows.entrySet()) {
                    if (w.getValue() == t.windowId()) {
                        counts.merge(w.getKey(), 1, Integer::sum);
                    }
                }
            }
        }
        return counts;
    }

    private static void printIdle(final List<RealApp> apps, final List<Phase> phases, final Map<RealApp, Integer> targets) {
        final Phase never = phases.get(1);
        System.out.printf("%n%-20s %5s %7s %8s %8s %8s %8s %10s %10s %6s %s%n", "idle app (% of a core)", "procs",
            "targets", "never", "watched", "stopped", "+cpu", "never MiB", "watch MiB", "ratio", "goals");
        for (final RealApp app : apps) {
            final double[] watched = sum(phases, "watched", p -> p.apps().get(app));
            final double[] stopped = sum(phases, "stopped", p -> p.apps().get(app));
            final long neverKib = never.apps().get(app)[1];
            final double extra = watched[0] - stopped[0];
            final double ratio = watched[1] / neverKib;
            final boolean met = extra <= GOAL_APP_CPU_PERCENT && ratio <= GOAL_RSS_RATIO;
            System.out.printf(Locale.ROOT, "%-20s %5d %7d %8.3f %8.3f %8.3f %+8.3f %10.1f %10.1f %6.3f %s%n", app.label,
                never.apps().get(app)[2], targets.getOrDefault(app, 0), percent(never.apps().get(app)[0], never.seconds()),
                watched[0], stopped[0], extra, neverKib / 1024.0, watched[1] / 1024.0, ratio, met ? "met" : "NOT MET");
            System.out.printf(Locale.ROOT, "BENCH figure=realapps_idle app=%s targets=%d never_percent=%.3f "
                    + "watched_percent=%.3f stopped_percent=%.3f extra_percent=%.3f never_rss_kib=%d watched_rss_kib=%d "
                    + "rss_ratio=%.3f goal_extra_percent=1.0 goal_rss_ratio=1.1 met=%s%n", app.label,
                targets.getOrDefault(app, 0), percent(never.apps().get(app)[0], never.seconds()), watched[0], stopped[0],
                extra, neverKib, (long) watched[1], ratio, met);
        }
        final Phase alone = phases.get(0);
        final double[] owner = sum(phases, "watched", p -> p.services().get("owner"));
        final double ownerAlone = percent(alone.services().get("owner")[0], alone.seconds());
        final long aloneKib = alone.services().get("owner")[1];
        System.out.printf(Locale.ROOT, "%nowner, no application:  %.3f %% of a core, RSS %.1f MiB (supervisor %.3f %%, helper "
            + "%.3f %%)%n", ownerAlone, aloneKib / 1024.0, percent(alone.services().get("supervisor")[0], alone.seconds()),
            percent(alone.services().get("helper")[0], alone.seconds()));
        System.out.printf(Locale.ROOT, "owner, all %d open:     %.3f %% of a core, RSS %.1f MiB (%.2f ×; supervisor %.3f %%, "
                + "helper %.3f %%); goal %.1f %%: %s%n", apps.size(), owner[0], owner[1] / 1024.0, owner[1] / aloneKib,
            sum(phases, "watched", p -> p.services().get("supervisor"))[0],
            sum(phases, "watched", p -> p.services().get("helper"))[0], GOAL_OWNER_PERCENT,
            owner[0] <= GOAL_OWNER_PERCENT ? "met" : "NOT MET");
        System.out.printf(Locale.ROOT, "BENCH figure=realapps_owner apps=%d alone_percent=%.3f all_open_percent=%.3f "
                + "alone_rss_kib=%d all_open_rss_kib=%d goal_percent=0.5 met=%s%n", apps.size(), ownerAlone, owner[0],
            aloneKib, (long) owner[1], owner[0] <= GOAL_OWNER_PERCENT);
    }

    /** {% of a core over the phases named {@code prefix*}, the largest KiB at their ends} of what {@code figures} picks. */
    private static double[] sum(final List<Phase> phases, final String prefix, final Function<Phase, long[]> figures) {
        long ticks = 0;
        double seconds = 0;
        long kib = 0;
        for (final Phase p : phases) {
            if (p.name().startsWith(prefix)) {
                ticks += figures.apply(p)[0];
                seconds += p.seconds();
                kib = Math.max(kib, figures.apply(p)[1]);
            }
        }
        return new double[] {percent(ticks, seconds), kib};
    }

    private static double percent(final long ticks, final double seconds) {
        return 100.0 * ticks / AppProcesses.CLK_TCK / seconds;
    }

    /** {@code kill -SIG} to each pid in turn: the order matters (the supervisor watches the owner). */
    private static void signal(final String signal, final long... pids) throws Exception {
        for (final long pid : pids) {
            final Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + pid + " exited " + kill.exitValue());
            }
        }
    }

    /** SIGTERM to a process and its descendants, SIGKILL to what is left after 20 s. */
    static void stop(final Process process) {
        final List<ProcessHandle> all = new ArrayList<>(process.descendants().toList());
        all.add(process.toHandle());
        all.forEach(ProcessHandle::destroy);
        for (final ProcessHandle p : all) {
            try {
                p.onExit().get(20, TimeUnit.SECONDS);
            } catch (final Exception e) {
                p.destroyForcibly();
            }
        }
    }
}
