package dev.saccade.bench;

import dev.saccade.demodesktop.DemoApp;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.ResultCode;
import dev.saccade.protocol.Role;
import dev.saccade.protocol.TargetFlyweight;
import dev.saccade.protocol.TextMatch;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * How long the client-side settle window of verification (agent-abi §5.12
 * "Settling", {@code BatchVerifier}, default 300 ms) has to be for GTK 3 and Qt 5. A real test
 * desktop with gtk3-demo and the Qt calculator, the real owner with its AT-SPI source and input
 * helper. Each round clicks a target whose application reacts on screen (a calculator digit,
 * gtk3-demo's Info/Source tabs, two rows of its demo list), then follows every generation the
 * owner publishes until {@code quiet} ms pass without one. Per reaction: the first newer
 * generation's latency, how many more followed it, and the largest gap between two of them: a
 * settle window shorter than that gap returns a generation from the middle of the reaction.
 * Settings ({@code name=value}): {@code rounds} (20 per kind), {@code quiet} (1500 ms).
 */
public final class SettleBench {
    private SettleBench() {
    }

    /** One kind of reaction: what is clicked, by its role and text. */
    private record Kind(String name, int role, String[] texts) {
    }

    public static void main(final String[] args) throws Exception {
        final int rounds = ClickBench.intArg(args, "rounds", 20);
        final long quietNs = TimeUnit.MILLISECONDS.toNanos(ClickBench.intArg(args, "quiet", 1500));
        System.out.printf("Saccade settle-window measurement (bench/README.md): rounds=%d quiet=%d ms%n", rounds,
            TimeUnit.NANOSECONDS.toMillis(quietNs));
        final Kind[] kinds = {
            new Kind("Qt calculator: a digit", Role.BUTTON, new String[] {"1", "Clear"}),
            new Kind("gtk3-demo: a page tab", Role.BUTTON, new String[] {"Source", "Info"}),
            new Kind("gtk3-demo: a demo list row", -1, new String[] {"Builder", "Assistant"}),
        };
        final List<String> table = new ArrayList<>();
        try (LiveDesktop live = LiveDesktop.start(true, DemoApp.GTK3_DEMO, DemoApp.QT_CALCULATOR)) {
            for (final Kind kind : kinds) {
                final Histogram first = new Histogram(3);
                final Histogram gaps = new Histogram(3);
                final Histogram followers = new Histogram(3);
                int reactions = 0;
                int moreThanOne = 0;
                long worstGapNs = 0;
                for (int r = 0; r < rounds; r++) {
                    final String text = kind.texts[r % kind.texts.length];
                    final long target = find(live, kind.role, text);
                    if (target == 0) {
                        System.out.printf("%s: no target '%s'; skipped%n", kind.name, text);
                        continue;
                    }
                    final long before = latest(live);
                    final long sentNs = System.nanoTime();
                    final int result = live.act(new byte[0], a -> a.kind(ActionKind.CLICK).targetId(target)
                        .buttonBits(Button.LEFT));
                    if (result != ResultCode.OK) {
                        System.out.printf("%s '%s': %s%n", kind.name, text, ResultCode.name(result));
                        continue;
                    }
                    final long[] arrivals = follow(live, before, quietNs);
                    if (arrivals.length == 0) {
                        continue; // nothing on screen changed (a tab already selected, say)
                    }
                    reactions++;
                    first.recordValue(TimeUnit.NANOSECONDS.toMicros(arrivals[0] - sentNs));
                    followers.recordValue(arrivals.length - 1);
                    long maxGap = 0;
                    for (int i = 1; i < arrivals.length; i++) {
                        maxGap = Math.max(maxGap, arrivals[i] - arrivals[i - 1]);
                    }
                    if (arrivals.length > 1) {
                        moreThanOne++;
                        gaps.recordValue(TimeUnit.NANOSECONDS.toMicros(maxGap));
                        worstGapNs = Math.max(worstGapNs, maxGap);
                    }
                }
                final String line = String.format(Locale.ROOT,
                    "| %s | %d | %d | %.0f / %.0f | %.0f / %d | %s | %s |", kind.name, reactions, moreThanOne,
                    first.getValueAtPercentile(50) / 1e3, first.getMaxValue() / 1e3,
                    (double) followers.getValueAtPercentile(50), followers.getMaxValue(),
                    moreThanOne == 0 ? "-" : String.format(Locale.ROOT, "%.0f / %.0f",
                        gaps.getValueAtPercentile(50) / 1e3, gaps.getValueAtPercentile(90) / 1e3),
                    moreThanOne == 0 ? "-" : String.format(Locale.ROOT, "%.0f", worstGapNs / 1e6));
                table.add(line);
                System.out.println(line);
            }
        }
        System.out.println();
        System.out.println("| reaction | reactions | with more than one generation | first newer generation ms p50 / max"
            + " | generations after the first p50 / max | largest gap ms p50 / p90 | largest gap ms max |");
        System.out.println("|---|---|---|---|---|---|---|");
        table.forEach(System.out::println);
    }

    /** The newest generation now. */
    private static long latest(final LiveDesktop live) throws IOException {
        final CompletionFlyweight c = live.query(Role.WINDOW, null, 0, 0, 0);
        return c.generation().generation();
    }

    /** The arrival times (nanoTime) of every generation after {@code after} until {@code quietNs} pass without one. */
    private static long[] follow(final LiveDesktop live, final long after, final long quietNs) throws IOException {
        long[] arrivals = new long[16];
        int n = 0;
        long newest = after;
        while (true) {
            final CompletionFlyweight c = live.query(Role.WINDOW, null, 0, newest, quietNs);
            if (c.result() != ResultCode.OK) {
                return Arrays.copyOf(arrivals, n); // TIMEOUT: quiet for the whole window
            }
            if (n == arrivals.length) {
                arrivals = Arrays.copyOf(arrivals, n * 2);
            }
            arrivals[n++] = System.nanoTime();
            newest = c.generation().generation();
        }
    }

    /** The id of the first actionable semantic target with this role and exact text, or 0. */
    private static long find(final LiveDesktop live, final int role, final String text) throws IOException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            final CompletionFlyweight c = live.query(role, LiveDesktop.utf8(text), TextMatch.EXACT, 0, 0);
            if (c.result() == ResultCode.OK) {
                for (long i = 0; i < c.targetCount(); i++) {
                    final TargetFlyweight t = new TargetFlyweight().wrap(c.bytes(),
                        c.offset() + c.targetsOffset() + i * c.targetStride());
                    if ((t.flags() & dev.saccade.protocol.TargetFlag.ACTIONABLE) != 0) {
                        return t.targetId();
                    }
                }
            }
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
        }
        return 0;
    }
}
