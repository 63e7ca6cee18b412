package dev.saccade.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.saccade.protocol.AgentAbi;
import dev.saccade.protocol.CompletionFlyweight;
import dev.saccade.protocol.ResultCode;
import java.nio.file.Path;
import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failures a real service does not produce on demand, each mapped to its exit code with a
 * one-line message and no stack trace (FailureHandler).
 */
@Timeout(30)
class FailureExitCodesTest {
    @TempDir
    Path dir;

    /** Runs {@code saccade observe} against a scripted endpoint at {@code socket}. */
    private static CliRun observeAgainst(final Path socket, final int helloResult, final byte[] reply)
        throws Exception {
        final ScriptedEndpoint endpoint = ScriptedEndpoint.start(socket, helloResult, reply);
        try {
            return CliRun.run("observe", "--endpoint", socket.toString(), "--timeout-ms", "3000");
        } finally {
            endpoint.stop();
        }
    }

    @Test
    void aServiceThatNeverRepliesIsAConnectionFailureNotAProtocolError() throws Exception {
        final Path socket = dir.resolve("silent.sock");
        try (org.newsclub.net.unix.AFUNIXServerSocket server = org.newsclub.net.unix.AFUNIXServerSocket.newInstance()) {
            server.bind(org.newsclub.net.unix.AFUNIXSocketAddress.of(socket)); // the backlog accepts; nobody answers
            final CliRun run = CliRun.run("observe", "--endpoint", socket.toString(), "--timeout-ms", "500");
            assertEquals(ExitCodes.CONNECTION_FAILED, run.exitCode, run.toString());
            assertTrue(run.err.startsWith("saccade: no reply from the service in time: "), run.err);
            assertEquals(1, run.err.lines().count(), run.err);
            assertEquals(0, run.stdout.length);
        }
    }

    @Test
    void connectionClosedWithoutAReplyIsAProtocolError() throws Exception {
        final Path socket = dir.resolve("eof.sock");
        final CliRun run = observeAgainst(socket, ResultCode.OK, null);

        assertEquals(ExitCodes.PROTOCOL, run.exitCode, run.toString());
        assertTrue(run.err.startsWith("saccade: protocol error: the service at " + socket
            + " closed the connection without a reply"), run.err);
        assertEquals(1, run.err.lines().count(), run.err);
        assertEquals(0, run.stdout.length);
    }

    @Test
    void aReplyThatFailsValidationIsAProtocolError() throws Exception {
        final Path socket = dir.resolve("garbage.sock");
        final byte[] reply = new byte[CompletionFlyweight.LENGTH];
        final CompletionFlyweight c = new CompletionFlyweight().wrap(BytesStore.wrap(reply), 0);
        c.header().set(CompletionFlyweight.LENGTH, AgentAbi.OBSERVE_COMPLETION, 0);
        c.requestId(ObserveCommand.REQUEST_ID).totalSize(CompletionFlyweight.LENGTH + 1); // lies about its size
        final CliRun run = observeAgainst(socket, ResultCode.OK, reply);

        assertEquals(ExitCodes.PROTOCOL, run.exitCode, run.toString());
        assertTrue(run.err.startsWith("saccade: protocol error: invalid reply from " + socket
            + ": total_size differs from the frame length"), run.err);
        assertEquals(0, run.stdout.length);
    }

    @Test
    void aReplyToAnotherRequestIsAProtocolError() throws Exception {
        final Path socket = dir.resolve("other.sock");
        final byte[] reply = new byte[CompletionFlyweight.LENGTH];
        final CompletionFlyweight c = new CompletionFlyweight().wrap(BytesStore.wrap(reply), 0);
        c.header().set(CompletionFlyweight.LENGTH, AgentAbi.OBSERVE_COMPLETION, 0);
        c.requestId(99).totalSize(CompletionFlyweight.LENGTH);
        final CliRun run = observeAgainst(socket, ResultCode.OK, reply);

        assertEquals(ExitCodes.PROTOCOL, run.exitCode, run.toString());
        assertTrue(run.err.contains("answered request_id 99 to request " + ObserveCommand.REQUEST_ID), run.err);
    }

    @Test
    void aRefusedHelloIsARejectedRequest() throws Exception {
        final Path socket = dir.resolve("refuse.sock");
        final CliRun run = observeAgainst(socket, ResultCode.CAPABILITY_DENIED, null);

        assertEquals(ExitCodes.REQUEST_REJECTED, run.exitCode, run.toString());
        assertTrue(run.err.startsWith("saccade: Hello refused: CAPABILITY_DENIED"), run.err);
        assertEquals(1, run.err.lines().count(), run.err);
    }

    @Test
    void anUnexpectedBugStillReachesPicocli() {
        assertEquals(FailureHandler.UNMAPPED, FailureHandler.exitCodeOf(new IllegalStateException("bug")));
        assertEquals(ExitCodes.CONNECTION_FAILED, FailureHandler.exitCodeOf(new java.net.SocketTimeoutException("slow")));
        assertEquals(ExitCodes.PROTOCOL, FailureHandler.exitCodeOf(new java.io.EOFException("closed")));
        assertEquals(ExitCodes.CONNECTION_FAILED, FailureHandler.exitCodeOf(
            new EndpointUnreachableException(dir, new java.io.IOException("Permission denied"))));
    }
}
