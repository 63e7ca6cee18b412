package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.client.UnexpectedReplyException;
import dev.saccade.installer.TestDistribution;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.newsclub.net.unix.AFUNIXServerSocket;
import org.newsclub.net.unix.AFUNIXSocket;
import org.newsclub.net.unix.AFUNIXSocketAddress;

/**
 * {@code saccade upgrade} against a real Unix socket server standing in for the supervisor's
 * control socket: the exact request line, and what each kind of answer (or none) leads to.
 */
class UpgradeCommandTest {
    @TempDir
    Path temp;
    Path home;
    Path socket;
    Path current;

    @BeforeEach
    void installFirstVersion() throws Exception {
        home = Files.createDirectory(temp.resolve("home"));
        socket = temp.resolve("saccade-supervisor-v1.sock");
        current = home.resolve(".local/share/saccade/current");
        final CliRun install = CliRun.run("install", "--platform", "linux", "--home", home.toString(),
            "--from", TestDistribution.create(temp.resolve("dist-1"), "1.0.0", "a").toString());
        assertEquals(0, install.exitCode, install::toString);
    }

    private CliRun upgrade(final String... extra) throws Exception {
        final Path dist = TestDistribution.create(temp.resolve("dist-2"), "2.0.0", "b");
        final String[] args = {"upgrade", "--platform", "linux", "--home", home.toString(), "--from", dist.toString(),
            "--control-socket", socket.toString(), "--timeout-ms", "10000"};
        final String[] all = java.util.Arrays.copyOf(args, args.length + extra.length);
        System.arraycopy(extra, 0, all, args.length, extra.length);
        return CliRun.run(all);
    }

