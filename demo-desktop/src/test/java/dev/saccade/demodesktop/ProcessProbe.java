package dev.saccade.demodesktop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The tests' own view of processes, read from /proc independently of the code under test.
 * A process is identified by pid and start time, so a recycled pid is never mistaken for it.
 */
final class ProcessProbe {
    /** One process as seen at one moment. */
    record Seen(long pid, long startTicks, String command) {
        /** Exited: no /proc entry, a zombie, or the pid belongs to a newer process. */
        boolean isGone() {
            final String stat = stat(pid);
            return stat == null || ProcessProbe.state(stat) == 'Z' || ProcessProbe.state(stat) == 'X'
                || ProcessProbe.startTicks(stat) != startTicks;
        }
    }

    private ProcessProbe() {
    }

    static Seen see(final long pid) {
        final String stat = stat(pid);
        if (stat == null) {
            throw new AssertionError("process " + pid + " does not exist");
        }
        return new Seen(pid, startTicks(stat), comm(stat));
    }

    /** Every live process whose initial environment holds {@code name=value}. */
    static List<Seen> withEnvironment(final String name, final String value) throws IOException {
        final byte[] wanted = (name + "=" + value).getBytes(StandardCharsets.UTF_8);
        final List<Seen> found = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (final Path entry : entries) {
                final byte[] environ;
                try {
                    environ = Files.readAllBytes(entry.resolve("environ"));
                } catch (final IOException ignore) {
                    continue;  // reason: exited during the scan
                }
                for (final byte[] variable : split(environ)) {
                    if (java.util.Arrays.equals(variable, wanted)) {
                        final long pid = Long.parseLong(entry.getFileName().toString());
                        final String stat = stat(pid);
                        if (stat != null && state(stat) != 'Z') {
                            found.add(new Seen(pid, startTicks(stat), comm(stat)));
                        }
                    }
                }
            }
        }
        return found;
    }

    private static List<byte[]> split(final byte[] environ) {
        final List<byte[]> variables = new ArrayList<>();
        int from = 0;
        for (int i = 0; i < environ.length; i++) {
            if (environ[i] == 0) {
                variables.add(java.util.Arrays.copyOfRange(environ, from, i));
                from = i + 1;
            }
        }
        return variables;
    }

    private static String stat(final long pid) {
        try {
            return Files.readString(Path.of("/proc/" + pid + "/stat"));
        } catch (final IOException e) {
            return null;
        }
    }

    private static char state(final String stat) {
        return stat.charAt(stat.lastIndexOf(')') + 2);
    }

    private static String comm(final String stat) {
        return stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    }

    /** Field 22 of /proc/[pid]/stat, counted after the command name. */
    private static long startTicks(final String stat) {
        final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[19]);
    }
}
