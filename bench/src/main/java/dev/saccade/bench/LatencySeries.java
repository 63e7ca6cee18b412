package dev.saccade.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * One measured series: an exchange timed with {@link System#nanoTime()} around the whole round
 * trip, recorded in an HdrHistogram (ns, 3 significant digits), run in rounds that the harness
 * interleaves with its baseline's. Every reply's length is checked against the expected one, so
 * a series that silently answers something else fails loudly instead of looking fast.
 *
 * <p>For a series served by the owner it also reads the owner thread's allocated bytes and CPU
 * time around each recorded round (never inside the timed loop).
 */
final class LatencySeries {
    /** One round trip. @return the reply's length. */
    @FunctionalInterface
    interface Exchange {
        int exchange() throws IOException;
    }

    private static final long HIGHEST_NS = TimeUnit.SECONDS.toNanos(60);
    private static final int SIGNIFICANT_DIGITS = 3;
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    final String label;
    /** Machine-readable name. */
    final String key;
    private final Exchange exchange;
    private final int expectedLength;
    private final Thread observed;
    private final BenchClient client;
    private final ThreadSchedCounters sched;
    private final Histogram all = new Histogram(HIGHEST_NS, SIGNIFICANT_DIGITS);
    private final Histogram round = new Histogram(HIGHEST_NS, SIGNIFICANT_DIGITS);
    private final long[] roundP50;
    private int rounds;
    private long observedAllocatedBytes;
    private long observedCpuNs;
    private long clientReads;
    private long observedVoluntarySwitches;
    private long observedInvoluntarySwitches;
    private boolean schedKnown = true;

    /**
     * @param client the client the exchange uses, to count its reads per exchange; null if none.
     * @param observed the thread whose allocation and CPU time to attribute to this series (the
     *     owner thread), or null.
     */
    LatencySeries(final String label, final String key, final Exchange exchange, final int expectedLength,
        final BenchClient client, final Thread observed, final int maxRounds) {
        this.label = label;
        this.key = key;
        this.exchange = exchange;
        this.expectedLength = expectedLength;
        this.observed = observed;
        this.client = client;
        this.sched = observed == null ? null : ThreadSchedCounters.find(observed.getName());
        this.roundP50 = new long[maxRounds];
    }

    /** Unrecorded exchanges. */
    void warmUp(final int iterations) throws IOException {
        for (int i = 0; i < iterations; i++) {
            check(exchange.exchange());
        }
    }

    /** One recorded round of {@code iterations} exchanges. */
    void runRound(final int iterations) throws IOException {
        round.reset();
        final long id = observed == null ? -1 : observed.getId();
        final long allocBefore = id < 0 ? 0 : THREADS.getThreadAllocatedBytes(id);
        final long cpuBefore = id < 0 ? 0 : THREADS.getThreadCpuTime(id);
        final long readsBefore = client == null ? 0 : client.reads();
        final long[] schedBefore = sched == null ? null : sched.read();
        final Exchange ex = exchange;
        final Histogram h = round;
        for (int i = 0; i < iterations; i++) {
            final long t0 = System.nanoTime();
            final int length = ex.exchange();
            final long t1 = System.nanoTime();
            check(length);
            h.recordValue(t1 - t0);
        }
        if (client != null) {
            clientReads += client.reads() - readsBefore;
        }
        if (sched != null) {
            final long[] after = sched.read();
            if (schedBefore[0] < 0 || after[0] < 0) {
                schedKnown = false;
            }
            observedVoluntarySwitches += after[0] - schedBefore[0];
            observedInvoluntarySwitches += after[1] - schedBefore[1];
        }
        if (id >= 0) {
            observedAllocatedBytes += THREADS.getThreadAllocatedBytes(id) - allocBefore;
            observedCpuNs += THREADS.getThreadCpuTime(id) - cpuBefore;
        }
        all.add(h);
        roundP50[rounds++] = h.getValueAtPercentile(50);
    }

    private void check(final int length) throws IOException {
        if (length != expectedLength) {
            throw new IOException(label + ": reply of " + length + " bytes, expected " + expectedLength);
        }
    }

    Histogram histogram() {
        return all;
    }

    long count() {
        return all.getTotalCount();
    }

    long p50() {
        return all.getValueAtPercentile(50);
    }

    long p90() {
        return all.getValueAtPercentile(90);
    }

    long p99() {
        return all.getValueAtPercentile(99);
    }

    long max() {
        return all.getMaxValue();
    }

    double mean() {
        return all.getMean();
    }

    /** p50 of each round, in run order. */
    long[] roundP50s() {
        return java.util.Arrays.copyOf(roundP50, rounds);
    }

    boolean observesOwner() {
        return observed != null;
    }

    /** Bytes the observed thread allocated during recorded rounds, per exchange. */
    double observedAllocatedBytesPerExchange() {
        return count() == 0 ? 0 : observedAllocatedBytes / (double) count();
    }

    long observedAllocatedBytes() {
        return observedAllocatedBytes;
    }

    /** The client's {@code read(2)} calls per exchange, or NaN without a client. */
    double clientReadsPerExchange() {
        return client == null || count() == 0 ? Double.NaN : clientReads / (double) count();
    }

    /** The observed thread's voluntary context switches (parks) per exchange, or NaN if unknown. */
    double observedVoluntarySwitchesPerExchange() {
        return sched == null || !schedKnown || count() == 0 ? Double.NaN
            : observedVoluntarySwitches / (double) count();
    }

    /** The observed thread's involuntary context switches per exchange, or NaN if unknown. */
    double observedInvoluntarySwitchesPerExchange() {
        return sched == null || !schedKnown || count() == 0 ? Double.NaN
            : observedInvoluntarySwitches / (double) count();
    }

    /** CPU time of the observed thread during recorded rounds, per exchange, ns. */
    double observedCpuNsPerExchange() {
        return count() == 0 ? 0 : observedCpuNs / (double) count();
    }
}
