package dev.saccade.ipc.link;

import dev.saccade.ipc.RuntimeDirectory;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * An owner's start in a {@code /dev/shm} where files were planted under its names: the reclaim
 * every owner and supervisor runs first, then the link. Prints {@code READY pid=<pid>
 * kept=fifo+symlink+file} when it is through, naming the planted files that are still there.
 *
 * <p>Arguments: the runtime directory, the shared link name, the dead pid the planted files name.
 */
public final class PlantedShmMain {
    private PlantedShmMain() {
    }

    @SuppressWarnings("try") // the link only has to exist while the test looks
    public static void main(final String[] args) throws Exception {
        final Path runtime = Path.of(args[0]);
        final Path shm = LinkPaths.DEV_SHM;
        final long dead = Long.parseLong(args[2]);
        final long pid = ProcessHandle.current().pid();
        StaleLinkFiles.reclaim(runtime);
        try (OwnerSide link = OwnerSide.create(LinkPaths.linkFile(runtime, RuntimeDirectory.currentUid(), pid),
                64 << 10, 16 << 10, SessionNonce.generate())) {
            final StringBuilder kept = new StringBuilder();
            if (Files.exists(shm.resolve(args[1]), LinkOption.NOFOLLOW_LINKS)) {
                kept.append("fifo");
            }
            if (Files.isSymbolicLink(shm.resolve(args[1] + "-" + dead))) {
                kept.append("+symlink");
            }
            if (Files.exists(shm.resolve(args[1] + "-" + (dead + 1)), LinkOption.NOFOLLOW_LINKS)) {
                kept.append("+file");
            }
            LinkHelperMain.println("READY pid=" + pid + " kept=" + kept);
            while (System.in.read() >= 0) {
                link.beat(System.nanoTime());
            }
        }
    }
}
