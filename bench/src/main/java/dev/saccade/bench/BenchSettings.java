package dev.saccade.bench;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The round-trip harness's knobs. Each is a system property {@code saccade.bench.<name>} with a
 * default; a {@code main} argument {@code <name>=<value>} (with or without the prefix) wins over
 * the property. The defaults keep a whole run under a minute on an idle two-core machine (the
 * 1 MiB series cost 0.1 to 0.5 ms an exchange, the small ones 5 to 20 µs) and give each series
 * 20,000 (1 MiB) or 200,000 (small) recorded samples, so p99 rests on hundreds of them.
 */
final class BenchSettings {
    static final String PREFIX = "saccade.bench.";

    /** Rounds per comparison; each round runs every series once, in rotated order. */
    static final String ROUNDS_PROP = PREFIX + "rounds";
    static final int ROUNDS_DEFAULT = 5;
    /** Unrecorded exchanges per series before the first round of the 10,000-target comparison. */
    static final String LARGE_WARMUP_PROP = PREFIX + "large.warmup";
    static final int LARGE_WARMUP_DEFAULT = 2_000;
    /** Recorded exchanges per series per round, 10,000-target comparison. */
    static final String LARGE_ITERATIONS_PROP = PREFIX + "large.iterations";
    static final int LARGE_ITERATIONS_DEFAULT = 4_000;
    /** Unrecorded exchanges per series before the active-window comparison. */
    static final String SMALL_WARMUP_PROP = PREFIX + "small.warmup";
    static final int SMALL_WARMUP_DEFAULT = 20_000;
    /** Recorded exchanges per series per round, active-window comparison. */
    static final String SMALL_ITERATIONS_PROP = PREFIX + "small.iterations";
    static final int SMALL_ITERATIONS_DEFAULT = 40_000;
    /** Unrecorded observes and queries before the owner thread's allocation counter is read. */
    static final String ALLOC_WARMUP_PROP = PREFIX + "alloc.warmup";
    static final int ALLOC_WARMUP_DEFAULT = 20_000;
    /** Observes and queries between the two allocation readings. */
    static final String ALLOC_REQUESTS_PROP = PREFIX + "alloc.requests";
    static final int ALLOC_REQUESTS_DEFAULT = 100_000;
    /** Which parts run: a comma-separated subset of large, small, alloc. */
    static final String ONLY_PROP = PREFIX + "only";
    static final String ONLY_DEFAULT = "large,small,alloc";

    /**
     * Adds diagnostic baselines to the 10,000-target comparison: the echo served the owner's way
     * (non-blocking, busy-polling), with the default and with a 2 MiB SO_SNDBUF.
     */
    static final String DIAGNOSTICS_PROP = PREFIX + "diagnostics";
    static final boolean DIAGNOSTICS_DEFAULT = false;

    static final String LARGE = "large";
    static final String SMALL = "small";
    static final String ALLOC = "alloc";

    final int rounds;
    final int largeWarmup;
    final int largeIterations;
    final int smallWarmup;
    final int smallIterations;
    final int allocWarmup;
    final int allocRequests;
    final Set<String> parts;
    final boolean diagnostics;

    private BenchSettings(final Map<String, String> args) {
        rounds = positive(args, ROUNDS_PROP, ROUNDS_DEFAULT);
        largeWarmup = notNegative(args, LARGE_WARMUP_PROP, LARGE_WARMUP_DEFAULT);
        largeIterations = positive(args, LARGE_ITERATIONS_PROP, LARGE_ITERATIONS_DEFAULT);
        smallWarmup = notNegative(args, SMALL_WARMUP_PROP, SMALL_WARMUP_DEFAULT);
        smallIterations = positive(args, SMALL_ITERATIONS_PROP, SMALL_ITERATIONS_DEFAULT);
        allocWarmup = notNegative(args, ALLOC_WARMUP_PROP, ALLOC_WARMUP_DEFAULT);
        allocRequests = positive(args, ALLOC_REQUESTS_PROP, ALLOC_REQUESTS_DEFAULT);
        diagnostics = Boolean.parseBoolean(value(args, DIAGNOSTICS_PROP, Boolean.toString(DIAGNOSTICS_DEFAULT)));
        parts = new LinkedHashSet<>(Arrays.asList(value(args, ONLY_PROP, ONLY_DEFAULT).split(",")));
        for (final String part : parts) {
            if (!part.equals(LARGE) && !part.equals(SMALL) && !part.equals(ALLOC)) {
                throw new IllegalArgumentException(ONLY_PROP + ": unknown part '" + part + "' (large, small, alloc)");
            }
        }
    }

    /** @param args {@code name=value} pairs, e.g. {@code rounds=3} or {@code saccade.bench.rounds=3}. */
    static BenchSettings from(final String[] args) {
        final Map<String, String> map = new HashMap<>();
        for (final String arg : args) {
            final int eq = arg.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("arguments are name=value, e.g. rounds=3; got '" + arg + "'");
            }
            final String name = arg.substring(0, eq).replaceFirst("^--", "");
            map.put(name.startsWith(PREFIX) ? name : PREFIX + name, arg.substring(eq + 1));
        }
        return new BenchSettings(map);
    }

    boolean runs(final String part) {
        return parts.contains(part);
    }

    @Override
    public String toString() {
        return "rounds=" + rounds + " large.warmup=" + largeWarmup + " large.iterations=" + largeIterations
            + " small.warmup=" + smallWarmup + " small.iterations=" + smallIterations
            + " alloc.warmup=" + allocWarmup + " alloc.requests=" + allocRequests + " only=" + String.join(",", parts) + " diagnostics=" + diagnostics;
    }

    private static String value(final Map<String, String> args, final String prop, final String def) {
        final String v = args.get(prop);
        return v != null ? v : System.getProperty(prop, def);
    }

    private static int notNegative(final Map<String, String> args, final String prop, final int def) {
        final int v = Integer.parseInt(value(args, prop, Integer.toString(def)).replace("_", "").trim());
        if (v < 0) {
            throw new IllegalArgumentException(prop + "=" + v + ": must not be negative");
        }
        return v;
    }

    private static int positive(final Map<String, String> args, final String prop, final int def) {
        final int v = notNegative(args, prop, def);
        if (v == 0) {
            throw new IllegalArgumentException(prop + "=0: must be positive");
        }
        return v;
    }
}
