package dev.saccade.protocol;

import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The fuzz regime of spec §6 cases 11–12 as a generator, so the validators here and a running
 * service elsewhere are fed the same cases: every truncation and every single-bit flip of each
 * seed, then random cases from xorshift64* seeded 0x9E3779B97F4A7C15 (1 in 8 fully random, up to
 * 4,096 bytes; else a seed with up to 64 random bytes appended, 1 to 16 byte mutations and a
 * 1-in-4 random truncation).
 */
public final class FuzzCases {
    public static final long SEED = 0x9E3779B97F4A7C15L;
    public static final int MAX_RANDOM_BYTES = 4096;

    private FuzzCases() {
    }

    /** The eight-plus seeds: requests of every kind (with text), and completions of every kind. */
    public static List<byte[]> seeds() {
        return List.of(
            Frames.hello(7, Capability.OBSERVE),
            Frames.observe(),
            Frames.query(),
            Frames.queryWithText(TextMatch.SUBSTRING, "Button"),
            Frames.abortBatch(),
            Frames.textBatch("hello, wörld"),
            Frames.helloCompletion(),
            Frames.observeCompletion(),
            Frames.actionCompletion());
    }

    public static List<byte[]> requestSeeds() {
        return List.of(Frames.observe(), Frames.query(), Frames.queryWithText(TextMatch.SUBSTRING, "Button"),
            Frames.abortBatch(), Frames.textBatch("hello, wörld"));
    }

    /** Every truncation 0..size and every single-bit flip of each seed, with a label. */
    public static void deterministic(final List<byte[]> seeds, final BiConsumer<byte[], String> sink) {
        for (final byte[] seed : seeds) {
            for (int n = 0; n <= seed.length; n++) {
                sink.accept(Arrays.copyOf(seed, n), "truncation " + n);
            }
            for (int bit = 0; bit < seed.length * 8; bit++) {
                final byte[] flipped = seed.clone();
                flipped[bit >> 3] ^= (byte) (1 << (bit & 7));
                sink.accept(flipped, "bit flip " + bit);
            }
        }
    }

    /** {@code count} random cases from the fixed seed, with a label. */
    public static void random(final List<byte[]> seeds, final int count, final BiConsumer<byte[], String> sink) {
        random(seeds, count, SEED, sink);
    }

    /** {@code count} random cases from {@code seed} (a campaign of bench/run fuzz), with a label. */
    public static void random(final List<byte[]> seeds, final int count, final long campaignSeed,
        final BiConsumer<byte[], String> sink) {
        long state = campaignSeed;
        for (int i = 0; i < count; i++) {
            state = next(state);
            final byte[] frame;
            if ((state & 7) == 0) {
                state = next(state);
                final int n = (int) Long.remainderUnsigned(mix(state), MAX_RANDOM_BYTES + 1);
                frame = new byte[n];
                for (int k = 0; k < n; k++) {
                    state = next(state);
                    frame[k] = (byte) mix(state);
                }
            } else {
                state = next(state);
                final byte[] seed = seeds.get((int) Long.remainderUnsigned(mix(state), seeds.size()));
                state = next(state);
                final int appended = (int) Long.remainderUnsigned(mix(state), 65);
                final byte[] f = Arrays.copyOf(seed, seed.length + appended);
                for (int k = seed.length; k < f.length; k++) {
                    state = next(state);
                    f[k] = (byte) mix(state);
                }
                state = next(state);
                final int mutations = 1 + (int) Long.remainderUnsigned(mix(state), 16);
                for (int m = 0; m < mutations; m++) {
                    state = next(state);
                    final int at = (int) Long.remainderUnsigned(mix(state), f.length);
                    state = next(state);
                    f[at] = (byte) mix(state);
                }
                state = next(state);
                if ((mix(state) & 3) == 0) {
                    state = next(state);
                    frame = Arrays.copyOf(f, (int) Long.remainderUnsigned(mix(state), f.length + 1));
                } else {
                    frame = f;
                }
            }
            sink.accept(frame, "random case " + i);
        }
    }

    /** xorshift64*: the state step. */
    static long next(final long x0) {
        long x = x0;
        x ^= x >>> 12;
        x ^= x << 25;
        x ^= x >>> 27;
        return x;
    }

    /** xorshift64*: the output of a state. */
    static long mix(final long x) {
        return x * 0x2545F4914F6CDD1DL;
    }
}