    /** Serves one connection: reads one line, answers {@code reply} (unless null), closes; yields the line. */
    private CompletableFuture<String> serveOnce(final AFUNIXServerSocket server, final String reply) {
        return CompletableFuture.supplyAsync(() -> {
            try (AFUNIXSocket client = server.accept()) {
                client.setSoTimeout(10_000);
                final InputStream in = client.getInputStream();
                final ByteArrayOutputStream line = new ByteArrayOutputStream();
                for (int b = in.read(); b >= 0; b = in.read()) {
                    line.write(b);
                    if (b == '\n') {
                        break;
                    }
                }
                if (reply != null) {
                    client.getOutputStream().write(reply.getBytes(StandardCharsets.UTF_8));
                }
                return line.toString(StandardCharsets.UTF_8);
            } catch (final Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private AFUNIXServerSocket listen() throws Exception {
        final AFUNIXServerSocket server = AFUNIXServerSocket.newInstance();
        server.bind(AFUNIXSocketAddress.of(socket));
        return server;
    }

    private String expectedLine() {
        return "{\"command\":\"upgrade\",\"to\":\"" + home.resolve(".local/share/saccade/versions/2.0.0") + "\"}\n";
    }

    @Test
    @Timeout(30)
    void sendsTheUpgradeLineAndSucceedsWhenTheSupervisorSaysOk() throws Exception {
        try (AFUNIXServerSocket server = listen()) {
            final CompletableFuture<String> line = serveOnce(server, "{\"ok\":true,\"generation\":\"17\"}\n");

            final CliRun run = upgrade();

            assertEquals(0, run.exitCode, run::toString);
            assertEquals(expectedLine(), line.get(10, TimeUnit.SECONDS));
            assertEquals(Path.of("versions/2.0.0"), Files.readSymbolicLink(current));
            assertTrue(run.out.contains("the supervisor runs Saccade 2.0.0 now"), run::toString);
        }
    }

    @Test
    @Timeout(30)
    void aRefusedUpgradeIsRejectedAndCurrentPointsAtTheRunningVersionAgain() throws Exception {
        try (AFUNIXServerSocket server = listen()) {
            final CompletableFuture<String> line = serveOnce(server, "{\"ok\":false,\"error\":\"new owner exited with 1\"}\n");

            final CliRun run = upgrade();

            assertEquals(ExitCodes.REQUEST_REJECTED, run.exitCode, run::toString);
            assertEquals(expectedLine(), line.get(10, TimeUnit.SECONDS));
            assertTrue(run.err.contains("did not upgrade to 2.0.0: new owner exited with 1"), run::toString);
            assertEquals(Path.of("versions/1.0.0"), Files.readSymbolicLink(current));
            assertTrue(Files.isDirectory(home.resolve(".local/share/saccade/versions/2.0.0")), "still installed");
        }
    }

    @Test
    @Timeout(30)
    void aReplyThatBreaksTheContractIsAProtocolError() throws Exception {
        try (AFUNIXServerSocket server = listen()) {
            serveOnce(server, "{\"status\":\"fine\"}\n");

            final CliRun run = upgrade();

            assertEquals(ExitCodes.PROTOCOL, run.exitCode, run::toString);
            assertTrue(run.err.contains("has no \"ok\""), run::toString);
        }
    }

    @Test
    @Timeout(30)
    void aSupervisorThatClosesWithoutReplyIsAProtocolError() throws Exception {
        try (AFUNIXServerSocket server = listen()) {
            serveOnce(server, null);

            final CliRun run = upgrade();

            assertEquals(ExitCodes.PROTOCOL, run.exitCode, run::toString);
            assertTrue(run.err.contains("closed the connection without a reply"), run::toString);
        }
    }

    @Test
    @Timeout(30)
    void withoutASupervisorTheVersionIsInstalledForTheNextStart() throws Exception {
        final CliRun run = upgrade();

        assertEquals(UpgradeCommand.INSTALLED_NOT_RUNNING, run.exitCode, run::toString);
        assertTrue(run.out.contains("no supervisor is running at " + socket + " (no socket file there)"), run::toString);
        assertTrue(run.out.contains("will be used at next start"), run::toString);
        assertEquals(Path.of("versions/2.0.0"), Files.readSymbolicLink(current));
    }

    @Test
    @Timeout(30)
    void aSocketFileLeftOverByADeadSupervisorCountsAsNotRunning() throws Exception {
        final AFUNIXServerSocket server = AFUNIXServerSocket.newInstance();
        server.setDeleteOnClose(false);
        server.bind(AFUNIXSocketAddress.of(socket));
        server.close();
        assertTrue(Files.exists(socket));

        final CliRun run = upgrade();

        assertEquals(UpgradeCommand.INSTALLED_NOT_RUNNING, run.exitCode, run::toString);
        assertTrue(run.out.contains("connection refused"), run::toString);
    }

    @Test
    void dryRunPrintsTheLineItWouldSendAndWritesNothing() throws Exception {
        final CliRun run = upgrade("--dry-run");

        assertEquals(0, run.exitCode, run::toString);
        assertTrue(run.out.endsWith("# and then send to " + socket + ":\n" + expectedLine()), run::toString);
        assertEquals(Path.of("versions/1.0.0"), Files.readSymbolicLink(current));
        assertTrue(Files.notExists(home.resolve(".local/share/saccade/versions/2.0.0")));
    }

    @Test
    void helpDocumentsTheNotRunningExitCode() {
        final CliRun run = CliRun.run("upgrade", "--help");

        assertEquals(0, run.exitCode, run::toString);
        assertTrue(run.out.contains("  " + UpgradeCommand.INSTALLED_NOT_RUNNING + "   installed; no supervisor is running"),
            run::toString);
    }

    @Test
    void repliesAreParsedStrictly() throws Exception {
        assertEquals(new SupervisorControlRequest.Reply(true, null, "{\"ok\":true,\"x\":[1,{\"y\":2}]}"),
            SupervisorControlRequest.parse("{\"ok\":true,\"x\":[1,{\"y\":2}]}"));
        assertEquals("busy", SupervisorControlRequest.parse("{\"ok\":false,\"error\":\"busy\"}").error());
        assertThrows(UnexpectedReplyException.class, () -> SupervisorControlRequest.parse("[true]"));
        assertThrows(UnexpectedReplyException.class, () -> SupervisorControlRequest.parse("{\"ok\":\"yes\"}"));
        assertThrows(UnexpectedReplyException.class, () -> SupervisorControlRequest.parse("{\"ok\":false}"));
        assertThrows(UnexpectedReplyException.class, () -> SupervisorControlRequest.parse("{\"ok\":true} {}"));
        assertThrows(UnexpectedReplyException.class, () -> SupervisorControlRequest.parse("{\"ok\":true"));
        assertThrows(UnexpectedReplyException.class, () -> SupervisorControlRequest.parse("{\"ok\":true,\"ok\":false}"));
    }
}
