package dev.saccade.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * A thread's context-switch counters from {@code /proc/self/task/<tid>/status} (Linux). The owner
 * thread never blocks in a system call (its sockets are non-blocking), so each voluntary switch
 * is a park of its idle strategy; involuntary ones are preemptions and yields that gave the CPU
 * away. Read outside timed loops only (it allocates).
 */
final class ThreadSchedCounters {
    private final Path status;

    private ThreadSchedCounters(final Path status) {
        this.status = status;
    }

    /** The counters of the live thread named {@code name} (as the kernel truncates it), or null. */
    static ThreadSchedCounters find(final String name) {
        final String comm = name.length() > 15 ? name.substring(0, 15) : name;
        final Path tasks = Paths.get("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return null;
        }
        ThreadSchedCounters found = null;
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tasks)) {
            for (final Path task : dirs) {
                final String c = new String(Files.readAllBytes(task.resolve("comm")), StandardCharsets.US_ASCII).trim();
                if (c.equals(comm)) {
                    if (found != null) {
                        return null; // ambiguous
                    }
                    found = new ThreadSchedCounters(task.resolve("status"));
                }
            }
        } catch (final IOException e) {
            return null;
        }
        return found;
    }

    /** {voluntary, involuntary} context switches so far; {-1, -1} if unreadable. */
    long[] read() {
        final long[] v = {-1, -1};
        try {
            for (final String line : Files.readAllLines(status, StandardCharsets.US_ASCII)) {
                if (line.startsWith("voluntary_ctxt_switches:")) {
                    v[0] = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                    v[1] = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        } catch (final IOException | NumberFormatException e) {
            return new long[] {-1, -1};
        }
        return v;
    }
}
