package dev.saccade.ipc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.testsupport.Await;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.newsclub.net.unix.AFUNIXServerSocketChannel;
import org.newsclub.net.unix.AFUNIXSocketAddress;
import org.newsclub.net.unix.AFUNIXSocketChannel;

/** One process: bind, checked unlink, accept. The two-process cases are in EndpointTakeoverTest. */
class EndpointListenerTest {
    private static final Duration WAIT = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    @Test
    @Timeout(10)
    void bindsSocketWithMode0600AndRecordsItsDeviceAndInode() throws Exception {
        final Path path = dir.resolve(RuntimeDirectory.AGENT_SOCKET_NAME);
        try (EndpointListener listener = EndpointListener.bind(path, Duration.ZERO)) {
            final int mode = (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            assertEquals(0140000, mode & 0170000, "a socket file");
            assertEquals(0600, mode & 0777);
            assertEquals(Files.getAttribute(path, "unix:dev", LinkOption.NOFOLLOW_LINKS), listener.device());
            assertEquals(Files.getAttribute(path, "unix:ino", LinkOption.NOFOLLOW_LINKS), listener.inode());
            assertEquals(dir.resolve("saccade-agent-v1.sock.lock"), listener.lockPath());
            assertEquals(0600, (Integer) Files.getAttribute(listener.lockPath(), "unix:mode") & 0777);
            assertFalse(listener.serverChannel().socket().getReuseAddress(), "reuseAddress takes over live paths");
            assertFalse(listener.serverChannel().isDeleteOnClose(), "deleteOnClose unlinks unchecked");
        }
    }

    @Test
    @Timeout(10)
    void closeUnlinksItsOwnSocketAndKeepsTheLockFile() throws Exception {
        final Path path = dir.resolve("agent.sock");
        final EndpointListener listener = EndpointListener.bind(path, Duration.ZERO);

        listener.close();

        assertFalse(Files.exists(path, LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.exists(listener.lockPath()), "deleting the lock file would split the lock");
        listener.close(); // a second close is a no-op
    }

    @Test
    @Timeout(10)
    void oldListenersCloseNeverUnlinksANewerListenersPath() throws Exception {
        final Path path = dir.resolve("agent.sock");
        final EndpointListener old = EndpointListener.bind(path, Duration.ZERO);
        Files.delete(path); // e.g. an operator or a non-cooperating tool removed it
        try (EndpointListener newer = EndpointListener.bind(path, Duration.ZERO)) {
            assertTrue(newer.inode() != old.inode() || newer.device() != old.device());

            old.close();

            assertTrue(Files.exists(path, LinkOption.NOFOLLOW_LINKS), "the newer socket file survives");
            assertEquals(newer.inode(), Files.getAttribute(path, "unix:ino", LinkOption.NOFOLLOW_LINKS));
            try (AFUNIXSocketChannel client = AFUNIXSocketChannel.open(AFUNIXSocketAddress.of(path))) {
                assertTrue(client.isConnected());
                final AFUNIXSocketChannel accepted = awaitAccept(newer);
                accepted.close();
            }
        }
        assertFalse(Files.exists(path, LinkOption.NOFOLLOW_LINKS), "the newer listener unlinks its own file");
    }

    @Test
    @Timeout(10)
    void secondBinderInTheSameJvmFindsThePathBusyAndLeavesItAlone() throws Exception {
        final Path path = dir.resolve("agent.sock");
        try (EndpointListener live = EndpointListener.bind(path, Duration.ZERO)) {
            final EndpointBusyException e =
                assertThrows(EndpointBusyException.class, () -> EndpointListener.bind(path, Duration.ZERO));

            assertEquals(path, e.path());
            assertTrue(e.getMessage().contains("ALREADY_EXISTS"), e.getMessage());
            assertEquals(live.inode(), Files.getAttribute(path, "unix:ino", LinkOption.NOFOLLOW_LINKS));
            // The probe was a real connect: the live listener sees (and may drop) it.
            awaitAccept(live).close();
        }
    }

    @Test
    @Timeout(10)
    void unlinksStaleSocketFileWhoseListenerIsGone() throws Exception {
        final Path path = dir.resolve("agent.sock");
        try (AFUNIXServerSocketChannel dead = AFUNIXServerSocketChannel.open()) {
            dead.socket().setReuseAddress(false);
            dead.setDeleteOnClose(false);
            dead.bind(AFUNIXSocketAddress.of(path), 1);
        }
        assertTrue(Files.exists(path, LinkOption.NOFOLLOW_LINKS), "left behind: connect is refused now");

        try (EndpointListener listener = EndpointListener.bind(path, Duration.ZERO);
             AFUNIXSocketChannel client = AFUNIXSocketChannel.open(AFUNIXSocketAddress.of(path))) {
            assertTrue(client.isConnected());
            awaitAccept(listener).close();
        }
    }

    @Test
    @Timeout(10)
    void refusesToReplaceAFileThatIsNotASocket() throws Exception {
        final Path path = Files.writeString(dir.resolve("agent.sock"), "not a socket");

        final IOException e = assertThrows(IOException.class, () -> EndpointListener.bind(path, Duration.ZERO));

        assertTrue(e.getMessage().contains("not a socket"), e.getMessage());
        assertEquals("not a socket", Files.readString(path));
    }

    @Test
    @Timeout(10)
    void acceptsPeerOfOurUidInNonBlockingModeAndRecordsItsPid() throws Exception {
        final Path path = dir.resolve("agent.sock");
        try (EndpointListener listener = EndpointListener.bind(path, Duration.ZERO)) {
            assertNull(listener.acceptNonBlocking(), "nothing pending");
            try (AFUNIXSocketChannel client = AFUNIXSocketChannel.open(AFUNIXSocketAddress.of(path));
                 AFUNIXSocketChannel accepted = awaitAccept(listener)) {
                assertFalse(accepted.isBlocking());
                assertEquals(0, accepted.read(ByteBuffer.allocateDirect(1)), "non-blocking: no data yet");
                assertEquals(ProcessHandle.current().pid(), listener.lastPeerPid());
                assertEquals(RuntimeDirectory.currentUid(), listener.lastPeerUid());
                assertEquals(1, listener.acceptedPeers());
                assertEquals(0, listener.refusedPeers());
                assertTrue(client.isConnected());
            }
        }
    }

    static AFUNIXSocketChannel awaitAccept(final EndpointListener listener) {
        final AtomicReference<AFUNIXSocketChannel> accepted = new AtomicReference<>();
        Await.until(() -> {
            try {
                accepted.set(listener.acceptNonBlocking());
            } catch (final IOException e) {
                throw new AssertionError(e);
            }
            return accepted.get() != null;
        }, WAIT, () -> "a connection on " + listener.path());
        return accepted.get();
    }
}
