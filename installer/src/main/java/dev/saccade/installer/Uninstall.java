package dev.saccade.installer;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Removes what {@link InstallPlan} wrote: the login item, the whole data root (every version,
 * the current link, the manifest) and then the directories the manifest says install created,
 * deepest first and only when empty, so a directory that was there before, or that holds
 * something else by now, stays. On Linux also the {@code graphical-session.target.wants} link
 * that {@code systemctl --user enable} made (or {@code default.target.wants}, for units installed
 * by older releases), which would otherwise dangle, and its directory when that is left empty.
 */
public final class Uninstall {
    private Uninstall() {
    }

    /** Removes the layout's files; returns the paths removed, in the order removed. */
    public static List<Path> run(final InstallLayout layout) throws InstallException {
        final List<Path> removed = new ArrayList<>();
        Path at = layout.root();
        try {
            final List<Path> created = InstalledPaths.directories(layout);
            if (layout.platform() == Platform.LINUX) {
                for (final String target : List.of(SystemdUserUnit.SESSION_TARGET, "default.target")) {
                    final Path wants = layout.loginItem().resolveSibling(target + ".wants")
                        .resolve(InstallLayout.SYSTEMD_UNIT_NAME);
                    at = wants;
                    if (Files.isSymbolicLink(wants)) {
                        Files.delete(wants);
                        removed.add(wants);
                        removeIfEmpty(wants.getParent(), removed); // systemctl made it for our link alone
                    }
                }
            }
            at = layout.loginItem();
            if (Files.deleteIfExists(layout.loginItem())) {
                removed.add(layout.loginItem());
            }
            at = layout.root();
            if (Files.exists(layout.root(), LinkOption.NOFOLLOW_LINKS)) {
                InstallPlan.deleteTree(layout.root());
                removed.add(layout.root());
            }
            created.sort(Comparator.comparingInt(Path::getNameCount).reversed());
            for (final Path directory : created) {
                at = directory;
                removeIfEmpty(directory, removed);
            }
        } catch (final IOException e) {
            throw new InstallException(InstallException.Kind.LAYOUT, "cannot remove " + at + ": " + e, e);
        }
        return removed;
    }

    private static void removeIfEmpty(final Path directory, final List<Path> removed) throws IOException {
        try {
            if (Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
                Files.delete(directory);
                removed.add(directory);
            }
        } catch (final DirectoryNotEmptyException ignore) {
            // ignore: something else lives there now; it was never ours to remove
        }
    }
}
