package dev.saccade.bench;

import dev.saccade.desktop.TargetIds;
import dev.saccade.owner.OwnerConfiguration;
import dev.saccade.owner.scene.SceneStore;
import dev.saccade.owner.source.SyntheticScene;
import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.Capability;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.CompletionValidator;
import dev.saccade.protocol.FilterFlag;
import dev.saccade.protocol.HelloCompletionFlyweight;
import dev.saccade.protocol.RectQ8;
import dev.saccade.protocol.Relation;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.ScopeKind;
import dev.saccade.protocol.SourceMode;
import dev.saccade.protocol.TargetCapability;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TextMatch;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * The round-trip benchmarks, measured in one run so every ratio compares series that
 * shared the machine's noise:
 * <ol>
 *   <li>an observe of a 10,000-target scene (1,040,168 bytes back, just under 1 MiB) through the
 *       real owner, against a raw echo server that answers the same 96-byte request with a reply
 *       of the same size (goal: p50 at most 1.3 × echo, p99 at most 5 ms);</li>
 *   <li>an ACTIVE_WINDOW observe (30 of 1,000 targets, 3,288 bytes back) against a 4-byte
 *       ping-pong (goal: p50 at most 3 × ping-pong);</li>
 *   <li>the bytes the owner thread allocates per request over 100,000 observes and queries
 *       after warm-up (goal: 0).</li>
 * </ol>
 * Owner, baselines and client all live in this JVM and talk over Unix sockets. Every series
 * uses the same client code ({@link BenchClient}); only the server differs. Each comparison
 * warms both series up, then runs {@code rounds} rounds in rotated order; a third series, the
 * service's serve step with no socket ({@link InProcessService}), shows how much of the owner's
 * time is compute. Settings: {@link BenchSettings}. Output: a table per comparison, then one
 * {@code BENCH ...} line per figure.
 */
public final class RoundTripBench {
    static final int LARGE_TARGETS = AgentAbi.MAX_TARGETS;
    /** 168 + 10,000 × (88 + 16) = 1,040,168 bytes: the largest 16-byte-text scene under 1 MiB. */
    static final int LARGE_TEXT_BYTES = 16;
    static final int SMALL_TARGETS = 1_000;
    static final int SMALL_TEXT_BYTES = 16;
    static final int ACTIVE_TARGETS = 30;
    static final int MAX_CLIENTS = 8;
    static final int SCENE_PACKETS = 4;
    /** SO_SNDBUF the diagnostic echo asks for (Linux doubles it, capped by net.core.wmem_max). */
    static final int DIAGNOSTIC_SNDBUF = 2 * 1024 * 1024;

    static final double LARGE_P50_RATIO_GOAL = 1.3;
    static final long LARGE_P99_GOAL_NS = TimeUnit.MILLISECONDS.toNanos(5);
    static final double SMALL_P50_RATIO_GOAL = 3.0;

    private static final int PREFIX = BenchClient.PREFIX;
    private static final int WARMUP_SLICES = 4;

    private final BenchSettings settings;
    private final List<String> machineLines = new ArrayList<>();
    private final List<String> verdicts = new ArrayList<>();

    private RoundTripBench(final BenchSettings settings) {
        this.settings = settings;
    }

    public static void main(final String[] args) throws Exception {
        new RoundTripBench(BenchSettings.from(args)).run();
    }

