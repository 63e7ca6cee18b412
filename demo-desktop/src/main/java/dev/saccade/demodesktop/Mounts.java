package dev.saccade.demodesktop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The mounts inside a desktop's private directory, and their removal. A session bus can start
 * services that mount a file system in XDG_RUNTIME_DIR (xdg-document-portal puts a FUSE file
 * system at {@code run/doc}); deleting the directory must unmount them first and never delete
 * through one, which would reach files that are not the desktop's.
 */
final class Mounts {
    static final Path MOUNT_INFO = Path.of("/proc/self/mountinfo");
    private static final long UNMOUNT_TIMEOUT_MS = 5_000;

    /** One mount point and its file system type. */
    record Mount(Path point, String type) {
    }

    private Mounts() {
    }

    /** The mounts strictly below {@code root}, deepest first (so each can be unmounted in turn). */
    static List<Mount> under(final Path root) throws IOException {
        return parse(Files.readString(MOUNT_INFO, StandardCharsets.UTF_8), root);
    }

    /** {@link #under} over the text of a mountinfo file (proc(5)). */
    static List<Mount> parse(final String mountInfo, final Path root) {
        final Path base = root.toAbsolutePath().normalize();
        final List<Mount> found = new ArrayList<>();
        for (final String line : mountInfo.split("\n")) {
            final String[] fields = line.split(" ");
            final int dash = List.of(fields).indexOf("-");
            if (fields.length < 5 || dash < 6 || dash + 1 >= fields.length) {
                continue;
            }
            final Path point = Path.of(unescape(fields[4]));
            if (point.startsWith(base) && !point.equals(base)) {
                found.add(new Mount(point, fields[dash + 1]));
            }
        }
        found.sort(Comparator.comparingInt((Mount m) -> m.point().getNameCount()).reversed());
        return found;
    }

    /** Octal escapes of mountinfo: {@code \040} space, {@code \011} tab, {@code \012} newline, {@code \134} backslash. */
    static String unescape(final String field) {
        final StringBuilder out = new StringBuilder(field.length());
        for (int i = 0; i < field.length(); i++) {
            final char c = field.charAt(i);
            if (c == '\\' && isOctal(field, i + 1)) {
                out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean isOctal(final String s, final int from) {
        if (from + 3 > s.length()) {
            return false;
        }
        for (int i = from; i < from + 3; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '7') {
                return false;
            }
        }
        return true;
    }

    /**
     * Detaches a mount lazily (it goes once nothing uses it): a FUSE mount through fusermount,
     * which an unprivileged user may run on their own mounts, else umount. True once it is gone
     * from the mount table.
     */
    static boolean unmount(final Mount mount) throws IOException {
        final String point = mount.point().toString();
        final List<List<String>> commands = mount.type().startsWith("fuse")
            ? List.of(List.of("fusermount3", "-u", "-z", point), List.of("fusermount", "-u", "-z", point),
                List.of("umount", "-l", point))
            : List.of(List.of("umount", "-l", point));
        for (final List<String> command : commands) {
            if (run(command) && !isMounted(mount.point())) {
                return true;
            }
        }
        return !isMounted(mount.point());
    }

    private static boolean isMounted(final Path point) throws IOException {
        return parse(Files.readString(MOUNT_INFO, StandardCharsets.UTF_8), point.getParent()).stream()
            .anyMatch(m -> m.point().equals(point));
    }

    private static boolean run(final List<String> command) {
        try {
            final Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(UNMOUNT_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (final IOException e) {
            return false; // reason: that tool is not installed; the next one is tried
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
