package dev.saccade.pcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.saccade.ipc.EndpointListener;
import dev.saccade.ipc.RuntimeDirectory;
import dev.saccade.testsupport.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The owner's PCP while its socket is still held by the owner being replaced: the start does
 * not block (the owner runs on), PCP binds as soon as the old listener is gone, and closing
 * the owner meanwhile ends the wait.
 */
@Timeout(60)
class OwnerPcpTest {
    @TempDir
    Path temp;

    @Test
    void waitsForTheReplacedOwnersSocketWithoutHoldingTheOwnerBack() throws Exception {
        final Path run = Files.createDirectory(temp.resolve("run"), PosixFilePermissions.asFileAttribute(
            PosixFilePermissions.fromString("rwx------")));
        final Path socket = run.resolve(RuntimeDirectory.PCP_SOCKET_NAME);
        final EndpointListener old = EndpointListener.bind(socket, Duration.ZERO);
        final long startNs = System.nanoTime();
        try (OwnerPcp pcp = OwnerPcp.start(run, run.resolve("agent.sock"), null)) {
            assertNotNull(pcp);
            assertEquals(true, System.nanoTime() - startNs < TimeUnit.SECONDS.toNanos(1), "start returns at once");
            assertNull(pcp.endpoint(), "still waiting for the old owner's socket");
            old.close(); // the old owner exits and unlinks its socket
            Await.until(() -> pcp.endpoint() != null, Duration.ofSeconds(20), Duration.ofMillis(10),
                () -> "PCP bound once the socket was free; endpoint still " + pcp.endpoint());
            try (PcpClient client = PcpClient.connect(socket, Duration.ofSeconds(10))) {
                final Map<String, Object> health = client.call("health.check", null, null);
                assertEquals("ok", ((Map<?, ?>) health.get("result")).get("status"));
            }
        }
    }

    @Test
    void closingTheOwnerEndsTheWait() throws Exception {
        final Path run = Files.createDirectory(temp.resolve("run2"), PosixFilePermissions.asFileAttribute(
            PosixFilePermissions.fromString("rwx------")));
        final EndpointListener old = EndpointListener.bind(run.resolve(RuntimeDirectory.PCP_SOCKET_NAME), Duration.ZERO);
        try (old) {
            final OwnerPcp pcp = OwnerPcp.start(run, run.resolve("agent.sock"), null);
            final long closeStart = System.nanoTime();
            pcp.close();
            assertEquals(true, System.nanoTime() - closeStart < TimeUnit.SECONDS.toNanos(6), "close does not wait out the minute");
            assertNull(pcp.endpoint());
        }
    }
}