    private void run() throws Exception {
        printEnvironment();
        final long startNs = System.nanoTime();
        final Path dir = Files.createTempDirectory("saccade-bench-",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final Path agentSocket = dir.resolve("agent.sock");
        try (SceneStore store = new SceneStore(SCENE_PACKETS, LARGE_TARGETS, LARGE_TARGETS * LARGE_TEXT_BYTES,
                SceneStore.seedGeneration(0));
             BenchOwner owner = BenchOwner.start(agentSocket, store, MAX_CLIENTS);
             BenchClient client = BenchClient.connect(agentSocket)) {
            hello(client);
            if (settings.runs(BenchSettings.LARGE)) {
                large(dir, store, owner, client);
            }
            if (settings.runs(BenchSettings.SMALL)) {
                small(dir, store, owner, client);
            }
            if (settings.runs(BenchSettings.ALLOC)) {
                allocation(store, owner, client);
            }
            if (owner.failure() != null) {
                throw new IllegalStateException("the owner loop died", owner.failure());
            }
        } finally {
            deleteTree(dir);
        }
        System.out.println();
        System.out.println("== Goals ==");
        verdicts.forEach(System.out::println);
        System.out.printf(Locale.ROOT, "(whole run %.1f s)%n", (System.nanoTime() - startNs) / 1e9);
        System.out.println();
        machineLines.forEach(System.out::println);
    }

    // ------------------------------------------------------------------ 1. 10,000 targets vs echo

    private void large(final Path dir, final SceneStore store, final BenchOwner owner, final BenchClient client)
        throws Exception {
        publishAndAwait(store, LARGE_TARGETS, LARGE_TEXT_BYTES, ACTIVE_TARGETS);
        final byte[] observe = BenchRequests.observe(2, ScopeKind.DESKTOP, SourceMode.FUSED, LARGE_TARGETS);
        final ByteBuffer request = BenchRequests.framed(observe);
        final int length = client.exchange(request);
        checkRead(client, length, AgentAbi.OBSERVE_COMPLETION, LARGE_TARGETS,
            CompletionFlyweight.LENGTH + LARGE_TARGETS * (TargetFlyweight.LENGTH + LARGE_TEXT_BYTES));
        final ByteBuffer echoReply = copyOfReply(client, length); // the real completion, byte for byte
        final Path echoPath = dir.resolve("echo.sock");
        try (BaselineServer echo = BaselineServer.start("bench-echo", echoPath, echoReply);
             BenchClient echoClient = BenchClient.connect(echoPath);
             InProcessService inProcess = new InProcessService(LARGE_TARGETS, LARGE_TEXT_BYTES, ACTIVE_TARGETS)) {
            inProcess.request(observe);
            final int rounds = settings.rounds;
            final LatencySeries observed = new LatencySeries(
                "observe DESKTOP 10,000 targets (owner)", "observe_10k", () -> client.exchange(request), length,
                client, owner.thread(), rounds);
            final LatencySeries baseline = new LatencySeries(
                "raw echo, same request, same reply size", "echo_1mib", () -> echoClient.exchange(request), length,
                echoClient, null, rounds);
            final LatencySeries compute = new LatencySeries(
                "serve step only, no socket", "serve_10k_in_process", inProcess::serve, length, null, null, rounds);
            final List<LatencySeries> series = new ArrayList<>(List.of(observed, baseline, compute));
            final List<AutoCloseable> diagnostics = new ArrayList<>();
            try {
                if (settings.diagnostics) {
                    series.add(spinningEcho(dir, "echo-spin", echoReply, 0, request, length, diagnostics,
                        "echo, busy-poll server like the owner", "echo_1mib_spin"));
                    series.add(spinningEcho(dir, "echo-spin-sndbuf", echoReply, DIAGNOSTIC_SNDBUF, request, length,
                        diagnostics, "echo, busy-poll, SO_SNDBUF 2 MiB", "echo_1mib_spin_sndbuf"));
                }
                compare(String.format(Locale.ROOT,
                    "1. Observe of 10,000 targets (%,d B reply) vs raw echo of the same size", length),
                    settings.largeWarmup, settings.largeIterations, series.toArray(new LatencySeries[0]));
            } finally {
                for (int i = diagnostics.size() - 1; i >= 0; i--) {
                    diagnostics.get(i).close();
                }
            }
            checkServer(echo);
            final double p50Ratio = observed.p50() / (double) baseline.p50();
            final double p99Ratio = observed.p99() / (double) baseline.p99();
            final boolean ratioMet = p50Ratio <= LARGE_P50_RATIO_GOAL;
            final boolean p99Met = observed.p99() <= LARGE_P99_GOAL_NS;
            printRatios(observed, baseline, compute, p50Ratio, p99Ratio);
            verdicts.add(String.format(Locale.ROOT,
                "1. observe 10k / echo p50 ratio %.2f (goal <= %.1f): %s; observe p99 %.2f ms (goal <= 5 ms): %s"
                    + "; p99 ratio %.2f",
                p50Ratio, LARGE_P50_RATIO_GOAL, met(ratioMet), observed.p99() / 1e6, met(p99Met), p99Ratio));
            machineLines.add(String.format(Locale.ROOT,
                "BENCH figure=observe_10k_vs_echo_1mib p50_ratio=%.3f p99_ratio=%.3f p50_ratio_round_median=%.3f"
                    + " goal_p50_ratio=%.1f observe_p99_ns=%d goal_p99_ns=%d met=%b",
                p50Ratio, p99Ratio, median(roundRatios(observed, baseline)), LARGE_P50_RATIO_GOAL, observed.p99(),
                LARGE_P99_GOAL_NS, ratioMet && p99Met));
        }
    }

    /** A diagnostic echo served non-blocking with busy-polling; its server and client go on {@code closeLast}. */
    private LatencySeries spinningEcho(final Path dir, final String name, final ByteBuffer reply, final int sndbuf,
        final ByteBuffer request, final int length, final List<AutoCloseable> closeLast, final String label,
        final String key) throws IOException {
        final Path path = dir.resolve(name + ".sock");
        final BaselineServer server = BaselineServer.start("bench-" + name, path, reply.duplicate(), true, sndbuf);
        closeLast.add(server);
        final BenchClient c = BenchClient.connect(path);
        closeLast.add(c);
        return new LatencySeries(label, key, () -> c.exchange(request), length, c, null, settings.rounds);
    }

    // ------------------------------------------------------------------ 2. active window vs ping-pong

    private void small(final Path dir, final SceneStore store, final BenchOwner owner, final BenchClient client)
        throws Exception {
        publishAndAwait(store, SMALL_TARGETS, SMALL_TEXT_BYTES, ACTIVE_TARGETS);
        final byte[] observe = BenchRequests.observe(3, ScopeKind.ACTIVE_WINDOW, SourceMode.PIXEL, LARGE_TARGETS);
        final ByteBuffer request = BenchRequests.framed(observe);
        final int length = client.exchange(request);
        checkRead(client, length, AgentAbi.OBSERVE_COMPLETION, ACTIVE_TARGETS,
            CompletionFlyweight.LENGTH + ACTIVE_TARGETS * (TargetFlyweight.LENGTH + SMALL_TEXT_BYTES));
        final ByteBuffer ping = BenchRequests.ping();
        final ByteBuffer pong = BenchRequests.ping();
        final Path pingPath = dir.resolve("ping.sock");
        try (BaselineServer server = BaselineServer.start("bench-ping-pong", pingPath, pong);
             BenchClient pingClient = BenchClient.connect(pingPath);
             InProcessService inProcess = new InProcessService(SMALL_TARGETS, SMALL_TEXT_BYTES, ACTIVE_TARGETS)) {
            inProcess.request(observe);
            final int rounds = settings.rounds;
            final LatencySeries observed = new LatencySeries(
                "observe ACTIVE_WINDOW 30 of 1,000 (owner)", "observe_active_window",
                () -> client.exchange(request), length, client, owner.thread(), rounds);
            final LatencySeries baseline = new LatencySeries(
                "4-byte ping-pong", "ping_pong_4b", () -> pingClient.exchange(ping), 0, pingClient, null, rounds);
            final LatencySeries compute = new LatencySeries(
                "serve step only, no socket", "serve_active_window_in_process", inProcess::serve, length, null,
                null, rounds);
            compare(String.format(Locale.ROOT, "2. ACTIVE_WINDOW observe (%d targets, %,d B reply) vs 4-byte ping-pong",
                ACTIVE_TARGETS, length), settings.smallWarmup, settings.smallIterations, observed, baseline, compute);
            checkServer(server);
            final double p50Ratio = observed.p50() / (double) baseline.p50();
            final double p99Ratio = observed.p99() / (double) baseline.p99();
            final boolean met = p50Ratio <= SMALL_P50_RATIO_GOAL;
            printRatios(observed, baseline, compute, p50Ratio, p99Ratio);
            verdicts.add(String.format(Locale.ROOT,
                "2. active-window observe / ping-pong p50 ratio %.2f (goal <= %.1f): %s; p99 ratio %.2f",
                p50Ratio, SMALL_P50_RATIO_GOAL, met(met), p99Ratio));
            machineLines.add(String.format(Locale.ROOT,
                "BENCH figure=observe_active_window_vs_ping_pong p50_ratio=%.3f p99_ratio=%.3f"
                    + " p50_ratio_round_median=%.3f goal_p50_ratio=%.1f met=%b",
                p50Ratio, p99Ratio, median(roundRatios(observed, baseline)), SMALL_P50_RATIO_GOAL, met));
        }
    }

    // ------------------------------------------------------------------ 3. owner-thread allocation

    private void allocation(final SceneStore store, final BenchOwner owner, final BenchClient client)
        throws IOException {
        publishAndAwait(store, SMALL_TARGETS, SMALL_TEXT_BYTES, ACTIVE_TARGETS);
        final long someTarget = TargetIds.ACCESSIBILITY_NAMESPACE | 42;
        final int desktopW = 1920 * RectQ8.ONE;
        final byte[][] frames = {
            BenchRequests.observe(10, ScopeKind.ACTIVE_WINDOW, SourceMode.PIXEL, LARGE_TARGETS),
            BenchRequests.observe(11, ScopeKind.DESKTOP, SourceMode.FUSED, 10),
            BenchRequests.observe(12, ScopeKind.DESKTOP, SourceMode.FUSED, LARGE_TARGETS),
            BenchRequests.query(13, 100, "target 99", f -> f.flags(FilterFlag.TEXT).textMatch(TextMatch.SUBSTRING)),
            BenchRequests.query(14, 200, "target 5", f -> f.flags(FilterFlag.TEXT).textMatch(TextMatch.PREFIX)),
            BenchRequests.query(15, 1_000, "", f -> f.flags(FilterFlag.ROLE).role(Role.BUTTON)),
            BenchRequests.query(16, 400, "", f -> f.flags(FilterFlag.CAPABILITY | FilterFlag.GEOMETRY)
                .requiredCapabilityBits(TargetCapability.CLICK | TargetCapability.INVOKE)
                .geometry(0, 0, desktopW / 2, 100 * RectQ8.ONE)),
            BenchRequests.query(17, 10, "", f -> f.flags(FilterFlag.STABLE_ID).targetId(someTarget)),
            BenchRequests.query(18, 10, "", f -> f.flags(FilterFlag.RELATION).relation(Relation.SIBLING)
                .relationTargetId(someTarget)),
        };
        final ByteBuffer[] requests = new ByteBuffer[frames.length];
        System.out.println();
        System.out.println("== 3. Bytes allocated on the owner thread per request ==");
        System.out.println("request mix (one connection, cycled), against the 1,000-target scene:");
        for (int i = 0; i < frames.length; i++) {
            requests[i] = BenchRequests.framed(frames[i]);
            final int length = client.exchange(requests[i]);
            final ByteBuffer r = client.reply();
            System.out.printf(Locale.ROOT, "  %-8s %4d B request -> result %d, %5d targets, %,8d B reply%n",
                frames[i][8] == AgentAbi.OBSERVE_REQUEST ? "observe" : "query", frames[i].length,
                r.getInt(PREFIX + CompletionFlyweight.RESULT_OFFSET),
                r.getInt(PREFIX + CompletionFlyweight.TARGET_COUNT_OFFSET), length);
            if (r.getInt(PREFIX + CompletionFlyweight.RESULT_OFFSET) != ResultCode.OK) {
                throw new IllegalStateException("request " + i + " of the mix is not answered OK");
            }
        }
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final long ownerId = owner.thread().getId();
        for (int i = 0; i < settings.allocWarmup; i++) {
            client.exchange(requests[i % requests.length]);
        }
        final long startNs = System.nanoTime();
        final long before = threads.getThreadAllocatedBytes(ownerId);
        long notOk = 0;
        final int n = settings.allocRequests;
        for (int i = 0; i < n; i++) {
            client.exchange(requests[i % requests.length]);
            if (client.reply().getInt(PREFIX + CompletionFlyweight.RESULT_OFFSET) != ResultCode.OK) {
                notOk++;
            }
        }
        final long allocated = threads.getThreadAllocatedBytes(ownerId) - before;
        final double seconds = (System.nanoTime() - startNs) / 1e9;
        final double perRequest = allocated / (double) n;
        System.out.printf(Locale.ROOT,
            "after %,d warm-up requests: %,d requests in %.1f s (%.1f µs mean), owner thread allocated %,d bytes"
                + " (%.4f B/request); %d replies not OK%n",
            settings.allocWarmup, n, seconds, seconds * 1e6 / n, allocated, perRequest, notOk);
        final boolean met = allocated == 0 && notOk == 0;
        verdicts.add(String.format(Locale.ROOT, "3. owner-thread allocation %,d B over %,d requests (goal 0): %s",
            allocated, n, met(met)));
        machineLines.add(String.format(Locale.ROOT,
            "BENCH figure=owner_alloc requests=%d bytes=%d bytes_per_request=%.4f not_ok=%d goal_bytes=0 met=%b",
            n, allocated, perRequest, notOk, met));
    }

    // ------------------------------------------------------------------ running and printing

    /**
     * Warms every series up in alternating slices, then runs {@code rounds} rounds; round r
     * starts with series r mod n, so each goes first, in the middle and last equally often.
     */
    private void compare(final String title, final int warmup, final int iterations, final LatencySeries... series)
        throws IOException {
        System.out.println();
        System.out.println("== " + title + " ==");
        final long gcCountBefore = gcCount();
        final long gcTimeBefore = gcTimeMs();
        final long startNs = System.nanoTime();
        for (int slice = 0; slice < WARMUP_SLICES; slice++) {
            for (final LatencySeries s : series) {
                s.warmUp(warmup / WARMUP_SLICES);
            }
        }
        final long warmNs = System.nanoTime();
        for (int r = 0; r < settings.rounds; r++) {
            for (int k = 0; k < series.length; k++) {
                series[(r + k) % series.length].runRound(iterations);
            }
        }
        final long endNs = System.nanoTime();
        System.out.printf(Locale.ROOT,
            "warm-up %,d per series (%.1f s), then %d rounds x %,d per series (%.1f s); GCs during: %d (%d ms)%n",
            warmup, (warmNs - startNs) / 1e9, settings.rounds, iterations, (endNs - warmNs) / 1e9,
            gcCount() - gcCountBefore, gcTimeMs() - gcTimeBefore);
        System.out.printf(Locale.ROOT, "%-42s %7s %8s %8s %8s %8s %8s %9s %9s %9s %9s%n",
            "series", "count", "p50 µs", "p90 µs", "p99 µs", "max µs", "mean µs", "reads/req", "ownCPU µs",
            "ownPark/r", "ownB/req");
        for (final LatencySeries s : series) {
            System.out.printf(Locale.ROOT, "%-42s %7d %8.1f %8.1f %8.1f %8.1f %8.1f %9s %9s %9s %9s%n",
                s.label, s.count(), s.p50() / 1e3, s.p90() / 1e3, s.p99() / 1e3, s.max() / 1e3, s.mean() / 1e3,
                Double.isNaN(s.clientReadsPerExchange()) ? "-"
                    : String.format(Locale.ROOT, "%.1f", s.clientReadsPerExchange()),
                s.observesOwner() ? String.format(Locale.ROOT, "%.1f", s.observedCpuNsPerExchange() / 1e3) : "-",
                Double.isNaN(s.observedVoluntarySwitchesPerExchange()) ? "-"
                    : String.format(Locale.ROOT, "%.3f", s.observedVoluntarySwitchesPerExchange()),
                s.observesOwner() ? String.format(Locale.ROOT, "%.2f", s.observedAllocatedBytesPerExchange()) : "-");
        }
        for (final LatencySeries s : series) {
            final StringBuilder b = new StringBuilder();
            for (final long p : s.roundP50s()) {
                b.append(String.format(Locale.ROOT, " %.1f", p / 1e3));
            }
            System.out.printf(Locale.ROOT, "  p50 per round, %-32s µs:%s%n", s.key, b);
            machineLines.add(String.format(Locale.ROOT,
                "BENCH figure=%s count=%d p50_ns=%d p90_ns=%d p99_ns=%d max_ns=%d mean_ns=%.0f%s%s", s.key, s.count(),
                s.p50(), s.p90(), s.p99(), s.max(), s.mean(),
                Double.isNaN(s.clientReadsPerExchange()) ? ""
                    : String.format(Locale.ROOT, " client_reads_per_request=%.2f", s.clientReadsPerExchange()),
                s.observesOwner() ? String.format(Locale.ROOT, " owner_alloc_bytes=%d owner_cpu_ns_per_request=%.0f"
                        + " owner_voluntary_switches_per_request=%.4f owner_involuntary_switches_per_request=%.4f",
                    s.observedAllocatedBytes(), s.observedCpuNsPerExchange(), s.observedVoluntarySwitchesPerExchange(),
                    s.observedInvoluntarySwitchesPerExchange()) : ""));
        }
    }

    private static void printRatios(final LatencySeries observed, final LatencySeries baseline,
        final LatencySeries compute, final double p50Ratio, final double p99Ratio) {
        System.out.printf(Locale.ROOT,
            "ratio %s / %s: p50 %.2f, p99 %.2f; serve step alone is %.0f%% of the owner's p50, "
                + "the baseline %.0f%%%n",
            observed.key, baseline.key, p50Ratio, p99Ratio, 100.0 * compute.p50() / observed.p50(),
            100.0 * baseline.p50() / observed.p50());
        final double[] perRound = roundRatios(observed, baseline);
        final StringBuilder b = new StringBuilder();
        for (final double r : perRound) {
            b.append(String.format(Locale.ROOT, " %.2f", r));
        }
        System.out.printf(Locale.ROOT, "p50 ratio within each round:%s; median %.2f%n", b, median(perRound));
    }

    /** p50 of the measured series over p50 of the baseline, round by round (each pair ran back to back). */
    static double[] roundRatios(final LatencySeries observed, final LatencySeries baseline) {
        final long[] a = observed.roundP50s();
        final long[] b = baseline.roundP50s();
        final double[] r = new double[Math.min(a.length, b.length)];
        for (int i = 0; i < r.length; i++) {
            r[i] = a[i] / (double) b[i];
        }
        return r;
    }

    static double median(final double[] values) {
        final double[] v = values.clone();
        java.util.Arrays.sort(v);
        final int n = v.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    private void printEnvironment() {
        final Runtime rt = Runtime.getRuntime();
        System.out.println("Saccade round-trip benchmarks (bench/README.md)");
        System.out.printf(Locale.ROOT, "java %s (%s), %d cores, max heap %d MiB%n", System.getProperty("java.version"),
            System.getProperty("java.vm.name"), rt.availableProcessors(), rt.maxMemory() >> 20);
        System.out.printf(Locale.ROOT, "owner idle strategy: %s=%s %s=%s %s=%s%n",
            OwnerConfiguration.IDLE_SPIN_NS_PROP_NAME, System.getProperty(OwnerConfiguration.IDLE_SPIN_NS_PROP_NAME,
                OwnerConfiguration.IDLE_SPIN_NS_DEFAULT + " (default)"),
            OwnerConfiguration.IDLE_YIELD_NS_PROP_NAME, System.getProperty(OwnerConfiguration.IDLE_YIELD_NS_PROP_NAME,
                OwnerConfiguration.IDLE_YIELD_NS_DEFAULT + " (default)"),
            OwnerConfiguration.IDLE_MAX_PARK_NS_PROP_NAME, System.getProperty(OwnerConfiguration.IDLE_MAX_PARK_NS_PROP_NAME,
                OwnerConfiguration.IDLE_MAX_PARK_NS_DEFAULT + " (default)"));
        System.out.println("settings: " + settings);
    }

    private static String met(final boolean met) {
        return met ? "MET" : "NOT MET";
    }

    // ------------------------------------------------------------------ helpers

    private static void hello(final BenchClient client) throws IOException {
        final int length = client.exchange(BenchRequests.framed(BenchRequests.hello(1, Capability.OBSERVE)));
        if (length != HelloCompletionFlyweight.LENGTH
            || client.reply().getInt(PREFIX + HelloCompletionFlyweight.RESULT_OFFSET) != ResultCode.OK) {
            throw new IllegalStateException("Hello refused");
        }
    }

    /** Publishes a synthetic scene and waits until the owner thread has adopted it. */
    private static void publishAndAwait(final SceneStore store, final int targets, final int textBytes,
        final int activeTargets) {
        final long generation = SyntheticScene.publish(store, targets, textBytes, activeTargets);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (store.currentGeneration() != generation) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the owner did not adopt generation " + generation);
            }
            LockSupport.parkNanos(100_000);
        }
    }

