package dev.saccade.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One application's processes (the one started and its descendants: Chromium's and Firefox's
 * helpers, soffice.bin under its launcher, xterm's shell) and what they cost: CPU ticks
 * (utime + stime of {@code /proc/<pid>/stat}, 100 a second) and resident memory, summed.
 */
final class AppProcesses {
    static final long CLK_TCK = 100; // getconf CLK_TCK on Linux
    private static final long PAGE = 4096;

    private final List<Long> pids;

    private AppProcesses(final List<Long> pids) {
        this.pids = pids;
    }

    static AppProcesses of(final Process process) {
        final List<Long> pids = new ArrayList<>();
        if (process.isAlive()) {
            pids.add(process.pid());
        }
        process.descendants().forEach(p -> pids.add(p.pid()));
        return new AppProcesses(pids);
    }

    static AppProcesses of(final long... pids) {
        final List<Long> list = new ArrayList<>();
        for (final long pid : pids) {
            list.add(pid);
        }
        return new AppProcesses(list);
    }

    List<Long> pids() {
        return pids;
    }

    /** CPU ticks per pid now (a process that ended meanwhile is left out). */
    Map<Long, Long> ticks() {
        final Map<Long, Long> ticks = new HashMap<>();
        for (final long pid : pids) {
            final String[] f = stat(pid);
            if (f != null) {
                ticks.put(pid, Long.parseLong(f[11]) + Long.parseLong(f[12])); // fields 14 and 15
            }
        }
        return ticks;
    }

    /** Ticks spent between two {@link #ticks()} readings; a process new in {@code after} counts from 0. */
    static long spent(final Map<Long, Long> before, final Map<Long, Long> after) {
        long sum = 0;
        for (final Map.Entry<Long, Long> e : after.entrySet()) {
            sum += Math.max(0, e.getValue() - before.getOrDefault(e.getKey(), 0L));
        }
        return sum;
    }

    /** Resident memory of all its processes, KiB (shared pages count once per process). */
    long rssKib() {
        long kib = 0;
        for (final long pid : pids) {
            try {
                final String[] statm = Files.readString(Path.of("/proc", Long.toString(pid), "statm"),
                    StandardCharsets.US_ASCII).trim().split(" ");
                kib += Long.parseLong(statm[1]) * PAGE / 1024;
            } catch (final IOException gone) {
                // the process ended between the listing and the read
            }
        }
        return kib;
    }

    /** Nanoseconds all its threads have run (schedstat), finer than the ticks: for one refresh. */
    long onCpuNs() {
        long ns = 0;
        for (final long pid : pids) {
            try {
                ns += AtspiRefreshBench.onCpuNs(pid);
            } catch (final IOException gone) {
                // the process ended
            }
        }
        return ns;
    }

    private static String[] stat(final long pid) {
        try {
            final String s = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
            return s.substring(s.lastIndexOf(')') + 2).split(" ");
        } catch (final IOException gone) {
            return null;
        }
    }
}
