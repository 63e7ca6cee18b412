package dev.saccade.cli;

import dev.saccade.ipc.link.StaleLinkFiles;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * What a test that SIGKILLs owners does last: an owner killed leaves its link file in
 * {@code /dev/shm} until the next owner's start reclaims it, and a test's last owner has no next
 * one. Waits for the killed processes, then reclaims what they left (their helpers exit by
 * themselves once their owner is gone).
 */
final class KilledOwners {
    private KilledOwners() {
    }

    static void reclaim(final Path runtime, final Process... killed) throws InterruptedException {
        for (final Process p : killed) {
            if (p != null) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        }
        StaleLinkFiles.reclaim(runtime);
    }
}