    /** The reply is a valid, untruncated read completion of {@code targets} records and {@code length} bytes. */
    private static void checkRead(final BenchClient client, final int length, final int kind, final int targets,
        final int expectedLength) {
        final int verdict = new CompletionValidator().validate(client.replyStore(), PREFIX, length, kind);
        final CompletionFlyweight c = new CompletionFlyweight().wrap(client.replyStore(), PREFIX);
        if (verdict != CompletionValidator.VALID || c.result() != ResultCode.OK || c.targetCount() != targets
            || length != expectedLength || (c.header().flags() & AgentAbi.FLAG_TRUNCATED) != 0) {
            throw new IllegalStateException(String.format(Locale.ROOT,
                "unexpected completion: verdict %s, result %d, %d targets (want %d), %d bytes (want %d), flags %#x",
                CompletionValidator.reason(verdict), c.result(), c.targetCount(), targets, length, expectedLength,
                c.header().flags()));
        }
    }

    private static ByteBuffer copyOfReply(final BenchClient client, final int length) {
        final ByteBuffer copy = ByteBuffer.allocateDirect(PREFIX + length).order(ByteOrder.LITTLE_ENDIAN);
        final ByteBuffer src = client.reply().duplicate();
        src.position(0).limit(PREFIX + length);
        copy.put(src).clear();
        return copy;
    }

    private static void checkServer(final BaselineServer server) {
        if (server.failure() != null) {
            throw new IllegalStateException("a baseline server failed", server.failure());
        }
    }

    private static long gcCount() {
        long n = 0;
        for (final GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    private static long gcTimeMs() {
        long n = 0;
        for (final GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionTime());
        }
        return n;
    }

    private static void deleteTree(final Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (final Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
