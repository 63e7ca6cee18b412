package dev.saccade.ipc.link;

import dev.saccade.ipc.RuntimeDirectory;
import java.nio.file.Path;

/**
 * A test owner in its own JVM that does at its start what a real owner does before it makes its
 * link (reclaims what dead owners left), then makes a link file and lifeline named by its pid as
 * the supervisor's owners do, prints "READY pid=.. reclaimed=..", and waits to be killed.
 * Argument: the runtime directory.
 */
public final class StaleOwnerMain {
    private StaleOwnerMain() {
    }

    @SuppressWarnings("try") // the lifeline only has to stay bound while the link lives
    public static void main(final String[] args) throws Exception {
        final Path runtime = Path.of(args[0]);
        final long pid = ProcessHandle.current().pid();
        final int reclaimed = StaleLinkFiles.reclaim(runtime);
        final byte[] nonce = SessionNonce.generate();
        try (OwnerSide link = OwnerSide.create(LinkPaths.linkFile(runtime, RuntimeDirectory.currentUid(), pid),
                64 << 10, 16 << 10, nonce);
             OwnerLifeline lifeline = OwnerLifeline.bind(LinkPaths.lifelineSocket(runtime, pid), nonce)) {
            LinkHelperMain.println("READY pid=" + pid + " reclaimed=" + reclaimed);
            while (System.in.read() >= 0) {
                link.beat(System.nanoTime());
            }
        }
    }
}
