package dev.saccade.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code bench/run cli}: how long a whole {@code saccade} process takes, as an agent or a shell
 * script pays it. It starts the built distribution's {@code saccade up --headless} with zenity
 * (a real service on a real desktop), then in rounds that rotate the series runs each command as
 * a fresh process to its exit: {@code true} and {@code java -version} (same Java and collector
 * flags as the launcher) as the floors, {@code saccade --version}, {@code saccade query --role
 * window --json}, {@code saccade observe --json}, and {@code saccade mcp} to its first answer (an
 * {@code initialize} request, timed to the first line on stdout). Each {@code saccade} series
 * runs again with {@code SACCADE_JAVA_OPTS} set to {@code compare} (default {@code -Xshare:off}:
 * no class-data sharing, so the archive's share shows). Goals: one-shot commands at most 250 ms,
 * MCP's first answer at most 300 ms (p50).
 *
 * <p>Settings: {@code runs} (10 per series per round), {@code rounds} (3), {@code dist}
 * (cli/target/saccade), {@code compare} (-Xshare:off; empty for none).
 */
public final class CliBench {
    private static final long ONE_SHOT_GOAL_NS = 250_000_000L;
    private static final long MCP_GOAL_NS = 300_000_000L;
    private static final String MCP_INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
        + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"cli-bench\",\"version\":\"1\"}}}\n";

    private CliBench() {
    }

    /** One series: a command, the environment it adds, and whether it is timed to MCP's first answer. */
    private record Series(String name, List<String> command, String javaOptions, boolean mcp) {
    }

    public static void main(final String[] args) throws Exception {
        final int runs = ClickBench.intArg(args, "runs", 10);
        final int rounds = ClickBench.intArg(args, "rounds", 3);
        final Path dist = Path.of(ClickBench.stringArg(args, "dist", "cli/target/saccade")).toAbsolutePath();
        final String compare = ClickBench.stringArg(args, "compare", "-Xshare:off");
        final Path launcher = dist.resolve("bin/saccade");
        if (!Files.isExecutable(launcher)) {
            throw new IllegalArgumentException("no distribution at " + dist + " (build it: mvn -pl cli -am package)");
        }
        final Path parent = Files.createTempDirectory("saccade-bench-cli-",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final Path runtime = Files.createDirectory(parent.resolve("run"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final List<Series> series = new ArrayList<>();
        series.add(new Series("true", List.of("true"), null, false));
        series.add(new Series("java_version", List.of(java, "-XX:+UseSerialGC", "-XX:-UsePerfData", "-version"), null, false));
        final List<String[]> saccade = List.of(new String[] {"version", "--version"},
            new String[] {"query", "query", "--role", "window", "--json"},
            new String[] {"observe", "observe", "--json"},
            new String[] {"mcp_first_answer", "mcp"});
        for (final String opts : compare.isEmpty() ? List.of("") : List.of("", compare)) {
            for (final String[] s : saccade) {
                final List<String> command = new ArrayList<>(List.of(launcher.toString()));
                command.addAll(Arrays.asList(s).subList(1, s.length));
                series.add(new Series("saccade_" + s[0] + (opts.isEmpty() ? "" : "_compare"), command, opts,
                    s[0].startsWith("mcp")));
            }
        }
        System.out.printf("cli: %s, load average %s, %d rounds x %d runs, compare SACCADE_JAVA_OPTS=\"%s\"%n", dist,
            loadAverage(), rounds, runs, compare);
        final ProcessBuilder upBuilder = new ProcessBuilder(launcher.toString(), "up", "--headless", "--apps", "zenity-entry")
            .redirectErrorStream(true);
        environment(upBuilder, runtime, null);
        final Process up = upBuilder.start();
        try {
            awaitUp(up);
            final Map<String, List<Long>> samples = new LinkedHashMap<>();
            for (final Series s : series) {
                samples.put(s.name, new ArrayList<>());
                run(s, runtime); // warm the page cache and the service's first answers
            }
            for (int round = 0; round < rounds; round++) {
                for (int k = 0; k < series.size(); k++) {
                    final Series s = series.get((k + round) % series.size());
                    for (int i = 0; i < runs; i++) {
                        samples.get(s.name).add(run(s, runtime));
                    }
                }
            }
            final long javaP50 = percentile(samples.get("java_version"), 50);
            System.out.printf("%-34s %6s %9s %9s %9s %9s%n", "series", "count", "p50 ms", "min ms", "max ms", "/java");
            for (final Series s : series) {
                final List<Long> v = samples.get(s.name);
                final long p50 = percentile(v, 50);
                System.out.printf("%-34s %6d %9.1f %9.1f %9.1f %9.2f%n", s.name + (s.javaOptions == null || s.javaOptions.isEmpty()
                    ? "" : " (" + s.javaOptions + ")"), v.size(), p50 / 1e6, min(v) / 1e6, max(v) / 1e6, (double) p50 / javaP50);
                final boolean goal = s.name.startsWith("saccade_") && !s.name.endsWith("_compare");
                final long goalNs = s.mcp ? MCP_GOAL_NS : ONE_SHOT_GOAL_NS;
                System.out.printf("BENCH figure=cli_%s count=%d p50_ns=%d min_ns=%d max_ns=%d java_version_ratio=%.2f%s%n",
                    s.name, v.size(), p50, min(v), max(v), (double) p50 / javaP50,
                    goal ? " goal_ns=" + goalNs + " met=" + (p50 <= goalNs) : "");
            }
            System.out.printf("load average at the end %s%n", loadAverage());
        } finally {
            up.destroy();
            if (!up.waitFor(30, TimeUnit.SECONDS)) {
                up.descendants().forEach(ProcessHandle::destroyForcibly);
                up.destroyForcibly();
            }
            try (Stream<Path> files = Files.walk(parent)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** One whole process: start to exit, or for MCP start to the first answer line (then stdin closes). */
    private static long run(final Series s, final Path runtime) throws Exception {
        final ProcessBuilder builder = new ProcessBuilder(s.command).redirectError(ProcessBuilder.Redirect.DISCARD);
        environment(builder, runtime, s.javaOptions);
        final long t0 = System.nanoTime();
        final Process p = builder.start();
        final long elapsed;
        if (s.mcp) {
            final OutputStream in = p.getOutputStream();
            in.write(MCP_INITIALIZE.getBytes(StandardCharsets.UTF_8));
            in.flush();
            final BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            final String line = out.readLine();
            elapsed = System.nanoTime() - t0;
            if (line == null || !line.contains("\"id\":1")) {
                throw new IllegalStateException("saccade mcp did not answer initialize: " + line);
            }
            in.close();
            out.transferTo(java.io.Writer.nullWriter());
        } else {
            p.getOutputStream().close();
            p.getInputStream().transferTo(OutputStream.nullOutputStream());
            p.waitFor();
            elapsed = System.nanoTime() - t0;
        }
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(s.name + " did not exit");
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException(s.name + " exited with " + p.exitValue());
        }
        return elapsed;
    }

    private static void environment(final ProcessBuilder builder, final Path runtime, final String javaOptions) {
        builder.environment().remove("DISPLAY");
        builder.environment().put("XDG_RUNTIME_DIR", runtime.toString());
        if (javaOptions != null) {
            builder.environment().put("SACCADE_JAVA_OPTS", javaOptions);
        }
    }

    private static void awaitUp(final Process up) throws IOException {
        final BufferedReader lines = new BufferedReader(new InputStreamReader(up.getInputStream(), StandardCharsets.UTF_8));
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            if (line.startsWith("Saccade is up.")) {
                final Thread drain = new Thread(() -> {
                    try {
                        lines.transferTo(java.io.Writer.nullWriter());
                    } catch (final IOException ignore) {
                        // up ended
                    }
                }, "up-output");
                drain.setDaemon(true);
                drain.start();
                return;
            }
        }
        throw new IllegalStateException("saccade up ended before it was up");
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (final IOException e) {
            return "?";
        }
    }

    private static long percentile(final List<Long> values, final int p) {
        final List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }

    private static long min(final List<Long> v) {
        return v.stream().mapToLong(Long::longValue).min().orElse(0);
    }

    private static long max(final List<Long> v) {
        return v.stream().mapToLong(Long::longValue).max().orElse(0);
    }
}
