package dev.saccade.demodesktop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finds every process that belongs to one desktop, whoever its parent is now.
 *
 * <p>Process trees are not enough: dbus-daemon starts activated services (at-spi-bus-launcher,
 * at-spi2-registryd, the accessibility bus daemon) through a babysitter that exits, so they are
 * re-parented to PID 1 and are nobody's descendants. What they all keep is the environment they
 * were started with, which contains our private {@code XDG_RUNTIME_DIR}; that path is unique to
 * the desktop, so matching it in {@code /proc/[pid]/environ} finds exactly our processes (and
 * those a test started with {@link TestDesktop#environment()}). A command line naming a path
 * inside our directory counts as well.
 *
 * <p>Our own JVM and its ancestors are never returned, whatever their environment says.
 */
final class DesktopProcessScan {
    private static final Path PROC = Path.of("/proc");

    private DesktopProcessScan() {
    }

    static List<ProcessHandle> find(final SessionDirectory directory) {
        final byte[] environMarker = (DesktopEnvironment.XDG_RUNTIME_DIR + "=" + directory.runtime() + "\0")
            .getBytes(StandardCharsets.UTF_8);
        final byte[] commandLineMarker = (directory.root() + "/").getBytes(StandardCharsets.UTF_8);
        final Set<Long> excluded = selfAndAncestors();
        final List<ProcessHandle> found = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC)) {
            for (final Path entry : entries) {
                final long pid = parsePid(entry.getFileName().toString());
                if (pid <= 0 || excluded.contains(pid)) {
                    continue;
                }
                if (startsWithMarker(entry.resolve("environ"), environMarker)
                    || contains(read(entry.resolve("cmdline")), commandLineMarker)) {
                    final Optional<ProcessHandle> handle = ProcessHandle.of(pid);
                    if (handle.isPresent() && !ProcessStopper.isGone(handle.get())) {
                        found.add(handle.get());
                    }
                }
            }
        } catch (final IOException e) {
            throw new TestDesktopException("cannot list /proc", e);
        }
        return found;
    }

    private static boolean startsWithMarker(final Path environ, final byte[] marker) {
        final byte[] bytes = read(environ);
        // Match at the start of the block or right after a NUL: a whole variable, not a suffix.
        for (int i = indexOf(bytes, marker, 0); i >= 0; i = indexOf(bytes, marker, i + 1)) {
            if (i == 0 || bytes[i - 1] == 0) {
                return true;
            }
        }
        return false;
    }

    private static boolean contains(final byte[] bytes, final byte[] marker) {
        return indexOf(bytes, marker, 0) >= 0;
    }

    private static int indexOf(final byte[] bytes, final byte[] marker, final int from) {
        outer:
        for (int i = from, last = bytes.length - marker.length; i <= last; i++) {
            for (int j = 0; j < marker.length; j++) {
                if (bytes[i + j] != marker[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static byte[] read(final Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (final IOException | SecurityException ignore) {
            // reason: the process exited while we scanned, or belongs to another user; not ours either way
            return new byte[0];
        }
    }

    private static long parsePid(final String name) {
        long pid = 0;
        for (int i = 0; i < name.length(); i++) {
            final char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            pid = pid * 10 + (c - '0');
        }
        return pid;
    }

    private static Set<Long> selfAndAncestors() {
        final Set<Long> pids = new HashSet<>();
        Optional<ProcessHandle> process = Optional.of(ProcessHandle.current());
        while (process.isPresent()) {
            pids.add(process.get().pid());
            process = process.get().parent();
        }
        return pids;
    }
}
