package dev.saccade.installer;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Everything one install writes, worked out before anything is written, so {@code --dry-run}
 * prints exactly what {@link #apply()} would do. Built by looking at the file system only.
 *
 * <p>Order of {@link #apply()}, chosen so that an install cut off at any point leaves a layout
 * that still starts the previous version and that {@code saccade uninstall} can remove:
 * <ol>
 *   <li>missing directories, mode 0700, and the manifest of them ({@link InstallLayout#MANIFEST});</li>
 *   <li>the distribution copied to {@code versions/.<version>.partial-<pid>}, then renamed to
 *       {@code versions/<version>} (a version directory is complete or absent);</li>
 *   <li>{@code current} switched: a new link beside it renamed over it (rename is atomic, so a
 *       starting supervisor sees the old or the new version, never no link);</li>
 *   <li>the login item written beside its place and renamed over it.</li>
 * </ol>
 * Files are private to the user (0600, 0700 for executables); an already installed version with
 * the same content is kept, one with different content is refused, never overwritten under a
 * running process.
 */
public final class InstallPlan {
    static final String DIRECTORY_MODE = "rwx------";
    static final String FILE_MODE = "rw-------";
    static final String EXECUTABLE_MODE = "rwx------";

    private final InstallLayout layout;
    private final Distribution distribution;
    private final LoginItem loginItem;
    private final List<Path> missingDirectories;
    private final List<String> manifestLines;
    /** Distribution files relative to its directory; empty when the version is installed already. */
    private final List<Path> filesToCopy;

    private InstallPlan(final InstallLayout layout, final Distribution distribution, final LoginItem loginItem,
        final List<Path> missingDirectories, final List<String> manifestLines, final List<Path> filesToCopy) {
        this.layout = layout;
        this.distribution = distribution;
        this.loginItem = loginItem;
        this.missingDirectories = missingDirectories;
        this.manifestLines = manifestLines;
        this.filesToCopy = filesToCopy;
    }

    /** The plan that installs {@code distribution} into {@code layout} with {@code loginItem}. */
    public static InstallPlan of(final InstallLayout layout, final Distribution distribution, final LoginItem loginItem)
        throws InstallException {
        if (!Files.isDirectory(layout.home())) {
            // A mistyped --home would otherwise be created, and uninstall never removes a home.
            throw new InstallException(InstallException.Kind.LAYOUT, "the home directory " + layout.home()
                + " does not exist");
        }
        try {
            final Set<Path> missing = new LinkedHashSet<>();
            for (final Path directory : layout.directories()) {
                addMissing(layout.home(), directory, missing);
            }
            final List<String> manifest = new ArrayList<>(InstalledPaths.read(layout));
            for (final Path directory : missing) {
                final String line = InstalledPaths.line(directory);
                if (!manifest.contains(line)) {
                    manifest.add(line);
                }
            }
            final List<Path> files = filesOf(distribution.directory());
            final Path target = layout.version(distribution.version());
            final List<Path> toCopy;
            if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                if (!sameContent(distribution.directory(), files, target)) {
                    throw new InstallException(InstallException.Kind.LAYOUT, "version " + distribution.version()
                        + " is installed already at " + target + " with other content; it is not replaced under a"
                        + " running supervisor (uninstall first, or install a distribution with a new version)");
                }
                toCopy = List.of();
            } else {
                toCopy = files;
            }
            return new InstallPlan(layout, distribution, loginItem, List.copyOf(missing), List.copyOf(manifest), toCopy);
        } catch (final IOException e) {
            throw new InstallException(InstallException.Kind.LAYOUT, "cannot inspect " + layout.root() + ": " + e, e);
        }
    }

    /** Adds the directories from {@code home} down to {@code directory} that do not exist, parents first. */
    private static void addMissing(final Path home, final Path directory, final Set<Path> missing) {
        final List<Path> chain = new ArrayList<>();
        for (Path p = directory; p != null && !Files.exists(p, LinkOption.NOFOLLOW_LINKS); p = p.getParent()) {
            chain.add(0, p);
            if (p.equals(home)) {
                break;
            }
        }
        missing.addAll(chain);
    }

    private static List<Path> filesOf(final Path distribution) throws IOException, InstallException {
        final List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(distribution)) {
            for (final Path p : (Iterable<Path>) walk.sorted()::iterator) {
                if (Files.isSymbolicLink(p)) {
                    throw new InstallException(InstallException.Kind.DISTRIBUTION,
                        "the distribution holds a symbolic link, which is not copied: " + p);
                }
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    files.add(distribution.relativize(p));
                }
            }
        }
        return files;
    }

    private static boolean sameContent(final Path distribution, final List<Path> files, final Path installed)
        throws IOException, InstallException {
        if (!filesOf(installed).equals(files)) {
            return false;
        }
        for (final Path file : files) {
            if (Files.mismatch(distribution.resolve(file), installed.resolve(file)) != -1) {
                return false;
            }
        }
        return true;
    }

    public InstallLayout layout() {
        return layout;
    }

    public Distribution distribution() {
        return distribution;
    }

    public LoginItem loginItem() {
        return loginItem;
    }

    /** Where the distribution is (or already was) installed. */
    public Path versionDirectory() {
        return layout.version(distribution.version());
    }

    /** Prints every directory, file (path, mode, content) and link {@link #apply()} would write. */
    public void print(final PrintWriter out) {
        for (final Path directory : missingDirectories) {
            out.println("directory " + directory + " (mode " + octal(DIRECTORY_MODE) + ")");
        }
        printText(out, layout.manifest(), manifestText());
        final Path target = versionDirectory();
        if (filesToCopy.isEmpty()) {
            out.println("keep " + target + " (version " + distribution.version() + " is installed with this content)");
        }
        for (final Path file : filesToCopy) {
            final Path source = distribution.directory().resolve(file);
            long size;
            try {
                size = Files.size(source);
            } catch (final IOException ignore) {
                size = -1; // ignore: printed as -1; the copy itself will report the file it cannot read
            }
            out.println("file " + target.resolve(file) + " (mode " + octal(modeOf(source)) + ", " + size
                + " bytes, copy of " + source + ")");
        }
        out.println("link " + layout.current() + " -> " + linkTarget());
        printText(out, layout.loginItem(), loginItem.text());
        out.flush();
    }

    private static void printText(final PrintWriter out, final Path path, final String text) {
        out.println("file " + path + " (mode " + octal(FILE_MODE) + ") <<EOF");
        out.print(text);
        out.println("EOF");
    }

    /** Carries the plan out; see the class comment for the order. */
    public void apply() throws InstallException {
        Path at = layout.root();
        try {
            for (final Path directory : missingDirectories) {
                at = directory;
                Files.createDirectory(directory);
                setMode(directory, DIRECTORY_MODE);
            }
            at = layout.manifest();
            writeReplacing(layout.manifest(), manifestText().getBytes(StandardCharsets.UTF_8));
            if (!filesToCopy.isEmpty()) {
                at = versionDirectory();
                copyVersion();
            }
            at = layout.current();
            switchCurrent(layout, versionDirectory());
            at = layout.loginItem();
            writeReplacing(layout.loginItem(), loginItem.bytes());
        } catch (final IOException e) {
            throw new InstallException(InstallException.Kind.LAYOUT, "cannot write " + at + ": " + e, e);
        }
    }

    private String manifestText() {
        final StringBuilder text = new StringBuilder(InstalledPaths.HEADER);
        for (final String line : manifestLines) {
            text.append(line).append('\n');
        }
        return text.toString();
    }

    private Path linkTarget() {
        return layout.root().relativize(versionDirectory());
    }

    /**
     * Points {@code current} at {@code versionDirectory} (relative, so the layout can move): a
     * new link beside it renamed over it, so a starting supervisor sees one version or the other.
     * {@code saccade upgrade} also uses it to go back when the supervisor refused the new version.
     */
    public static void switchCurrent(final InstallLayout layout, final Path versionDirectory) throws IOException {
        final Path current = layout.current();
        if (Files.exists(current, LinkOption.NOFOLLOW_LINKS) && !Files.isSymbolicLink(current)) {
            throw new IOException(current + " is not a symbolic link; refusing to replace it");
        }
        final Path next = current.resolveSibling("." + InstallLayout.CURRENT + ".next-" + ProcessHandle.current().pid());
        Files.deleteIfExists(next);
        Files.createSymbolicLink(next, layout.root().relativize(versionDirectory));
        moveOver(next, current);
    }

    private void copyVersion() throws IOException {
        final Path target = versionDirectory();
        final Path partial = target.resolveSibling("." + distribution.version() + ".partial-" + ProcessHandle.current().pid());
        deleteTree(partial); // left by an earlier install of this pid number that was cut off
        Files.createDirectory(partial);
        setMode(partial, DIRECTORY_MODE);
        for (final Path file : filesToCopy) {
            final Path to = partial.resolve(file);
            createParents(partial, to.getParent());
            final Path source = distribution.directory().resolve(file);
            Files.copy(source, to);
            setMode(to, modeOf(source));
        }
        Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void createParents(final Path top, final Path directory) throws IOException {
        final List<Path> chain = new ArrayList<>();
        for (Path p = directory; !p.equals(top) && !Files.exists(p, LinkOption.NOFOLLOW_LINKS); p = p.getParent()) {
            chain.add(0, p);
        }
        for (final Path p : chain) {
            Files.createDirectory(p);
            setMode(p, DIRECTORY_MODE);
        }
    }

    /** Writes {@code bytes} to a sibling and renames it over {@code path}: readers see old or new, never half. */
    static void writeReplacing(final Path path, final byte[] bytes) throws IOException {
        final Path next = path.resolveSibling("." + path.getFileName() + ".next-" + ProcessHandle.current().pid());
        Files.deleteIfExists(next);
        Files.write(next, bytes);
        setMode(next, FILE_MODE);
        moveOver(next, path);
    }

    private static void moveOver(final Path from, final Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (final AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING); // ignore: no atomic rename on this file system
        }
    }

    /** Deletes a tree without following links (a link is removed, not what it points to). */
    static void deleteTree(final Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) { // does not follow links by default
            final List<Path> paths = new ArrayList<>();
            walk.forEach(paths::add);
            for (int i = paths.size() - 1; i >= 0; i--) {
                Files.delete(paths.get(i));
            }
        }
    }

    private static String modeOf(final Path source) {
        return Files.isExecutable(source) ? EXECUTABLE_MODE : FILE_MODE;
    }

    private static void setMode(final Path path, final String mode) throws IOException {
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(mode));
        }
    }

    /** {@code rwx------} as {@code 0700}. */
    static String octal(final String mode) {
        int bits = 0;
        for (int i = 0; i < 9; i++) {
            bits = bits << 1 | (mode.charAt(i) == '-' ? 0 : 1);
        }
        return String.format("0%03o", bits);
    }
}
