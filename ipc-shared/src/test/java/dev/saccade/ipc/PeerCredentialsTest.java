package dev.saccade.ipc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.saccade.testsupport.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** SO_PEERCRED: a peer running as another uid is closed without a byte and counted. */
class PeerCredentialsTest {
    private static final Path PYTHON = Path.of("/usr/bin/python3");
    private static final Path SETPRIV = Path.of("/usr/bin/setpriv");
    /** Connects, then reports what the service sent before EOF; prints its euid first. */
    private static final String CLIENT = String.join("\n",
        "import os, socket, sys",
        "print('euid', os.geteuid(), flush=True)",
        "s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)",
        "s.settimeout(20)",
        "s.connect(sys.argv[1])",
        "print('connected', flush=True)",
        "data = s.recv(65536)",
        "print('EOF' if data == b'' else 'DATA ' + data.hex(), flush=True)");

    @TempDir
    Path dir;

    @Test
    @Timeout(60)
    void closesConnectionFromAnotherUidWithoutWritingAndCountsIt() throws Exception {
        final TestUser user = TestUser.ensure();
        if (!Files.isExecutable(PYTHON) || !Files.isExecutable(SETPRIV)) {
            fail("need " + PYTHON + " and " + SETPRIV + " to run a client as " + TestUser.NAME);
        }
        // For this test only: let the other user reach the socket (the real directory is 0700).
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
        final Path path = dir.resolve("agent.sock");
        try (EndpointListener listener = EndpointListener.bind(path, Duration.ZERO)) {
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-rw-rw-"));
            final Process client = new ProcessBuilder(SETPRIV.toString(), "--reuid=" + user.uid, "--regid=" + user.gid,
                "--clear-groups", PYTHON.toString(), "-I", "-S", "-c", CLIENT, path.toString())
                .redirectErrorStream(true).start();
            try {
                Await.until(() -> {
                    try {
                        assertNull(listener.acceptNonBlocking(), "a foreign peer is never handed to the owner");
                    } catch (final java.io.IOException e) {
                        throw new AssertionError(e);
                    }
                    return listener.refusedPeers() == 1 || !client.isAlive();
                }, Duration.ofSeconds(30), () -> "the foreign connection");
                assertTrue(client.waitFor(30, TimeUnit.SECONDS), "client did not see the close");
                final String output = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

                assertEquals("euid " + user.uid + "\nconnected\nEOF\n", output, "closed with no byte written");
                assertEquals(1, listener.refusedPeers());
                assertEquals(0, listener.acceptedPeers());
                assertEquals(-1, listener.lastPeerPid(), "a refused peer is not recorded as accepted");
            } finally {
                client.destroyForcibly().waitFor();
            }
        }
    }
}
