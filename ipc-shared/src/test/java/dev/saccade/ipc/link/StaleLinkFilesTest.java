package dev.saccade.ipc.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.ipc.EndpointListener;
import dev.saccade.ipc.RuntimeDirectory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Nothing left behind: owners killed with SIGKILL (real JVMs, each with a real 0600
 * link file in /dev/shm and a lifeline socket) leave files that the next owner and the supervisor
 * reclaim, and the reclaim never touches a live process's file, another uid's, or a symlink.
 */
class StaleLinkFilesTest {
    /** Owner kills in the crash loop: CI runs 10 (each is a JVM start); 50 by hand. */
    private static final int CRASHES = Integer.getInteger("saccade.it.crashes", 10);

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void aCrashLoopOfSigkilledOwnersLeavesNoLinkFileAndNoLifeline() throws Exception {
        final Path runtime = privateDirectory();
        final int uid = RuntimeDirectory.currentUid();
        final List<Long> killed = new ArrayList<>();
        try {
            for (int i = 0; i < CRASHES; i++) {
                try (LinkChild owner = LinkChild.start(StaleOwnerMain.class, Map.of(), runtime.toString())) {
                    final String ready = owner.awaitLine("READY", Duration.ofSeconds(60));
                    if (!killed.isEmpty()) {
                        // the next owner reclaimed what the previous crash left
                        assertTrue(Integer.parseInt(LinkChild.field(ready, "reclaimed")) >= 3, ready);
                        assertNoFilesOf(killed, runtime, uid);
                    }
                    assertTrue(Files.exists(LinkPaths.linkFile(runtime, uid, owner.pid()), LinkOption.NOFOLLOW_LINKS));
                    owner.kill(); // SIGKILL: nothing of the owner's own runs
                    killed.add(owner.pid());
                }
                final long last = killed.get(killed.size() - 1);
                assertTrue(Files.exists(LinkPaths.linkFile(runtime, uid, last), LinkOption.NOFOLLOW_LINKS),
                    "the kill left the link file (what this test is about)");
                assertTrue(Files.exists(LinkPaths.lifelineSocket(runtime, last), LinkOption.NOFOLLOW_LINKS));
            }
            // what the supervisor does after an owner exit
            assertTrue(StaleLinkFiles.reclaim(runtime) >= 3, "link file, lifeline and its lock of the last owner");
            assertNoFilesOf(killed, runtime, uid);
            System.out.printf("stale links: %d SIGKILLed owners, 0 link files and 0 lifelines left%n", killed.size());
        } finally {
            deleteTree(runtime);
        }
    }

    @Test
    void onlyOurFilesOfDeadOwnersAreRemoved() throws Exception {
        final Path shm = privateDirectory();
        final Path runtime = privateDirectory();
        try {
            final int uid = RuntimeDirectory.currentUid();
            final long dead = deadPid();
            final long live = ProcessHandle.current().pid();
            final Path deadLink = Files.createFile(shm.resolve(LinkPaths.LINK_FILE_PREFIX + uid + "-" + dead));
            final Path liveLink = Files.createFile(shm.resolve(LinkPaths.LINK_FILE_PREFIX + uid + "-" + live));
            final Path otherUidsName = Files.createFile(shm.resolve(LinkPaths.LINK_FILE_PREFIX + (uid + 1) + "-" + dead));
            final Path notAPid = Files.createFile(shm.resolve(LinkPaths.LINK_FILE_PREFIX + uid + "-12x"));
            final Path symlink = Files.createSymbolicLink(shm.resolve(LinkPaths.LINK_FILE_PREFIX + uid + "-" + (dead + 1)),
                liveLink);
            final Path sharedDead = controlBlock(shm.resolve(LinkPaths.LINK_FILE_PREFIX + uid), dead);
            final Path deadLifeline = Files.createFile(LinkPaths.lifelineSocket(runtime, dead));
            final Path deadLock = Files.createFile(EndpointListener.lockPathOf(LinkPaths.lifelineSocket(runtime, dead)));
            final Path liveLifeline = Files.createFile(LinkPaths.lifelineSocket(runtime, live));
            final Path launchedLifeline = Files.createFile(LinkPaths.lifelineSocket(runtime));
            final Path deadPidOfAlive = Files.createFile(runtime.resolve(LinkPaths.LINK_FILE_PREFIX + uid + "-" + dead
                + ".log"));
            Path foreign = null;
            if (uid == 0) { // as root (CI) a file of another uid can be made: it is never ours to remove
                foreign = Files.createFile(shm.resolve(LinkPaths.LINK_FILE_PREFIX + uid + "-" + (dead + 2)));
                Files.setAttribute(foreign, "unix:uid", 65534);
            }
            final long alsoDead = dead + 2;
            final int removed = StaleLinkFiles.reclaim(shm, runtime, uid,
                pid -> pid != dead && pid != dead + 1 && pid != alsoDead && StaleLinkFiles.isAlive(pid));

            assertFalse(Files.exists(deadLink, LinkOption.NOFOLLOW_LINKS));
            assertFalse(Files.exists(sharedDead, LinkOption.NOFOLLOW_LINKS), "the shared link of a dead owner");
            assertFalse(Files.exists(deadLifeline, LinkOption.NOFOLLOW_LINKS));
            assertFalse(Files.exists(deadLock, LinkOption.NOFOLLOW_LINKS));
            assertEquals(4, removed);
            for (final Path kept : new Path[] {liveLink, otherUidsName, notAPid, symlink, liveLifeline, launchedLifeline,
                deadPidOfAlive}) {
                assertTrue(Files.exists(kept, LinkOption.NOFOLLOW_LINKS), kept + " is kept");
            }
            if (foreign != null) {
                assertTrue(Files.exists(foreign, LinkOption.NOFOLLOW_LINKS), "another uid's file is kept");
            }

            // a shared link being created (no magic yet) is kept; one of a live owner too
            Files.delete(liveLink);
            final Path creating = Files.createFile(shm.resolve(LinkPaths.LINK_FILE_PREFIX + uid));
            assertEquals(0, StaleLinkFiles.reclaim(shm, runtime, uid, pid -> pid == live));
            assertTrue(Files.exists(creating));
            controlBlock(creating, live);
            assertEquals(0, StaleLinkFiles.reclaim(shm, runtime, uid, StaleLinkFiles::isAlive));
            assertTrue(Files.exists(creating));
        } finally {
            deleteTree(shm);
            deleteTree(runtime);
        }
    }

