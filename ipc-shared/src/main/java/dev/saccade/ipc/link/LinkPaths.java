package dev.saccade.ipc.link;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Where the link lives (docs/architecture.md, "Processes"): the shared-memory file
 * {@code $RUN/saccade-input-v1-<uid>-<owner pid>} (earlier versions used {@code /dev/shm}, where
 * another user could create the name first; StaleLinkFiles still reclaims those); the lifeline socket {@code $RUN/saccade-input-v1.lifeline.sock} (a
 * launched helper's) or {@code $RUN/saccade-input-v1-<owner pid>.lifeline.sock} (the supervisor's).
 * The unsuffixed {@code saccade-input-v1-<uid>} is what earlier versions used; StaleLinkFiles still
 * reclaims it.
 */
public final class LinkPaths {
    public static final Path DEV_SHM = Path.of("/dev/shm");
    /** File name prefix; the uid follows. */
    public static final String LINK_FILE_PREFIX = "saccade-input-v1-";
    public static final String LIFELINE_SOCKET_NAME = "saccade-input-v1.lifeline.sock";

    private LinkPaths() {
    }

    /** The link file for {@code uid}: in {@code /dev/shm} if it is a directory, else in {@code runtimeDirectory}. */
    public static Path linkFile(final Path runtimeDirectory, final int uid) {
        return linkFile(DEV_SHM, runtimeDirectory, uid);
    }

    /** As {@link #linkFile(Path, int)}, with the shared-memory directory given (for tests). */
    public static Path linkFile(final Path shmDirectory, final Path runtimeDirectory, final int uid) {
        final Path base = Files.isDirectory(shmDirectory, LinkOption.NOFOLLOW_LINKS) ? shmDirectory : runtimeDirectory;
        return base.resolve(LINK_FILE_PREFIX + uid);
    }

    /**
     * The link file of the owner {@code ownerPid}: named by the owner, so an old and a new owner
     * side by side during an upgrade, or two owners of one user, never share one. It lives in the
     * private (0700) runtime directory, where no other user can create a file of that name first
     * and so keep the owner from starting (in the world-writable {@code /dev/shm} anyone could).
     */
    public static Path linkFile(final Path runtimeDirectory, final int uid, final long ownerPid) {
        return runtimeDirectory.resolve(LINK_FILE_PREFIX + uid + "-" + ownerPid);
    }

    /** The lifeline socket of the owner {@code ownerPid} for a helper it did not launch. */
    public static Path lifelineSocket(final Path runtimeDirectory, final long ownerPid) {
        return runtimeDirectory.resolve(LIFELINE_SOCKET_NAME.replace(".lifeline.", "-" + ownerPid + ".lifeline."));
    }

    /** The lifeline socket in the (private, 0700) runtime directory. */
    public static Path lifelineSocket(final Path runtimeDirectory) {
        return runtimeDirectory.resolve(LIFELINE_SOCKET_NAME);
    }
}
