package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.demodesktop.TestDesktop;
import dev.saccade.ipc.EndpointListener;
import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.ipc.link.LinkPaths;
import dev.saccade.testdesktop.WithTestDesktop;
import dev.saccade.testsupport.Await;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Nothing left behind, with the built distribution: {@code saccade supervisor run}
 * with its input helper (each owner then makes a 2 MiB link file in /dev/shm and a lifeline socket
 * named by its pid), owners killed with SIGKILL in a crash loop, and a supervisor killed together
 * with its children. Whatever a killed owner left is gone once the next owner serves, and a new
 * supervisor's start removes what the killed one's session left.
 */
@WithTestDesktop
class CrashLeftoversIT {
    /** Owner kills: each costs a JVM start (about 1.5 s here), so CI runs 5; 50 by hand. */
    private static final int CRASHES = Integer.getInteger("saccade.it.crashes", 5);
    /** A crash loop without the backoff's growth, so 50 kills take minutes, not seven. */
    private static final String FAST_BACKOFF = "-Dsaccade.supervisor.backoff.max.ms=250";

    @Test
    @Timeout(value = 900, unit = TimeUnit.SECONDS)
    void aCrashLoopOfOwnerKillsLeavesNoLinkFileOrLifeline(final TestDesktop desktop) throws Exception {
        final int uid = RuntimeDirectory.currentUid();
        final List<Long> killed = new ArrayList<>();
        try (SupervisedSession s = SupervisedSession.startWithHelpers(desktop.display(), "SUPERVISED", FAST_BACKOFF)) {
            long owner = s.awaitOwner(-1, 60_000);
            for (int i = 0; i < CRASHES; i++) {
                awaitExists(LinkPaths.linkFile(s.runtime, uid, owner));
                assertTrue(ProcessHandle.of(owner).orElseThrow().destroyForcibly()); // SIGKILL
                killed.add(owner);
                owner = s.awaitOwner(owner, 60_000);
                assertNoFilesOf(killed, s.runtime, uid);
            }
            assertTrue(Files.exists(LinkPaths.linkFile(s.runtime, uid, owner), LinkOption.NOFOLLOW_LINKS),
                "the serving owner's link is kept");
            System.out.printf("crash leftovers: %d owners SIGKILLed under the supervisor, 0 of their files left%n",
                killed.size());
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void aSupervisorStartRemovesWhatAKilledSessionLeft(final TestDesktop desktop) throws Exception {
        final int uid = RuntimeDirectory.currentUid();
        try (SupervisedSession first = SupervisedSession.startWithHelpers(desktop.display(), "SUPERVISED")) {
            final long owner = first.awaitOwner(-1, 60_000);
            awaitExists(LinkPaths.linkFile(first.runtime, uid, owner));
            // Freeze the supervisor so it cannot clean up, kill its children and then it: a crashed session.
            final long supervisor = first.process.pid();
            assertEquals(0, new ProcessBuilder("kill", "-STOP", Long.toString(supervisor)).start().waitFor());
            final List<ProcessHandle> children = first.process.descendants().toList();
            children.forEach(ProcessHandle::destroyForcibly);
            first.process.destroyForcibly(); // then init reaps the children
            assertTrue(first.process.waitFor(10, TimeUnit.SECONDS));
            for (final ProcessHandle child : children) {
                child.onExit().get(10, TimeUnit.SECONDS);
            }
            final List<Path> left = filesOf(owner, first.runtime, uid);
            assertTrue(left.stream().anyMatch(p -> Files.exists(p, LinkOption.NOFOLLOW_LINKS)),
                "the crash left the owner's link (what this test is about)");

            try (SupervisedSession second = SupervisedSession.restartIn(first, desktop.display())) {
                second.awaitOwner(-1, 60_000);
                assertNoFilesOf(List.of(owner), second.runtime, uid);
                second.awaitLine(0, l -> l.contains("event=stale_links_reclaimed when=start"), 10_000);
            }
        }
    }

    private static List<Path> filesOf(final long pid, final Path runtime, final int uid) {
        final Path lifeline = LinkPaths.lifelineSocket(runtime, pid);
        return List.of(LinkPaths.linkFile(runtime, uid, pid), lifeline, EndpointListener.lockPathOf(lifeline));
    }

    private static void assertNoFilesOf(final List<Long> pids, final Path runtime, final int uid) {
        for (final long pid : pids) {
            for (final Path p : filesOf(pid, runtime, uid)) {
                assertFalse(Files.exists(p, LinkOption.NOFOLLOW_LINKS), p + " of the killed owner " + pid + " is left");
            }
        }
    }

    private static void awaitExists(final Path path) {
        Await.until(() -> Files.exists(path, LinkOption.NOFOLLOW_LINKS), Duration.ofSeconds(30), Duration.ofMillis(5),
            () -> path + " to appear");
    }
}