    /**
     * What any local user can plant under our names in the world-writable {@code /dev/shm}: a FIFO
     * under the shared link name (opening it to read an owner pid would block for ever), a symlink
     * and another uid's file under a dead owner's name. An owner starting in a real {@code /dev/shm}
     * (a private tmpfs mounted in its own mount namespace, so other processes on this machine are
     * not disturbed) reclaims past them and starts, and leaves each of them where it is.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aFifoASymlinkAndAForeignFileInDevShmDoNotStallAnOwnerStart() throws Exception {
        final Path runtime = privateDirectory();
        try {
            final int uid = RuntimeDirectory.currentUid();
            final long dead = deadPid();
            // uid 0 in the namespace: root's own, or ours mapped to root
            final String shared = LinkPaths.LINK_FILE_PREFIX + 0;
            final String plant = "mount -t tmpfs -o mode=1777 none /dev/shm"
                + " && mkfifo /dev/shm/" + shared
                + " && ln -s /etc/hostname /dev/shm/" + shared + "-" + dead
                + " && : > /dev/shm/" + shared + "-" + (dead + 1)
                + " && { chown 65534 /dev/shm/" + shared + "-" + (dead + 1) + " || true; }"
                + " && exec \"$@\"";
            // As root a mount namespace suffices; otherwise a user namespace makes us root in it.
            final List<String> wrapper = new ArrayList<>(List.of("unshare"));
            if (uid != 0) {
                wrapper.addAll(List.of("--user", "--map-root-user"));
            }
            wrapper.addAll(List.of("--mount", "--propagation", "private", "sh", "-c",
                plant + "; echo PLANT_FAILED", "sh"));
            try (LinkChild owner = LinkChild.start(wrapper, PlantedShmMain.class, Map.of(), runtime.toString(),
                shared, Long.toString(dead))) {
                final String ready = owner.awaitLine("READY", Duration.ofSeconds(60));
                assertEquals("fifo symlink file", LinkChild.field(ready, "kept").replace('+', ' '), ready);
                assertTrue(Files.exists(LinkPaths.linkFile(runtime, 0, owner.pid()), LinkOption.NOFOLLOW_LINKS),
                    "the owner made its link in the runtime directory");
                owner.kill();
            }
        } finally {
            deleteTree(runtime);
        }
    }

    private static Path controlBlock(final Path file, final long ownerPid) throws IOException {
        final ByteBuffer block = ByteBuffer.allocate(LinkFileDescriptor.CONTROL_BLOCK_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        block.putLong(LinkFileDescriptor.MAGIC_OFFSET, LinkFileDescriptor.MAGIC);
        block.putLong(LinkFileDescriptor.OWNER_PID_OFFSET, ownerPid);
        Files.write(file, block.array());
        return file;
    }

    private static long deadPid() throws Exception {
        final Process p = new ProcessBuilder("true").start();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        return p.pid();
    }

    private static void assertNoFilesOf(final List<Long> pids, final Path runtime, final int uid) {
        for (final long pid : pids) {
            for (final Path p : new Path[] {LinkPaths.linkFile(runtime, uid, pid), LinkPaths.lifelineSocket(runtime, pid),
                EndpointListener.lockPathOf(LinkPaths.lifelineSocket(runtime, pid))}) {
                assertFalse(Files.exists(p, LinkOption.NOFOLLOW_LINKS), p + " of the dead owner " + pid + " is left");
            }
        }
    }

    private static Path privateDirectory() throws IOException {
        return Files.createTempDirectory("saccade-stale",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }

    private static void deleteTree(final Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
