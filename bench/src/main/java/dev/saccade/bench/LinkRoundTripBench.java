package dev.saccade.bench;

import dev.saccade.ipc.EndpointListener;
import dev.saccade.ipc.link.CompletionHandler;
import dev.saccade.ipc.link.LinkFileDescriptor;
import dev.saccade.ipc.link.LinkPaths;
import dev.saccade.ipc.link.OwnerLifeline;
import dev.saccade.ipc.link.OwnerSide;
import dev.saccade.ipc.link.SessionNonce;
import dev.saccade.protocol.plan.ActionPlanEncoder;
import dev.saccade.protocol.plan.ActionPlanFlyweight;
import dev.saccade.protocol.plan.PlanCompletionFlyweight;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import net.openhft.chronicle.bytes.BytesStore;

/**
 * Plan delivery over the shared-memory link between two processes, busy-spinning on both sides
 * (a benchmark, not a test; run by hand with the test classpath:
 * {@code java <saccade.jvm.flags> -cp ipc-shared/target/test-classes:ipc-shared/target/classes:<deps>
 * dev.saccade.ipc.link.LinkRoundTripBench}).
 * This JVM is the owner: it creates a real link file in {@code /dev/shm} with the default ring
 * sizes, binds a lifeline, starts {@link LinkEchoHelper} in a second JVM, and then, one plan at
 * a time, stamps the plan with {@code System.nanoTime()} (CLOCK_MONOTONIC, one clock for both
 * processes), publishes it, and spins on the completion ring. Per plan it records:
 * <ul>
 *   <li>owner → helper: from just before {@code tryPublishPlan} to the helper's clock reading
 *       in its plan handler, after the ring read and the plan's validation;</li>
 *   <li>helper → owner: from the helper's clock reading before {@code tryPublishCompletion} to
 *       the owner's reading after {@code pollCompletions} returned it (validated);</li>
 *   <li>round trip: owner publish to owner receipt.</li>
 * </ul>
 * Series: a click plan (6 commands, 256 bytes) and a TEXT plan (1,024 text bytes, 1,280 bytes).
 * Arguments ({@code name=value}): {@code warmup} (100,000), {@code iterations} (1,000,000 per
 * round), {@code rounds} (3).
 */
public final class LinkRoundTripBench {
    private LinkRoundTripBench() {
    }

