package dev.saccade.installer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The manifest {@code <root>/installed-paths}: the directories install created, one
 * {@code directory <absolute path>} line each, so uninstall removes those (when empty) and no
 * directory that was there before. The data root and the login item are known from the layout
 * and need no line.
 */
final class InstalledPaths {
    static final String HEADER = "# Directories `saccade install` created; `saccade uninstall` removes them when empty.\n";
    static final String DIRECTORY = "directory ";

    private InstalledPaths() {
    }

    static String line(final Path directory) {
        return DIRECTORY + directory;
    }

    /** The manifest's entry lines, or none when there is no manifest. */
    static List<String> read(final InstallLayout layout) throws IOException {
        final List<String> lines = new ArrayList<>();
        if (!Files.isRegularFile(layout.manifest(), LinkOption.NOFOLLOW_LINKS)) {
            return lines;
        }
        try {
            for (final String line : Files.readAllLines(layout.manifest(), StandardCharsets.UTF_8)) {
                if (line.startsWith(DIRECTORY)) {
                    lines.add(line);
                }
            }
        } catch (final NoSuchFileException e) {
            return lines; // ignore: removed between the check and the read, so there is nothing recorded
        }
        return lines;
    }

    /**
     * The recorded directories that uninstall may remove: only those inside the home, so an
     * edited manifest cannot direct it elsewhere.
     */
    static List<Path> directories(final InstallLayout layout) throws IOException {
        final List<Path> directories = new ArrayList<>();
        for (final String line : read(layout)) {
            final Path p = Path.of(line.substring(DIRECTORY.length())).normalize();
            if (p.isAbsolute() && p.startsWith(layout.home()) && !p.equals(layout.home())) {
                directories.add(p);
            }
        }
        return directories;
    }
}
