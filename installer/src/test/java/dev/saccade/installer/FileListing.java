package dev.saccade.installer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Every path under a directory with its type, mode, size and link target, one sorted line each:
 * two listings are equal exactly when nothing was added, removed or changed in kind or mode.
 */
public final class FileListing {
    private FileListing() {
    }

    public static List<String> of(final Path root) throws IOException {
        final List<String> lines = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (final Path p : (Iterable<Path>) walk.sorted()::iterator) {
                final String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
                final String name = root.relativize(p).toString();
                if (Files.isSymbolicLink(p)) {
                    lines.add("link " + name + " -> " + Files.readSymbolicLink(p));
                } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    lines.add("directory " + name + " " + mode);
                } else {
                    lines.add("file " + name + " " + mode + " " + Files.size(p));
                }
            }
        }
        return lines;
    }
}
