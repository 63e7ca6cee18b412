package dev.saccade.bench;

import dev.saccade.demodesktop.DemoApp;
import dev.saccade.protocol.ActionFlag;
import dev.saccade.protocol.ActionKind;
import dev.saccade.protocol.Button;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Filling 1,000 characters into a GTK entry (zenity's) with TEXT and FILL (D48) against typing
 * the same characters with TEXT, in the same run. Per round the entry is cleared through the
 * service (TypingBench's clear), then: (a) a FILL batch, send until its ActionCompletion, which
 * comes only once zenity reported the whole text back; (b) after clearing again, a TEXT batch
 * typed by key events, send until a query of the window's TEXT_FIELD reads the string (TypingBench's
 * read back). Goal: (a) p50 ≤ 50 ms. Settings ({@code name=value}): {@code rounds} (10),
 * {@code warmup} (3), {@code chars} (1,000).
 */
public final class FillBench {
    static final long GOAL_NS = TimeUnit.MILLISECONDS.toNanos(50);

    private FillBench() {
    }

    public static void main(final String[] args) throws Exception {
        final int rounds = ClickBench.intArg(args, "rounds", 10);
        final int warmup = ClickBench.intArg(args, "warmup", 3);
        final int chars = ClickBench.intArg(args, "chars", 1_000);
        System.out.printf("Saccade fill benchmark (bench/README.md): rounds=%d warmup=%d chars=%d%n", rounds, warmup,
            chars);
        final byte[] utf8 = LiveDesktop.utf8(TypingBench.randomText(chars));
        try (LiveDesktop live = LiveDesktop.start(true, DemoApp.ZENITY_ENTRY)) {
            final long window = live.desktop.apps().get(0).windowId();
            final long field = TypingBench.awaitField(live, window);
            for (int w = 0; w < warmup; w++) {
                fill(live, field, window, utf8);
            }
            final long[] filled = new long[rounds];
            final long[] typed = new long[rounds];
            for (int r = 0; r < rounds; r++) {
                filled[r] = fill(live, field, window, utf8);
                TypingBench.clear(live, field, window);
                final long t0 = System.nanoTime();
                live.ok("TEXT", utf8, a -> a.kind(ActionKind.TEXT).targetId(field).buttonBits(Button.LEFT));
                final long seen = TypingBench.readBack(live, window, utf8, t0 + TimeUnit.SECONDS.toNanos(20));
                typed[r] = seen < 0 ? Long.MAX_VALUE : seen - t0;
                System.out.printf(Locale.ROOT, "round %d: fill %.1f ms, typed and read back %.1f ms%n", r,
                    filled[r] / 1e6, typed[r] / 1e6);
            }
            final long f = TypingBench.median(filled);
            final long t = TypingBench.median(typed);
            Arrays.sort(filled);
            System.out.printf(Locale.ROOT, "%,d characters, medians: fill %.1f ms (max %.1f ms), typed %.1f ms;"
                + " typed / fill %.1f×; goal fill p50 <= 50 ms: %s%n", chars, f / 1e6, filled[rounds - 1] / 1e6,
                t / 1e6, t / (double) f, f <= GOAL_NS ? "MET" : "NOT MET");
            System.out.printf(Locale.ROOT, "BENCH figure=fill_%d p50_ns=%d max_ns=%d typed_p50_ns=%d ratio=%.2f met=%b%n",
                chars, f, filled[rounds - 1], t, t / (double) f, f <= GOAL_NS);
        }
    }

    /** One fill after clearing: send until the completion (zenity read the text back), in ns. */
    private static long fill(final LiveDesktop live, final long field, final long window, final byte[] utf8)
        throws Exception {
        TypingBench.clear(live, field, window);
        final long t0 = System.nanoTime();
        live.ok("FILL", utf8, a -> a.kind(ActionKind.TEXT).flags(ActionFlag.FILL).targetId(field).buttonBits(Button.LEFT));
        return System.nanoTime() - t0;
    }
}
