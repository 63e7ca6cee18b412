package dev.saccade.ipc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.testsupport.Await;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.newsclub.net.unix.AFSocket;
import org.newsclub.net.unix.AFUNIXSocketAddress;
import org.newsclub.net.unix.AFUNIXSocketChannel;

/**
 * The owner's side of the supervisor link over real Unix sockets: the listening descriptor
 * travels with {@code listen} (SCM_RIGHTS), the adopted listener accepts the connects that
 * queued on the binder's socket, and closing the adopted copy neither unlinks the path nor stops
 * the binder's copy from queueing.
 */
class ListenerHandoffTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(20)
    void adoptedListenerServesQueuedConnectsAndItsCloseLeavesThePathListening() throws Exception {
        final Path endpointPath = dir.resolve("agent.sock");
        final Path linkPath = dir.resolve(ListenerHandoff.LINK_SOCKET_NAME);
        try (EndpointListener endpoint = EndpointListener.bind(endpointPath, Duration.ZERO);
             EndpointListener link = EndpointListener.bind(linkPath, Duration.ZERO)) {
            // A client connects before any owner serves: it waits in the backlog, not refused.
            final AFUNIXSocketChannel early = AFUNIXSocketChannel.open(AFUNIXSocketAddress.of(endpointPath));

            final CompletableFuture<EndpointListener> adopted = CompletableFuture.supplyAsync(() -> {
                try {
                    final ListenerHandoff owner = ListenerHandoff.connect(linkPath, "00ff");
                    owner.ready(42);
                    return owner.awaitListener(endpointPath);
                } catch (final IOException e) {
                    throw new RuntimeException(e);
                }
            });
            AFUNIXSocketChannel supervisorSide = null;
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (supervisorSide == null) {
                Await.check(deadline, "the owner's link connection");
                supervisorSide = link.acceptNonBlocking();
                java.util.concurrent.locks.LockSupport.parkNanos(2_000_000L);
            }
            supervisorSide.configureBlocking(true);
            final AFSocket<AFUNIXSocketAddress> socket = supervisorSide.socket();
            assertEquals("hello 00ff " + ProcessHandle.current().pid(), ListenerHandoff.readLine(socket.getInputStream()));
            assertEquals("ready 42", ListenerHandoff.readLine(socket.getInputStream()));
            supervisorSide.setOutboundFileDescriptors(endpoint.serverChannel().getFileDescriptor());
            ListenerHandoff.writeLine(socket.getOutputStream(), ListenerHandoff.LISTEN);

            final EndpointListener copy = adopted.get(10, TimeUnit.SECONDS);
            assertFalse(copy.bound(), "adopted, not bound");
            assertEquals(endpoint.inode(), copy.inode());
            AFUNIXSocketChannel served = null;
            while (served == null) {
                Await.check(deadline, "the adopted listener accepting the queued client");
                served = copy.acceptNonBlocking();
                java.util.concurrent.locks.LockSupport.parkNanos(2_000_000L);
            }
            early.write(ByteBuffer.wrap("x".getBytes(StandardCharsets.US_ASCII)));
            final ByteBuffer got = ByteBuffer.allocate(1);
            served.configureBlocking(true);
            assertEquals(1, served.read(got));
            served.close();
            early.close();

            copy.close();
            assertFalse(copy.serverChannel().getFileDescriptor().valid(),
                "junixsocket's descriptor object is invalidated, so its cleaner cannot close a reused number");
            assertTrue(Files.exists(endpointPath, LinkOption.NOFOLLOW_LINKS), "closing an adopted copy never unlinks");
            final AFUNIXSocketChannel later = AFUNIXSocketChannel.open(AFUNIXSocketAddress.of(endpointPath));
            try (later) {
                AFUNIXSocketChannel accepted = null;
                while (accepted == null) {
                    Await.check(deadline, "the binder's copy still accepting");
                    accepted = endpoint.acceptNonBlocking();
                    java.util.concurrent.locks.LockSupport.parkNanos(2_000_000L);
                }
                accepted.close();
            }
            supervisorSide.close();
        }
        assertFalse(Files.exists(endpointPath, LinkOption.NOFOLLOW_LINKS), "the binder unlinks at its close");
    }

    @Test
    @Timeout(20)
    void listenWithoutADescriptorIsRefused() throws Exception {
        final Path linkPath = dir.resolve(ListenerHandoff.LINK_SOCKET_NAME);
        try (EndpointListener link = EndpointListener.bind(linkPath, Duration.ZERO)) {
            final CompletableFuture<IOException> failure = CompletableFuture.supplyAsync(() -> {
                try (ListenerHandoff owner = ListenerHandoff.connect(linkPath, "00")) {
                    owner.awaitListener(dir.resolve("agent.sock"));
                    return null;
                } catch (final IOException e) {
                    return e;
                }
            });
            AFUNIXSocketChannel side = null;
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (side == null) {
                Await.check(deadline, "link connection");
                side = link.acceptNonBlocking();
                java.util.concurrent.locks.LockSupport.parkNanos(2_000_000L);
            }
            side.configureBlocking(true);
            ListenerHandoff.writeLine(side.socket().getOutputStream(), ListenerHandoff.LISTEN);
            final IOException e = failure.get(10, TimeUnit.SECONDS);
            assertNotNull(e);
            assertTrue(e.getMessage().contains("descriptor"), e.getMessage());
            side.close();
        }
    }

    @Test
    void overlongOrBinaryLinesAreRefused() {
        final byte[] longLine = new byte[ListenerHandoff.MAX_LINE_BYTES + 1];
        java.util.Arrays.fill(longLine, (byte) 'a');
        assertThrows(IOException.class, () -> ListenerHandoff.readLine(new ByteArrayInputStream(longLine)));
        assertThrows(IOException.class, () -> ListenerHandoff.readLine(new ByteArrayInputStream(new byte[] {1, '\n'})));
    }
}