    public static void main(final String[] args) throws Exception {
        final int warmup = ClickBench.intArg(args, "warmup", 100_000);
        final int iterations = ClickBench.intArg(args, "iterations", 1_000_000);
        final int rounds = ClickBench.intArg(args, "rounds", 3);

        final Path run = Files.createTempDirectory("saccade-link-bench",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        final Path file = LinkPaths.DEV_SHM.resolve("saccade-input-v1-bench-" + ProcessHandle.current().pid());
        final byte[] nonce = SessionNonce.generate();
        try (OwnerSide owner = OwnerSide.create(file, LinkFileDescriptor.DEFAULT_PLAN_RING_CAPACITY,
                 LinkFileDescriptor.DEFAULT_COMPLETION_RING_CAPACITY, nonce);
             ChildJvm helper = ChildJvm.start(LinkEchoHelper.class,
                 Map.of(SessionNonce.ENVIRONMENT_VARIABLE, SessionNonce.toHex(nonce)), file.toString(),
                 LinkPaths.lifelineSocket(run).toString());
             // Closed first: the helper sees the lifeline's end-of-file and stops by itself.
             OwnerLifeline lifeline = OwnerLifeline.bind(LinkPaths.lifelineSocket(run), nonce)) {
            lifeline.awaitHelper(helper.pid(), Duration.ofSeconds(30));
            helper.awaitLine("ATTACHED", 30_000);

            final BytesStore<?, byte[]> click = BytesStore.wrap(new byte[1 << 12]);
            final ActionPlanEncoder encoder = new ActionPlanEncoder();
            final int clickSize = encoder.wrap(click, 0, click.capacity()).header(1, Long.MAX_VALUE, 0, 1, 0, 1, 0)
                .move(0, 100 << 8, 100 << 8).modifiersDown(0, 2).buttonDown(0, 1).buttonUp(0, 1).modifiersUp(0, 2)
                .actionEnd(0).finish();
            final BytesStore<?, byte[]> text = BytesStore.wrap(new byte[1 << 12]);
            final byte[] kilobyte = new byte[1024];
            Arrays.fill(kilobyte, (byte) 'a');
            final byte[] accent = "é".getBytes(StandardCharsets.UTF_8);
            System.arraycopy(accent, 0, kilobyte, 0, accent.length);
            final int textSize = encoder.wrap(text, 0, text.capacity()).header(1, Long.MAX_VALUE, 0, 1, 0, 1, 0)
                .move(0, 5, 5).buttonDown(0, 1).buttonUp(0, 1).text(0, BytesStore.wrap(kilobyte), 0, 1024)
                .actionEnd(0).finish();

            final Series clickSeries = new Series(owner, click, clickSize, iterations);
            final Series textSeries = new Series(owner, text, textSize, iterations);
            clickSeries.run(warmup, false);
            textSeries.run(warmup, false);
            System.out.printf(Locale.ROOT, "link round trip: owner and helper in two JVMs, busy-spinning; "
                + "%d rounds x %,d plans per series after %,d warm-up%n", rounds, iterations, warmup);
            for (int round = 0; round < rounds; round++) {
                clickSeries.run(iterations, true);
                clickSeries.print("click_" + clickSize + "B round " + (round + 1));
                textSeries.run(iterations, true);
                textSeries.print("text_" + textSize + "B round " + (round + 1));
            }
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(LinkPaths.lifelineSocket(run));
            Files.deleteIfExists(EndpointListener.lockPathOf(LinkPaths.lifelineSocket(run)));
            Files.deleteIfExists(run);
        }
    }

    /** One plan shape, measured one plan at a time. */
    private static final class Series implements CompletionHandler {
        private final OwnerSide owner;
        private final BytesStore<?, byte[]> plan;
        private final int size;
        private final ActionPlanFlyweight view = new ActionPlanFlyweight();
        private final long[] there;
        private final long[] back;
        private final long[] roundTrip;
        private long planId;
        private long receivedNs;
        private long helperSeenNs;
        private long helperSentNs;
        private long answered;

        Series(final OwnerSide owner, final BytesStore<?, byte[]> plan, final int size, final int iterations) {
            this.owner = owner;
            this.plan = plan;
            this.size = size;
            this.there = new long[iterations];
            this.back = new long[iterations];
            this.roundTrip = new long[iterations];
            view.wrap(plan, 0);
        }

        void run(final int count, final boolean record) {
            for (int i = 0; i < count; i++) {
                view.planId(++planId);
                final long sentNs = System.nanoTime();
                if (!owner.tryPublishPlan(plan, 0, size)) {
                    throw new IllegalStateException("plan ring full with one plan in flight");
                }
                final long want = answered + 1;
                while (answered != want) {
                    if (owner.pollCompletions(this, 1) < 0) {
                        throw new IllegalStateException("completion ring corrupt");
                    }
                }
                if (record) {
                    there[i] = helperSeenNs - sentNs;
                    back[i] = receivedNs - helperSentNs;
                    roundTrip[i] = receivedNs - sentNs;
                }
            }
        }

        @Override
        public void onCompletion(final PlanCompletionFlyweight completion) {
            receivedNs = System.nanoTime();
            if (completion.planId() != planId) {
                throw new IllegalStateException("completion " + completion.planId() + " for plan " + planId);
            }
            helperSeenNs = completion.physicalState().physicalSequence();
            helperSentNs = completion.physicalState().permissionEpoch();
            answered++;
        }

        @Override
        public void onInvalidCompletion(final long id, final int verdict) {
            throw new IllegalStateException("invalid completion " + id + ": " + verdict);
        }

        void print(final String name) {
            line(name, "owner_to_helper", there);
            line(name, "helper_to_owner", back);
            line(name, "round_trip", roundTrip);
        }

        private static void line(final String name, final String what, final long[] ns) {
            final long[] sorted = ns.clone();
            Arrays.sort(sorted);
            System.out.printf(Locale.ROOT, "BENCH figure=link_%s series=%s count=%d p50_ns=%d p90_ns=%d p99_ns=%d "
                    + "p99.9_ns=%d p99.99_ns=%d max_ns=%d%n", what, name.replace(' ', '_'), sorted.length,
                at(sorted, 0.50), at(sorted, 0.90), at(sorted, 0.99), at(sorted, 0.999), at(sorted, 0.9999),
                sorted[sorted.length - 1]);
        }

        private static long at(final long[] sorted, final double quantile) {
            return sorted[(int) Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))];
        }
    }
}
