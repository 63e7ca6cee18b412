package dev.saccade.demodesktop;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The private directory of one desktop (mode 0700), holding what would otherwise land in the
 * user's home or a shared {@code /tmp}: {@code run} (XDG_RUNTIME_DIR: session bus socket, the
 * accessibility bus socket, dconf), {@code cache}, {@code config}, {@code data}, {@code state},
 * {@code home} and {@code logs} (stdout and stderr of every process the desktop starts).
 *
 * <pre>
 * saccade-desktop-NNNN/      0700
 * +-- run/                   0700  XDG_RUNTIME_DIR, bus, at-spi/bus_N
 * +-- cache/ config/ data/ state/ home/
 * +-- logs/                  Xvfb.log, dbus-daemon.log, openbox.log, gtk3-demo-1.log, ...
 * </pre>
 */
final class SessionDirectory {
    /**
     * Longest parent path we use. A Unix socket path is at most 107 bytes and the accessibility
     * bus socket lives at {@code <parent>/saccade-desktop-<19 digits>/run/at-spi/bus_<display>}:
     * 56 bytes below the parent. A longer parent (e.g. a surefire {@code java.io.tmpdir} deep in
     * a checkout) would make at-spi-bus-launcher fail, so we fall back to {@code /tmp}.
     */
    static final int MAX_PARENT_LENGTH = 48;
    static final Path FALLBACK_PARENT = Path.of("/tmp");

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");
    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_ATTRIBUTE =
        PosixFilePermissions.asFileAttribute(OWNER_ONLY);

    private final Path root;
    private final Path runtime;
    private final Path cache;
    private final Path config;
    private final Path data;
    private final Path state;
    private final Path home;
    private final Path logs;

    private SessionDirectory(final Path root) throws IOException {
        this.root = root;
        runtime = ownerOnlyDirectory(root.resolve("run"));
        cache = ownerOnlyDirectory(root.resolve("cache"));
        config = ownerOnlyDirectory(root.resolve("config"));
        data = ownerOnlyDirectory(root.resolve("data"));
        state = ownerOnlyDirectory(root.resolve("state"));
        home = ownerOnlyDirectory(root.resolve("home"));
        logs = ownerOnlyDirectory(root.resolve("logs"));
    }

    static SessionDirectory create(final Path preferredParent) throws IOException {
        final Path parent = preferredParent.toAbsolutePath().toString().length() <= MAX_PARENT_LENGTH
            ? preferredParent.toAbsolutePath() : FALLBACK_PARENT;
        final Path root = Files.createTempDirectory(parent, "saccade-desktop-", OWNER_ONLY_ATTRIBUTE);
        try {
            // The attribute is masked by the umask; set the mode explicitly as well.
            Files.setPosixFilePermissions(root, OWNER_ONLY);
            return new SessionDirectory(root);
        } catch (final IOException | RuntimeException e) {
            try {
                deleteTree(root);
            } catch (final IOException ignore) {
                // reason: the creation failure is the one to report
                e.addSuppressed(ignore);
            }
            throw e;
        }
    }

    private static Path ownerOnlyDirectory(final Path path) throws IOException {
        Files.createDirectory(path, OWNER_ONLY_ATTRIBUTE);
        Files.setPosixFilePermissions(path, OWNER_ONLY);
        return path;
    }

    Path root() {
        return root;
    }

    Path runtime() {
        return runtime;
    }

    Path cache() {
        return cache;
    }

    Path config() {
        return config;
    }

    Path data() {
        return data;
    }

    Path state() {
        return state;
    }

    Path home() {
        return home;
    }

    Path logs() {
        return logs;
    }

    /** Deletes the whole tree; call only once nothing runs in it any more. */
    void delete() throws IOException {
        deleteTree(root);
    }

    private static void deleteTree(final Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        // A service of the session may have mounted a file system inside (Mounts): unmount it first,
        // and never delete across into another file system (what is there is not the desktop's).
        final List<Path> mounted = new ArrayList<>();
        for (final Mounts.Mount mount : Mounts.under(root)) {
            if (!Mounts.unmount(mount)) {
                mounted.add(mount.point());
            }
        }
        final Object device = Files.getAttribute(root, "unix:dev", LinkOption.NOFOLLOW_LINKS);
        // walkFileTree does not follow symbolic links: a link planted inside cannot make us delete
        // anything outside the tree.
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(final Path dir, final BasicFileAttributes attrs) throws IOException {
                if (!device.equals(Files.getAttribute(dir, "unix:dev", LinkOption.NOFOLLOW_LINKS))) {
                    mounted.add(dir);
                    return FileVisitResult.SKIP_SUBTREE;
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(final Path file, final BasicFileAttributes attrs) throws IOException {
                deleteIfPresent(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(final Path file, final IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;  // removed by its process while we walked
                }
                throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(final Path dir, final IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                if (mounted.stream().noneMatch(m -> m.startsWith(dir))) {
                    deleteIfPresent(dir);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        if (!mounted.isEmpty()) {
            throw new IOException("could not unmount " + mounted + " inside the desktop's directory " + root
                + "; it was left in place: unmount it (fusermount -u or umount as root), then remove " + root);
        }
    }

    private static void deleteIfPresent(final Path path) throws IOException {
        try {
            Files.delete(path);
        } catch (final NoSuchFileException ignore) {
            // reason: a process removed its own socket or lock while we walked
        }
    }
}
