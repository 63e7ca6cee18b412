package dev.saccade.ipc.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.saccade.testsupport.Await;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The lifeline's handshake, checks and end-of-file signalling, both ends in this JVM (pids equal). */
class LifelineTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final long PID = ProcessHandle.current().pid();

    @TempDir
    Path run;

    private Path socket;
    private final byte[] nonce = SessionNonce.generate();

    @BeforeEach
    void privateDirectory() throws IOException {
        Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("rwx------"));
        socket = LinkPaths.lifelineSocket(run);
    }

    /** Connects a helper end on another thread while the owner end awaits it. */
    private HelperLifeline attach(final OwnerLifeline owner) throws Exception {
        return attach(owner, (why, atNs) -> { });
    }

    private HelperLifeline attach(final OwnerLifeline owner, final LifelineListener onHelperLost) throws Exception {
        final CompletableFuture<HelperLifeline> helper = CompletableFuture.supplyAsync(() -> {
            try {
                return HelperLifeline.connect(socket, nonce, PID, WAIT);
            } catch (final IOException e) {
                throw new IllegalStateException(e);
            }
        });
        assertEquals(PID, owner.awaitHelper(PID, WAIT, onHelperLost));
        return helper.get(10, TimeUnit.SECONDS);
    }

    @Test
    @Timeout(30)
    void closingTheOwnerEndFiresTheHelpersWatcherWithEof() throws Exception {
        final AtomicInteger reason = new AtomicInteger();
        final OwnerLifeline owner = OwnerLifeline.bind(socket, nonce);
        try (HelperLifeline helper = attach(owner)) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));
            final LifelineWatcher watcher = helper.watch((why, atNs) -> reason.set(why));
            assertFalse(watcher.fired());
            assertFalse(owner.pollHelperGone());
            owner.close();
            Await.until(watcher::fired, WAIT, LinkChild.POLL, () -> "the watcher");
            assertEquals(LifelineWatcher.EOF, reason.get());
            assertEquals(LifelineWatcher.EOF, watcher.reason());
            assertFalse(Files.exists(socket), "the owner unlinks its socket");
        } finally {
            owner.close(); // idempotent
        }
    }

    /**
     * The owner's doorbell wakes a helper in a long park and is not a loss; any other
     * byte still is, and the owner's EOF still fires after doorbells.
     */
    @Test
    @Timeout(30)
    void theDoorbellWakesTheHelperWithoutEndingTheLifelineAndOtherBytesStillDo() throws Exception {
        final AtomicInteger rings = new AtomicInteger();
        final AtomicInteger reason = new AtomicInteger();
        final OwnerLifeline owner = OwnerLifeline.bind(socket, nonce);
        try (HelperLifeline helper = attach(owner)) {
            final LifelineWatcher watcher = helper.watch((why, atNs) -> reason.set(why), rings::incrementAndGet);
            assertTrue(owner.ringHelper());
            Await.until(() -> rings.get() == 1, WAIT, LinkChild.POLL, () -> "the first doorbell");
            assertTrue(owner.ringHelper());
            assertTrue(owner.ringHelper());
            Await.until(() -> rings.get() >= 2, WAIT, LinkChild.POLL, () -> "more doorbells");
            assertFalse(watcher.fired(), "a doorbell is not a loss");
            owner.close();
            Await.until(watcher::fired, WAIT, LinkChild.POLL, () -> "the watcher");
            assertEquals(LifelineWatcher.EOF, reason.get());
            assertFalse(owner.ringHelper(), "nobody to ring once closed");
        } finally {
            owner.close();
        }
        // a helper watching without a doorbell action (an older helper) still counts a doorbell as a loss
        final OwnerLifeline second = OwnerLifeline.bind(socket, nonce);
        try (HelperLifeline helper = attach(second)) {
            final LifelineWatcher watcher = helper.watch((why, atNs) -> reason.set(why));
            assertTrue(second.ringHelper());
            Await.until(watcher::fired, WAIT, LinkChild.POLL, () -> "the watcher");
            assertEquals(LifelineWatcher.UNEXPECTED_DATA, watcher.reason());
        } finally {
            second.close();
        }
    }

    @Test
    @Timeout(30)
    void closingTheHelperEndIsSeenByTheOwnersPollWithoutAllocating() throws Exception {
        try (OwnerLifeline owner = OwnerLifeline.bind(socket, nonce)) {
            final HelperLifeline helper = attach(owner);
            final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            for (int pass = 0; pass < 3; pass++) { // warm-up: JIT
                assertEquals(0, countGone(owner, 100_000));
            }
            // the fewest bytes of three passes: a one-off allocation of the JVM's own (1,192 bytes
            // once in a fresh-clone CI) is not the poll's, while any per-poll allocation shows in
            // every pass (16 bytes a poll would be 1.6 MB)
            long allocated = Long.MAX_VALUE;
            for (int pass = 0; pass < 3 && allocated != 0; pass++) {
                final long before = threads.getCurrentThreadAllocatedBytes();
                final int gone = countGone(owner, 100_000);
                allocated = Math.min(allocated, threads.getCurrentThreadAllocatedBytes() - before);
                assertEquals(0, gone, "gone while alive");
            }
            System.out.printf("lifeline: pollHelperGone allocated %d bytes in 100,000 polls%n", allocated);
            assertEquals(0, allocated);
            helper.close();
            Await.until(owner::pollHelperGone, WAIT, LinkChild.POLL, () -> "the owner noticing the helper's close");
            assertTrue(owner.pollHelperGone(), "sticky");
        }
    }

    private static int countGone(final OwnerLifeline owner, final int polls) {
        int gone = 0;
        for (int i = 0; i < polls; i++) {
            if (owner.pollHelperGone()) {
                gone++;
            }
        }
        return gone;
    }

    @Test
    @Timeout(30)
    void aClosedWatcherNeverCallsBack() throws Exception {
        final AtomicInteger calls = new AtomicInteger();
        try (OwnerLifeline owner = OwnerLifeline.bind(socket, nonce)) {
            final HelperLifeline helper = attach(owner);
            final LifelineWatcher watcher = helper.watch((why, atNs) -> calls.incrementAndGet());
            watcher.close();
            Await.until(owner::pollHelperGone, WAIT, LinkChild.POLL, () -> "the owner seeing the close");
            assertEquals(0, calls.get());
            assertFalse(watcher.fired());
        }
    }

    @Test
    @Timeout(30)
    void theOwnersListenerIsCalledWhenTheHelperCloses() throws Exception {
        final AtomicInteger reason = new AtomicInteger();
        try (OwnerLifeline owner = OwnerLifeline.bind(socket, nonce)) {
            final HelperLifeline helper = attach(owner, (why, atNs) -> reason.set(why));
            helper.close();
            Await.until(() -> reason.get() != 0, WAIT, LinkChild.POLL, () -> "the owner's watcher");
            assertEquals(LifelineWatcher.EOF, reason.get());
            assertTrue(owner.pollHelperGone());
        }
    }

    @Test
    @Timeout(30)
    void theHelperRefusesAnOwnerThatIsNotTheExpectedPid() throws Exception {
        try (OwnerLifeline owner = OwnerLifeline.bind(socket, nonce)) {
            final LinkRefusedException e = assertThrows(LinkRefusedException.class,
                () -> HelperLifeline.connect(socket, nonce, PID + 1, WAIT));
            assertEquals(LinkRefusedException.Reason.PEER_PID, e.reason());
            assertEquals(0, owner.helperPid());
        }
    }

    @Test
    @Timeout(30)
    void aHelperTimesOutWhenNoOwnerListens() {
        assertThrows(java.net.SocketTimeoutException.class,
            () -> HelperLifeline.connect(socket, nonce, 0, Duration.ofMillis(200)));
    }

    @Test
    @Timeout(60)
    void theHelperRefusesALifelineHeldByAnotherUidWithoutSendingItTheNonce() throws Exception {
        final Path python = Path.of("/usr/bin/python3");
        final Path setpriv = Path.of("/usr/bin/setpriv");
        if (!Files.isExecutable(python) || !Files.isExecutable(setpriv) || !"root".equals(System.getProperty("user.name"))) {
            fail("needs root, " + python + " and " + setpriv + " to run a listener as another uid");
        }
        final int[] other = otherUser();
        // For this test only: let the other user create its socket here.
        Files.setPosixFilePermissions(run, PosixFilePermissions.fromString("rwxrwxrwx"));
        final String server = String.join("\n",
            "import os, socket, sys",
            "s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)",
            "s.bind(sys.argv[1]); os.chmod(sys.argv[1], 0o777); s.listen(1)",
            "print('listening', flush=True)",
            "c, _ = s.accept(); c.settimeout(20)",
            "data = c.recv(65536)",
            "print('received', len(data), flush=True)");
        final Process p = new ProcessBuilder(setpriv.toString(), "--reuid=" + other[0], "--regid=" + other[1],
            "--clear-groups", python.toString(), "-I", "-S", "-c", server, socket.toString())
            .redirectErrorStream(true).start();
        try {
            final java.io.BufferedReader out = new java.io.BufferedReader(
                new java.io.InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("listening", out.readLine());
            final LinkRefusedException e = assertThrows(LinkRefusedException.class,
                () -> HelperLifeline.connect(socket, nonce, 0, WAIT));
            assertEquals(LinkRefusedException.Reason.PEER_UID, e.reason());
            assertEquals("received 0", out.readLine(), "closed without a byte: the nonce never left");
        } finally {
            p.destroyForcibly().waitFor();
        }
    }

    /** uid and gid of the unprivileged system user saccade-test, created on first use. */
    private static int[] otherUser() throws Exception {
        if (run("getent", "passwd", "saccade-test").isEmpty()) {
            run("/usr/sbin/useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "saccade-test");
        }
        return new int[] {Integer.parseInt(run("id", "-u", "saccade-test").trim()),
            Integer.parseInt(run("id", "-g", "saccade-test").trim())};
    }

    private static String run(final String... command) throws Exception {
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            fail(String.join(" ", command) + " did not finish");
        }
        return p.exitValue() == 0 ? output : "";
    }
}
