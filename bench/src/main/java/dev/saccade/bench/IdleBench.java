package dev.saccade.bench;

import dev.saccade.demodesktop.DemoApp;
import dev.saccade.demodesktop.TestDesktop;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * {@code bench/run idle}: what a login item costs while nothing happens. It starts a real test
 * desktop with a GTK app on it, then the built distribution's {@code saccade supervisor run} with
 * its input helper and an owner with accessibility on (what the login item runs), waits until the
 * helper is attached and a settle time has passed (JIT and first scans), and reads the CPU time
 * (utime + stime ticks of {@code /proc/<pid>/stat}, all threads) and the wake-ups (voluntary
 * context switches summed over {@code /proc/<pid>/task/*}) of the supervisor, the owner and the
 * helper over the measured window. Baselines in the same run: an idle {@code sleep} process and an
 * idle JVM (this JVM's classpath, a main that parks forever): the floor of any process and of any
 * JVM. Goal: the three together at most 0.3 % of one core.
 *
 * <p>Settings: {@code seconds} (60), {@code settle} (15), {@code dist} (the distribution;
 * {@code saccade.bench.dist}, set by bench/run to cli/target/saccade), {@code accessibility} (true).
 */
public final class IdleBench {
    private static final long CLK_TCK = 100; // getconf CLK_TCK on Linux
    private static final double GOAL_PERCENT = 0.3;

    private IdleBench() {
    }

    /** The idle-JVM baseline: parks forever. */
    public static final class IdleJvm {
        private IdleJvm() {
        }

        public static void main(final String[] args) {
            while (true) {
                LockSupport.park();
            }
        }
    }

    public static void main(final String[] args) throws Exception {
        final int seconds = ClickBench.intArg(args, "seconds", 60);
        final int settle = ClickBench.intArg(args, "settle", 15);
        final Path dist = Path.of(ClickBench.stringArg(args, "dist", "cli/target/saccade")).toAbsolutePath();
        final boolean accessibility = Boolean.parseBoolean(ClickBench.stringArg(args, "accessibility", "true"));
        if (!Files.isExecutable(dist.resolve("bin/saccade"))) {
            throw new IllegalArgumentException("no distribution at " + dist + " (build it: mvn -pl cli -am package)");
        }
        final List<Process> started = new ArrayList<>();
        final Path parent = Files.createTempDirectory("saccade-bench-idle-",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final Path runtime = parent.resolve("saccade");
        try (TestDesktop desktop = TestDesktop.start(DemoApp.ZENITY_ENTRY)) {
            final ProcessBuilder supervisor = desktop.configure(new ProcessBuilder(dist.resolve("bin/saccade").toString(),
                "supervisor", "run", "--display", desktop.display(), "--runtime-dir", runtime.toString(),
                "--input-helper", "SUPERVISED", "--owner-java-options",
                accessibility ? "" : "-Dsaccade.owner.accessibility=false"));
            supervisor.environment().remove("NOTIFY_SOCKET");
            supervisor.redirectErrorStream(true).redirectOutput(parent.resolve("supervisor.log").toFile());
            final Process sup = supervisor.start();
            started.add(sup);
            final long[] attached = awaitHelperAttached(runtime.resolve("saccade-helper.log"), sup);
            final long helperPid = attached[0];
            final long ownerPid = attached[1];
            final Process sleep = new ProcessBuilder("sleep", "100000").start();
            started.add(sleep);
            final Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), IdleJvm.class.getName()).start();
            started.add(jvm);
            System.out.printf("idle: supervisor %d, owner %d, helper %d attached; settling %d s, then measuring %d s%n",
                sup.pid(), ownerPid, helperPid, settle, seconds);
            park(TimeUnit.SECONDS.toNanos(settle));

            final Map<String, Long> pids = new LinkedHashMap<>();
            pids.put("supervisor", sup.pid());
            pids.put("owner", ownerPid);
            pids.put("helper", helperPid);
            pids.put("sleep", sleep.pid());
            pids.put("idle_jvm", jvm.pid());
            final Map<String, long[]> before = new LinkedHashMap<>();
            final Map<String, Map<String, Long>> threadsBefore = new LinkedHashMap<>();
            final Map<String, Map<String, Long>> cpuBefore = new LinkedHashMap<>();
            for (final Map.Entry<String, Long> e : pids.entrySet()) {
                before.put(e.getKey(), sample(e.getValue()));
                threadsBefore.put(e.getKey(), threadWakeups(e.getValue()));
                cpuBefore.put(e.getKey(), threadCpuNs(e.getValue()));
            }
            final long t0 = System.nanoTime();
            park(TimeUnit.SECONDS.toNanos(seconds));
            final double elapsedS = (System.nanoTime() - t0) / 1e9;
            long serviceTicks = 0;
            System.out.printf("%-11s %8s %9s %11s%n", "process", "ticks", "%core", "wakeups/s");
            for (final Map.Entry<String, Long> e : pids.entrySet()) {
                final long[] after = sample(e.getValue());
                final long ticks = after[0] - before.get(e.getKey())[0];
                final double wakeups = (after[1] - before.get(e.getKey())[1]) / elapsedS;
                final double percent = 100.0 * ticks / CLK_TCK / elapsedS;
                System.out.printf("%-11s %8d %9.3f %11.1f%n", e.getKey(), ticks, percent, wakeups);
                System.out.printf("BENCH figure=idle_%s seconds=%.1f ticks=%d percent_core=%.3f wakeups_per_s=%.1f%n",
                    e.getKey(), elapsedS, ticks, percent, wakeups);
                if (!e.getKey().equals("sleep") && !e.getKey().equals("idle_jvm")) {
                    serviceTicks += ticks;
                    printTopThreads(e.getKey(), threadsBefore.get(e.getKey()), threadWakeups(e.getValue()),
                        cpuBefore.get(e.getKey()), threadCpuNs(e.getValue()), elapsedS);
                }
            }
            final double percent = 100.0 * serviceTicks / CLK_TCK / elapsedS;
            final long jvmTicks = sample(jvm.pid())[0] - before.get("idle_jvm")[0];
            System.out.printf("supervisor+owner+helper: %.3f %% of one core (goal %.1f %%): %s; three idle JVMs would be %.3f %%%n",
                percent, GOAL_PERCENT, percent <= GOAL_PERCENT ? "MET" : "NOT MET", 3 * 100.0 * jvmTicks / CLK_TCK / elapsedS);
            System.out.printf("BENCH figure=idle_total seconds=%.1f ticks=%d percent_core=%.3f goal_percent=%.1f "
                + "idle_jvm_x3_percent=%.3f met=%s%n", elapsedS, serviceTicks, percent, GOAL_PERCENT,
                3 * 100.0 * jvmTicks / CLK_TCK / elapsedS, percent <= GOAL_PERCENT);
        } finally {
            for (final Process p : started) {
                p.destroy();
            }
            for (final Process p : started) {
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                }
            }
            try (Stream<Path> files = Files.walk(parent)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** {utime + stime ticks, voluntary context switches of all threads}. */
    private static long[] sample(final long pid) throws IOException {
        final String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
        final String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        final long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // fields 14 and 15
        long switches = 0;
        for (final long s : threadWakeups(pid).values()) {
            switches += s;
        }
        return new long[] {ticks, switches};
    }

    /** Voluntary context switches per thread ("name/tid"). */
    private static Map<String, Long> threadWakeups(final long pid) throws IOException {
        return threadStats(pid, false);
    }

    /** CPU time per thread in ns ("name/tid"), from schedstat: finer than the ticks, for the breakdown. */
    static Map<String, Long> threadCpuNs(final long pid) throws IOException {
        return threadStats(pid, true);
    }

    private static Map<String, Long> threadStats(final long pid, final boolean cpu) throws IOException {
        final Map<String, Long> out = new LinkedHashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (final Path task : tasks) {
                try {
                    String name = "?";
                    long switches = 0;
                    if (cpu) {
                        switches = Long.parseLong(Files.readString(task.resolve("schedstat")).trim().split(" ")[0]);
                    }
                    for (final String line : Files.readAllLines(task.resolve("status"), StandardCharsets.UTF_8)) {
                        if (line.startsWith("Name:")) {
                            name = line.substring(5).trim();
                        } else if (!cpu && line.startsWith("voluntary_ctxt_switches:")) {
                            switches = Long.parseLong(line.substring(24).trim());
                        }
                    }
                    out.put(name + "/" + task.getFileName(), switches);
                } catch (final IOException gone) {
                    // the thread ended between the listing and the read
                }
            }
        }
        return out;
    }

    /** The threads that woke most, with their wake-ups and CPU per second (ms/s = 0.1 % of a core). */
    private static void printTopThreads(final String process, final Map<String, Long> before, final Map<String, Long> after,
        final Map<String, Long> cpuBefore, final Map<String, Long> cpuAfter, final double elapsedS) {
        after.entrySet().stream()
            .map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
            .filter(e -> e.getValue() > 0)
            .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
            .limit(6)
            .forEach(e -> System.out.printf("    %s thread %-28s %8.1f wakeups/s %8.3f ms CPU/s%n", process, e.getKey(),
                e.getValue() / elapsedS,
                (cpuAfter.getOrDefault(e.getKey(), 0L) - cpuBefore.getOrDefault(e.getKey(), 0L)) / 1e6 / elapsedS));
    }

    /** {helper pid, owner pid} from the helper's "attached" line. */
    static long[] awaitHelperAttached(final Path helperLog, final Process supervisor) throws Exception {
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            if (Files.exists(helperLog)) {
                for (final String line : Files.readAllLines(helperLog, StandardCharsets.UTF_8)) {
                    final int at = line.indexOf("event=helper_attached pid=");
                    if (at >= 0) {
                        final String[] words = line.substring(at + 26).split(" ");
                        return new long[] {Long.parseLong(words[0]), Long.parseLong(words[1].substring("owner=".length()))};
                    }
                }
            }
            if (!supervisor.isAlive() || System.nanoTime() - deadlineNs >= 0) {
                throw new IllegalStateException("the helper did not attach (supervisor alive: " + supervisor.isAlive() + ")");
            }
            park(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    private static void park(final long ns) {
        final long deadline = System.nanoTime() + ns;
        for (long left = ns; left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
