package dev.saccade.bench;

import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import dev.saccade.protocol.ResultCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * A click end to end (request sent until the ActionCompletion arrives; the input helper
 * completes a plan only after XSync, so the X server has processed the events) against
 * {@code xdotool click 1} and {@code xdotool click --delay 0 1} run as processes in the same run
 * (goal: Saccade p50 at least 5 × faster). A real test desktop with no apps, the real owner
 * service and its input-helper process; the clicks go to two GRID cells of the empty desktop in
 * turn: clicks on one point would each wait out the double-click time (MultiClickGuard, 600 ms).
 * Settings ({@code name=value}): {@code warmup} (500), {@code rounds} (5), {@code clicks} (400
 * Saccade clicks per round), {@code xdotool} (20 of each xdotool kind per round).
 */
public final class ClickBench {
    static final double GOAL_SPEEDUP = 5.0;

    public static void main(final String[] args) throws Exception {
        final int warmup = intArg(args, "warmup", 500);
        final int rounds = intArg(args, "rounds", 5);
        final int clicks = intArg(args, "clicks", 400);
        final int xdotoolClicks = intArg(args, "xdotool", 20);
        System.out.printf("Saccade click benchmark (bench/README.md): warmup=%d rounds=%d clicks=%d xdotool=%d%n",
            warmup, rounds, clicks, xdotoolClicks);
        final long start = System.nanoTime();
        final List<String> lines = new ArrayList<>();
        try (LiveDesktop live = LiveDesktop.start(false)) {
            final long[] cells = {live.gridCell(70), live.gridCell(75)};
            final int[] next = {0};
            final Series saccade = new Series("click_e2e", "Saccade CLICK batch -> ActionCompletion", rounds);
            final Series xdo = new Series("xdotool_click", "xdotool click 1 (process, to exit)", rounds);
            final Series xdoNoDelay = new Series("xdotool_click_delay0", "xdotool click --delay 0 1", rounds);
            final Runnable1 click = () -> {
                final long cell = cells[next[0]++ & 1];
                final int r = live.act(new byte[0], a -> a.kind(ActionKind.CLICK).targetId(cell)
                    .buttonBits(Button.LEFT));
                if (r != ResultCode.OK) {
                    throw new IllegalStateException("CLICK: " + ResultCode.name(r));
                }
            };
            final Runnable1 xdoClick = () -> runProcess(live.desktop, "xdotool", "click", "1");
            final Runnable1 xdoClickNoDelay = () -> runProcess(live.desktop, "xdotool", "click", "--delay", "0", "1");
            final long w0 = System.nanoTime();
            for (int i = 0; i < warmup; i++) {
                click.run();
            }
            for (int i = 0; i < 5; i++) {
                xdoClick.run();
                xdoClickNoDelay.run();
            }
            System.out.printf("warm-up %d Saccade clicks, 5 of each xdotool kind: %.1f s%n", warmup,
                (System.nanoTime() - w0) / 1e9);
            final Series[] all = {saccade, xdo, xdoNoDelay};
            final Runnable1[] bodies = {click, xdoClick, xdoClickNoDelay};
            final int[] counts = {clicks, xdotoolClicks, xdotoolClicks};
            final long m0 = System.nanoTime();
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < all.length; k++) {
                    final int s = (r + k) % all.length;
                    all[s].round(r, counts[s], bodies[s]);
                }
            }
            System.out.printf("%d rounds: %.1f s%n", rounds, (System.nanoTime() - m0) / 1e9);
            System.out.printf(Locale.ROOT, "%-42s %6s %9s %9s %9s %9s %9s%n", "series", "count", "p50 µs", "p90 µs",
                "p99 µs", "max µs", "mean µs");
            for (final Series s : all) {
                s.print();
                lines.add(s.machineLine());
            }
            for (final Series baseline : new Series[] {xdo, xdoNoDelay}) {
                final double p50 = baseline.h.getValueAtPercentile(50) / (double) saccade.h.getValueAtPercentile(50);
                final double p99 = baseline.h.getValueAtPercentile(99) / (double) saccade.h.getValueAtPercentile(99);
                final double[] perRound = new double[rounds];
                final StringBuilder b = new StringBuilder();
                for (int r = 0; r < rounds; r++) {
                    perRound[r] = baseline.roundP50[r] / (double) saccade.roundP50[r];
                    b.append(String.format(Locale.ROOT, " %.1f", perRound[r]));
                }
                final boolean met = p50 >= GOAL_SPEEDUP;
                System.out.printf(Locale.ROOT,
                    "speed-up %s / click_e2e: p50 %.1f×, p99 %.1f×; per round:%s; goal p50 >= %.0f×: %s%n",
                    baseline.key, p50, p99, b, GOAL_SPEEDUP, met ? "MET" : "NOT MET");
                lines.add(String.format(Locale.ROOT,
                    "BENCH figure=click_e2e_vs_%s p50_speedup=%.2f p99_speedup=%.2f p50_speedup_round_median=%.2f"
                        + " goal_p50_speedup=%.1f met=%b",
                    baseline.key, p50, p99, RoundTripBench.median(perRound), GOAL_SPEEDUP, met));
            }
        }
        System.out.printf(Locale.ROOT, "(whole run %.1f s)%n%n", (System.nanoTime() - start) / 1e9);
        lines.forEach(System.out::println);
    }

    /** Runs {@code command} with the desktop's environment to its exit; fails unless it exits 0 within 10 s. */
    static void runProcess(final TestDesktop desktop, final String... command) throws Exception {
        final Process p = desktop.configure(new ProcessBuilder(command))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not exit");
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited " + p.exitValue());
        }
    }

    /** {@code name=value} from the arguments, else the system property {@code saccade.bench.<name>}, else {@code fallback}. */
    public static String stringArg(final String[] args, final String name, final String fallback) {
        for (final String a : args) {
            if (a.startsWith(name + "=")) {
                return a.substring(name.length() + 1);
            }
        }
        return System.getProperty("saccade.bench." + name, fallback);
    }

    public static int intArg(final String[] args, final String name, final int fallback) {
        for (final String a : args) {
            if (a.startsWith(name + "=")) {
                return Integer.parseInt(a.substring(name.length() + 1).replace("_", ""));
            }
        }
        return Integer.getInteger("saccade.bench." + name, fallback);
    }

    @FunctionalInterface
    interface Runnable1 {
        void run() throws Exception;
    }

    /** One timed series: an HdrHistogram (ns, 3 digits) over all rounds, and each round's p50. */
    static final class Series {
        final String key;
        final String label;
        final Histogram h = new Histogram(3);
        final long[] roundP50;

        Series(final String key, final String label, final int rounds) {
            this.key = key;
            this.label = label;
            this.roundP50 = new long[rounds];
        }

        void round(final int r, final int n, final Runnable1 body) throws Exception {
            final Histogram round = new Histogram(3);
            for (int i = 0; i < n; i++) {
                final long t = System.nanoTime();
                body.run();
                final long d = System.nanoTime() - t;
                round.recordValue(d);
            }
            h.add(round);
            roundP50[r] = round.getValueAtPercentile(50);
        }

        void print() {
            System.out.printf(Locale.ROOT, "%-42s %6d %9.1f %9.1f %9.1f %9.1f %9.1f%n", label, h.getTotalCount(),
                h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(90) / 1e3, h.getValueAtPercentile(99) / 1e3,
                h.getMaxValue() / 1e3, h.getMean() / 1e3);
            final StringBuilder b = new StringBuilder();
            for (final long p : roundP50) {
                b.append(String.format(Locale.ROOT, " %.1f", p / 1e3));
            }
            System.out.printf("  p50 per round, %-22s µs:%s%n", key, b);
        }

        String machineLine() {
            return String.format(Locale.ROOT,
                "BENCH figure=%s count=%d p50_ns=%d p90_ns=%d p99_ns=%d max_ns=%d mean_ns=%.0f", key,
                h.getTotalCount(), h.getValueAtPercentile(50), h.getValueAtPercentile(90),
                h.getValueAtPercentile(99), h.getMaxValue(), h.getMean());
        }
    }
}
