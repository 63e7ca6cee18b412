package dev.saccade.ipc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.newsclub.net.unix.AFUNIXServerSocketChannel;
import org.newsclub.net.unix.AFUNIXSocketAddress;

/**
 * The sibling lock file really excludes another process: while a second process holds it, no
 * probe-unlink-bind and no checked unlink happens here.
 */
class EndpointLockTest {
    /** Holds an exclusive POSIX record lock (the kind FileChannel.lock takes) until stdin closes. */
    private static final String HOLDER = String.join("\n",
        "import fcntl, sys",
        "f = open(sys.argv[1], 'a')",
        "fcntl.lockf(f, fcntl.LOCK_EX)",
        "print('locked', flush=True)",
        "sys.stdin.read()");

    @TempDir
    Path dir;

    @Test
    @Timeout(30)
    void bindLeavesAStaleFileAloneWhileAnotherProcessHoldsTheLock() throws Exception {
        final Path path = dir.resolve("agent.sock");
        leaveStaleSocket(path);
        final Object staleInode = Files.getAttribute(path, "unix:ino", LinkOption.NOFOLLOW_LINKS);
        final Process holder = holdLock(EndpointListener.lockPathOf(path));
        try {
            final long startNs = System.nanoTime();

            assertThrows(EndpointBusyException.class, () -> EndpointListener.bind(path, Duration.ZERO));

            final long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
            assertTrue(elapsedMs >= 1_000, "polled the lock for its grace second, took " + elapsedMs + " ms");
            assertEquals(staleInode, Files.getAttribute(path, "unix:ino", LinkOption.NOFOLLOW_LINKS),
                "not unlinked without the lock");
        } finally {
            release(holder);
        }
        try (EndpointListener listener = EndpointListener.bind(path, Duration.ZERO)) {
            assertEquals(listener.inode(), Files.getAttribute(path, "unix:ino", LinkOption.NOFOLLOW_LINKS));
        }
    }

    @Test
    @Timeout(30)
    void closeKeepsThePathWhileAnotherProcessHoldsTheLockAndTheNextBindReplacesIt() throws Exception {
        final Path path = dir.resolve("agent.sock");
        final EndpointListener listener = EndpointListener.bind(path, Duration.ZERO);
        final Process holder = holdLock(listener.lockPath());
        try {
            listener.close();

            assertEquals(listener.inode(), Files.getAttribute(path, "unix:ino", LinkOption.NOFOLLOW_LINKS),
                "no unchecked unlink without the lock");
        } finally {
            release(holder);
        }
        try (EndpointListener next = EndpointListener.bind(path, Duration.ZERO)) {
            assertTrue(Files.exists(path, LinkOption.NOFOLLOW_LINKS), "the stale file was replaced");
            assertEquals(next.inode(), Files.getAttribute(path, "unix:ino", LinkOption.NOFOLLOW_LINKS));
        }
    }

    private static void leaveStaleSocket(final Path path) throws Exception {
        try (AFUNIXServerSocketChannel gone = AFUNIXServerSocketChannel.open()) {
            gone.socket().setReuseAddress(false);
            gone.setDeleteOnClose(false);
            gone.bind(AFUNIXSocketAddress.of(path), 1);
        }
    }

    private static Process holdLock(final Path lockFile) throws Exception {
        final Process p = new ProcessBuilder("/usr/bin/python3", "-I", "-S", "-c", HOLDER, lockFile.toString())
            .redirectErrorStream(true).start();
        // Reading its first line is the real condition: the lock is held once it prints.
        final String line = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))
            .readLine();
        assertEquals("locked", line, "lock holder failed to start");
        return p;
    }

    private static void release(final Process holder) throws Exception {
        holder.getOutputStream().close(); // EOF on its stdin: it exits and the kernel drops the lock
        if (!holder.waitFor(10, TimeUnit.SECONDS)) {
            holder.destroyForcibly().waitFor();
        }
    }
}
