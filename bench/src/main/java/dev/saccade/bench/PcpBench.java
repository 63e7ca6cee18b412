package dev.saccade.bench;

import dev.saccade.pcp.JsonTree;
import dev.saccade.pcp.PcpClient;
import dev.saccade.pcp.PcpContext;
import dev.saccade.pcp.PcpEndpoint;
import dev.saccade.pcp.PcpPeer;
import dev.saccade.pcp.TrustedKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.HdrHistogram.Histogram;

/**
 * PCP round trips, HdrHistogram in ns: {@code health.check} over the real Unix socket,
 * an {@code invoke.capability} of trust {@code auto} forwarded to a registered application's
 * connection and back (two socket hops and the application's answer), and {@code health.check}
 * through the in-process {@code PcpCore} (no serialization). No desktop: the scene queries cost
 * the agent protocol's observe plus decoding and are measured by the desktop tests' timings only.
 *
 * <p>{@code java -cp bench/target/benchmarks.jar dev.saccade.bench.PcpBench [warmup] [count]}
 */
public final class PcpBench {
    private PcpBench() {
    }

    public static void main(final String[] args) throws Exception {
        final int warmup = args.length > 0 ? Integer.parseInt(args[0]) : 5_000;
        final int count = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        final Path temp = Files.createTempDirectory("saccade-pcp-bench", PosixFilePermissions.asFileAttribute(
            PosixFilePermissions.fromString("rwx------")));
        final KeyPair keys = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        final Path pub = temp.resolve("bench.pub");
        Files.writeString(pub, TrustedKeys.pem(keys.getPublic()));
        new TrustedKeys(temp.resolve("trust")).add(pub);
        final Path run = Files.createDirectory(temp.resolve("run"));
        try (PcpEndpoint endpoint = PcpEndpoint.start(new PcpContext().runtimeDirectory(run)
            .trustDirectory(temp.resolve("trust")).rate(Integer.MAX_VALUE / 2, Integer.MAX_VALUE / 2).conclude(), null)) {
            final Path socket = endpoint.server().path();
            final CompletableFuture<Void> app = CompletableFuture.runAsync(() -> serve(socket, keys));
            try (PcpClient client = PcpClient.connect(socket, Duration.ofSeconds(30))) {
                final long deadline = System.nanoTime() + 10_000_000_000L;
                while (((List<?>) ((Map<?, ?>) client.call("query.capabilities", JsonTree.object(), null).get("result"))
                    .get("capabilities")).isEmpty() && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                final Map<String, Object> invoke = JsonTree.object("capability_id", "org.bench.app.ping",
                    "app_id", "org.bench.app", "source", "SystemIntelligence", "params", JsonTree.object());
                final PcpPeer self = new PcpPeer() {
                    public String name() {
                        return "in-process";
                    }

                    public boolean isOpen() {
                        return true;
                    }

                    public boolean notify(final String method, final Map<String, Object> params) {
                        return true;
                    }

                    public CompletableFuture<Object> request(final String method, final Map<String, Object> params) {
                        return CompletableFuture.failedFuture(new UnsupportedOperationException());
                    }
                };
                report("health.check over the socket", series(warmup, count, () -> client.call("health.check", null, null)));
                report("invoke.capability (auto) via the app", series(warmup, count, () -> client.call("invoke.capability", invoke, null)));
                report("health.check in process (PcpCore)", series(warmup, count,
                    () -> endpoint.core().call(self, "health.check", JsonTree.object())));
            }
            app.cancel(true);
        }
    }

    private interface Call {
        Object run() throws Exception;
    }

    private static Histogram series(final int warmup, final int count, final Call call) throws Exception {
        for (int i = 0; i < warmup; i++) {
            call.run();
        }
        final Histogram h = new Histogram(60_000_000_000L, 3);
        for (int i = 0; i < count; i++) {
            final long t0 = System.nanoTime();
            call.run();
            h.recordValue(System.nanoTime() - t0);
        }
        return h;
    }

    private static void report(final String name, final Histogram h) {
        System.out.printf("%-42s n=%d p50=%.1f us p90=%.1f us p99=%.1f us max=%.1f us%n", name, h.getTotalCount(),
            h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(90) / 1e3, h.getValueAtPercentile(99) / 1e3,
            h.getMaxValue() / 1e3);
    }

    private static void serve(final Path socket, final KeyPair keys) {
        try (PcpClient app = PcpClient.connect(socket, Duration.ofHours(1))) {
            final Map<String, Object> manifest = JsonTree.object("version", "1.0", "capabilities",
                List.of(JsonTree.object("name", "ping", "tier", 0L, "trust_level", "auto")));
            manifest.put("signature", TrustedKeys.sign(manifest, keys.getPrivate()));
            app.call("register.capability", JsonTree.object("app_id", "org.bench.app", "manifest", manifest), null);
            while (true) {
                final Map<String, Object> request = app.readMessage();
                app.send("{\"jsonrpc\":\"2.0\",\"id\":" + request.get("id") + ",\"result\":{\"status\":\"success\"}}");
            }
        } catch (final Exception e) {
            // The endpoint closed: the bench is over.
        }
    }
}
